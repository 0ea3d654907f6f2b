/* python/src/pyfk.h: what the files of the extension filterkit._filterkit
 * share, every prototype one of them calls in another. The files, bottom
 * up (each calls only those above it):
 *
 *   errors.c       the exceptions and the fk_status -> exception map
 *   keys.c         Python objects -> key bytes
 *   lock.c         the per-filter lock: GIL-free sections and writers
 *   params.c       the keyword knobs -> fk_params, the default byte limit
 *   batch.c        many keys per call (add_many, contains_many, update, build)
 *   window.c       the forgetting kinds' extras: span=, advance, describe
 *   filter_type.c  filterkit.Filter and one class per registered kind
 *   bench.c        filterkit.bench, sizing, and filterkit.pick: the CLI's own pick
 *   module.c       the module: its state, multi-phase initialisation, functions
 *
 * The extension knows no kind by name: every kind comes from the registry
 * (fk_ops_at), and what it can do from fk_ops_caps, so a new kind in the
 * library is a new Python class with no change here.
 *
 * Everything an import makes lives in the module's state (pyfk_state): two
 * imports (two interpreters, or importlib loading the file twice) share no
 * Python object. Needs CPython 3.11 (PyType_GetModuleByDef).
 */
#ifndef PYFK_H
#define PYFK_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <pythread.h>
#include <stdbool.h>
#include <stdint.h>
#include "common/filter.h"
#include "common/serial.h"
#include "registry/registry.h" /* the kinds: fk_ops_at, fk_ops_find, fk_filter_load_any */

#if PY_VERSION_HEX < 0x030B0000
#error "filterkit's Python package needs CPython 3.11 or newer (PyType_GetModuleByDef)"
#endif

/* ------------------------------------------------------- module state */

/* At most this many kinds get a class (the registry has 9 today). */
#define PYFK_MAX_KINDS 64

typedef struct {
    /* filterkit's exceptions (errors.c) */
    PyObject *Error, *FilterFullError, *CorruptError, *UnsupportedError, *LimitError;
    /* filterkit.Filter, and the class of each registry kind */
    PyTypeObject *filter_type;
    size_t        nkinds;
    struct {
        const fk_ops *ops;
        PyTypeObject *type;
    } kinds[PYFK_MAX_KINDS];
    /* numpy.empty and numpy.bool_, imported on the first contains_many */
    PyObject *numpy_empty, *numpy_bool;
} pyfk_state;

extern PyModuleDef pyfk_module_def;

/* The state of the module that made type (a kind's class, Filter, or a
 * user's subclass of one): never NULL for those (a TypeError, NULL, for
 * any other type). Cost: a walk up type's MRO. */
static inline pyfk_state *pyfk_state_of_type(PyTypeObject *type)
{
    PyObject *m = PyType_GetModuleByDef(type, &pyfk_module_def); /* borrowed */
    return m ? (pyfk_state *)PyModule_GetState(m) : NULL;
}

/* -------------------------------------------------------------- errors */

/* Adds filterkit's exceptions to module and its state: 0, or -1. */
int pyfk_errors_init(PyObject *module, pyfk_state *st);
/* The exception documented for s (never FK_OK): borrowed. */
PyObject *pyfk_exception_for(const pyfk_state *st, fk_status s);
/* Sets the exception documented for s (never FK_OK) with "what: reason";
 * returns NULL so that callers can `return pyfk_raise(...)`. */
PyObject *pyfk_raise(const pyfk_state *st, fk_status s, const char *what);
/* As pyfk_raise, the exception carrying .done (the keys a batch inserted
 * before the refused one). */
PyObject *pyfk_raise_done(const pyfk_state *st, fk_status s, size_t done, const char *what);
/* FilterFullError for an insert into a filter of kind ops sized for
 * capacity that found no room, with the CLI's hints: the headroom to give
 * and the growing kind to use (filterkit.ScalableCuckoo for cuckoo);
 * carrying .done when with_done. Returns NULL. */
PyObject *pyfk_raise_full(const pyfk_state *st, const fk_ops *ops, uint64_t capacity, bool with_done,
                          size_t done, const char *what);

/* ------------------------------------------------------ the filter object
 *
 * Beside the C filter (sys.getsizeof adds the filter's own memory_bytes)
 * and its lock. No __dict__, no GC header: it holds no Python object but
 * its list of weak references. */
typedef struct {
    PyObject_HEAD
    fk_filter *filter; /* owned; never NULL once __new__ returned */
    /* `int in f`'s call, taken from the kind's table when the object is
     * made: its contains_u64 slot, or fk_filter_contains_u64 for a table
     * without one (same answers; no per-call look-up of the slot). */
    bool     (*contains_u64)(const fk_filter *f, uint64_t key);
    double     fpr;    /* the target it was made for (stats() reports it) */
    uint64_t   seed;
    /* The byte limit its growth stays under: the max_bytes knob, else
     * pyfk_default_max_bytes() when it was made or loaded. */
    uint64_t   max_bytes;
    /* The lock (lock.c). `room` is held while the filter has a holder: a
     * writer, or a group of readers (the last one out releases it); the
     * counts beside it change only with the GIL held. */
    PyThread_type_lock room;
    int        readers;         /* holders reading it (a group) */
    int        writers_waiting; /* writers blocked on room: readers stop joining */
    bool       writer;          /* a holder writes it */
    int        concurrent_adds; /* readers that are add_many(concurrent=True): they
                                   write through the kind's concurrent inserts */
    /* What clear() remakes it from: the parameters it was made with, when
     * the constructor made it (made_known); else its header's capacity,
     * fpr and seed, checked against its shape before use. */
    fk_params  made;
    uint64_t   made_span;       /* a time window's span (0: none), with made */
    bool       made_known;
    PyObject  *weakrefs;        /* weakref.ref(f) support (tp_weaklistoffset) */
} pyfk_filter;

/* The class of the kind ops (borrowed), or NULL with TypeError set. */
PyTypeObject *pyfk_type_of_ops(const pyfk_state *st, const fk_ops *ops);
/* The kind a class stands for: NULL for Filter itself (no error set). */
const fk_ops *pyfk_ops_of_type(const pyfk_state *st, PyTypeObject *type);
/* Wraps f (stolen: freed on error) in a new object of its kind's class. */
PyObject *pyfk_wrap(const pyfk_state *st, fk_filter *f, double fpr, uint64_t seed);
/* Makes Filter and the kinds' classes into module and st: 0, or -1. */
int pyfk_types_init(PyObject *module, pyfk_state *st);
/* The filter saved in data (bytes-like) or in the file at path_arg: of
 * kind ops, or of the kind its header names when ops is NULL. */
PyObject *pyfk_load_bytes(const pyfk_state *st, const fk_ops *ops, PyObject *data, const char *what);
PyObject *pyfk_load_path(const pyfk_state *st, PyObject *path_arg, const fk_ops *ops);

/* ----------------------------------------------------------------- keys
 *
 * A key is bytes, bytearray or a C-contiguous memoryview (its bytes), str
 * (its UTF-8), or int in [0, 2**64-1] (its 8 little-endian bytes: the C
 * u64 calls). Anything else is TypeError; a negative or too large int is
 * OverflowError. */
typedef struct {
    const void *ptr;   /* the bytes (for an int: le[]) */
    size_t      len;
    bool        is_int;
    uint64_t    u64;   /* the int's value when is_int */
    unsigned char le[8];
    Py_buffer   view;  /* held for a buffer key */
    bool        has_view;
} pyfk_key;

/* Fills k from o; returns 0, or -1 with the exception set. Release with
 * pyfk_key_release (also after an error). */
int pyfk_key_get(PyObject *o, pyfk_key *k);
void pyfk_key_release(pyfk_key *k);
/* An exact int's value (o passed PyLong_CheckExact) read from its digits
 * with no call: true for the ints of at most two digits (0 .. 2**60-1
 * with CPython's usual 30-bit digits; from 3.12 on, the compact ints,
 * 0 .. 2**30-1), false for the others, which take pyfk_u64_of. */
static inline bool pyfk_small_u64(PyObject *o, uint64_t *out)
{
#if PY_VERSION_HEX >= 0x030C0000
    if (!PyUnstable_Long_IsCompact((PyLongObject *)o))
        return false;
    Py_ssize_t v = PyUnstable_Long_CompactValue((PyLongObject *)o);
    *out = (uint64_t)v;
    return v >= 0;
#else
    /* CPython 3.11: ob_size is the signed digit count */
    const digit *d = ((PyLongObject *)o)->ob_digit;
    switch (Py_SIZE(o)) {
    case 0: *out = 0; return true;
    case 1: *out = d[0]; return true;
    case 2: *out = (uint64_t)d[0] | (uint64_t)d[1] << PyLong_SHIFT; return true;
    default: return false;
    }
#endif
}

/* An int key's value: 0, or -1 with OverflowError/TypeError set. */
int pyfk_u64_of(PyObject *o, uint64_t *out);
void pyfk_le64(uint64_t v, unsigned char out[8]);

/* ------------------------------------------------------------- the lock
 *
 * Two ways to use a filter, both with the GIL held when they start:
 *
 * Holding it (pyfk_hold .. pyfk_unhold): for a section that drops the GIL
 * (a batch, save) or replaces, frees or rewrites the table (merge,
 * intersect, grow). A writer holds it alone; readers hold it together,
 * and stop joining while a writer waits, so a stream of batches cannot
 * starve a merge. An operation on two filters holds both for its whole
 * run, taken in address order, so f |= g beside g |= f cannot deadlock.
 * Nothing that may run Python code (a key's __index__, an allocation that
 * may collect garbage) happens while a filter is held: a finalizer using
 * the filter would wait for its own thread.
 *
 * Using it under the GIL (pyfk_enter .. pyfk_leave): a call that keeps the
 * GIL from its check to its end (add, x in f, count, stats, ...) only
 * needs the holders that would conflict to be gone, since no holder can
 * start without the GIL. When one is there it blocks on the lock with the
 * GIL released (no spin), then runs with the lock taken.
 *
 * Waits end early (-1, the exception set) when a signal handler raises. */

/* Holds w for writing and r for reading (either may be NULL; w != r). 0,
 * or -1 with nothing held. */
int pyfk_hold(pyfk_filter *w, pyfk_filter *r);
void pyfk_unhold(pyfk_filter *w, pyfk_filter *r);

/* GIL-held use of f: 0 (go, nothing taken), 1 (go, the lock taken: pass
 * it to pyfk_leave), or -1 with the exception set. */
int pyfk_enter_slow(pyfk_filter *f, bool write);
static inline int pyfk_enter(pyfk_filter *f, bool write)
{
    return (f->writer || (write && f->readers)) ? pyfk_enter_slow(f, write) : 0;
}
/* pyfk_enter for a reader that needs the writers done (stats, saving):
 * beside a concurrent add_many (a reader that writes) it enters as a
 * writer, so it waits for the batch to end. */
static inline int pyfk_enter_settled(pyfk_filter *f)
{
    return pyfk_enter(f, f->concurrent_adds > 0);
}
static inline void pyfk_leave(pyfk_filter *f, int entered)
{
    if (entered > 0)
        PyThread_release_lock(f->room);
}

/* --------------------------------------------------- knobs and limits */

/* Reads the fk_params knobs from keyword arguments (capacity, fpr, seed,
 * bits, hashes, counter_bits, fingerprint_bits, growth, max_load,
 * tightening, max_bytes); 0, or -1 with TypeError/ValueError/OverflowError set.
 * Unset knobs stay 0 ("derive"); fpr defaults to 0.01. */
int pyfk_params_from(PyObject *kw, fk_params *p, bool capacity_required);
/* The byte limit of a filter made with max_bytes 0 or loaded: half the
 * least of the physical memory (sysconf), RLIMIT_AS, RLIMIT_DATA and the
 * cgroup's memory.max (those that are set), at most FK_MEMORY_CAP. Half,
 * since a grow holds the old table beside the new one. Cost: a few system
 * calls and one small file read. */
uint64_t pyfk_default_max_bytes(void);

/* ------------------------------------------------------------ batches */

/* Batches of at least this many keys drop the GIL (below it the hand-over
 * costs more than it frees). */
#define PYFK_NOGIL_MIN 1024
PyObject *pyfk_add_many(pyfk_filter *self, PyObject *keys);
/* add_many(keys, concurrent=...): concurrent, through the kind's concurrent
 * inserts (batch.c; UnsupportedError for a kind without them). */
PyObject *pyfk_add_many_mode(pyfk_filter *self, PyObject *keys, bool concurrent);
PyObject *pyfk_contains_many(pyfk_filter *self, PyObject *args, PyObject *kw);
PyObject *pyfk_update(pyfk_filter *self, PyObject *iterable);
/* Builds a filter of kind ops from keys (as add_many takes them) with
 * fk_filter_build(_u64), the GIL released: a new reference to None and the
 * filter in *out, or NULL with the exception set. */
PyObject *pyfk_build_keys(const pyfk_state *st, const fk_ops *ops, const fk_params *p, PyObject *keys,
                          fk_filter **out);

/* ------------------------------------------------ forgetting kinds
 *
 * A kind with FK_CAP_EXPIRES (window) is a count window by default; the
 * span=T keyword makes a time window of T ticks, whose clock the caller
 * moves with advance(now) (clock="unix_ns", the default: Unix ns, and
 * advance() reads time.time_ns(); clock="caller": the caller's ticks). */

/* Reads and deletes the "span" and "clock" keywords of kw (a dict the
 * caller owns; may be NULL) into *span (0 when absent or None) and *clock
 * (for a span: FK_CLOCK_UNIX_NS unless clock="caller"; else 0); expires:
 * the kind takes them (else TypeError); clock without span is a
 * ValueError. 0, or -1 with TypeError/ValueError set. */
int pyfk_timed_take_span(PyObject *kw, bool expires, uint64_t *span, uint32_t *clock_id);
/* fk_filter_new, or a time window of span ticks when span > 0
 * (FK_EUNSUPPORTED for a kind other than window). */
fk_status pyfk_timed_new(const fk_ops *ops, const fk_params *p, uint64_t span, fk_filter **out);
/* f's span when it is a time window, else 0. */
uint64_t pyfk_timed_span_of(const fk_filter *f);
/* f's clock id when it is a window (FK_CLOCK_UNIX_NS, FK_CLOCK_CALLER),
 * else FK_CLOCK_CALLER. */
uint32_t pyfk_timed_clock_of(const fk_filter *f);
/* advance and describe; span and now (the class of a kind with
 * FK_CAP_EXPIRES gets them). */
/* describe(): the filter's describe rows as a dict, for every kind
 * (window.c). */
PyObject *pyfk_describe(PyObject *o, PyObject *unused);
extern const char pyfk_describe_doc[];
extern PyMethodDef pyfk_timed_methods[];
extern PyGetSetDef pyfk_timed_getset[];

/* ------------------------------------- Parquet's split-block filter (sbbf.c) */
PyObject *pyfk_sbbf_new(PyObject *module, PyObject *nbytes);
PyObject *pyfk_sbbf_from(PyObject *module, PyObject *data);
PyObject *pyfk_sbbf_bytes(PyObject *module, PyObject *filter);
PyObject *pyfk_parquet_bytes(PyObject *module, PyObject *args);

/* -------------------------------------------------- bench and sizing */
PyObject *pyfk_bench(PyObject *module, PyObject *args, PyObject *kw);
PyObject *pyfk_sizing(PyObject *module, PyObject *args, PyObject *kw);
PyObject *pyfk_c_contains_many_ns(PyObject *module, PyObject *args);
PyObject *pyfk_pick(PyObject *module, PyObject *args, PyObject *kw); /* pick.c: the pick component */
PyObject *pyfk_parquet_chunks(PyObject *module, PyObject *path); /* parquet.c: a Parquet file's filters */

#endif
