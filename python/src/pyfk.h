/* python/src/pyfk.h: what the files of the extension filterkit._filterkit
 * share: the filter object, the key conversions, the error mapping and the
 * busy state that keeps GIL-free batches apart from writers.
 *
 * The extension knows no kind by name: every kind comes from the registry
 * (fk_ops_at), and what it can do from fk_ops_caps, so a new kind in the
 * library is a new Python class with no change here.
 */
#ifndef PYFK_H
#define PYFK_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdbool.h>
#include <stdint.h>
#include "common/filter.h"
#include "common/serial.h"
#include "registry/registry.h" /* the kinds: fk_ops_at, fk_ops_find, fk_filter_load_any */

/* ------------------------------------------------------ the filter object
 *
 * 64 bytes beside the C filter (sys.getsizeof adds the filter's own
 * memory_bytes). No __dict__, no GC header: it holds no Python object. */
typedef struct {
    PyObject_HEAD
    fk_filter *filter; /* owned; never NULL once __new__ returned */
    /* `int in f`'s call, taken from the kind's table when the object is
     * made: its contains_u64 slot, or fk_filter_contains_u64 for a table
     * without one (same answers; no per-call look-up of the slot). */
    bool     (*contains_u64)(const fk_filter *f, uint64_t key);
    double     fpr;    /* the target it was made for (stats() reports it) */
    uint64_t   seed;
    /* The busy state (changed only with the GIL held): GIL-free sections
     * in flight on this filter (lookups may overlap lookups; a writer
     * overlaps nothing), and the operations waiting to hold it. */
    int        readers;  /* GIL-free lookups: contains_many, save */
    uint16_t   writing;  /* 1 while a GIL-free add_many runs */
    uint16_t   waiting;  /* operations waiting for the two above to end:
                            new GIL-free batches wait behind them */
    /* The byte limit its growth stays under: the max_bytes knob, else
     * pyfk_default_max_bytes() when it was made or loaded. */
    uint64_t   max_bytes;
} pyfk_filter;

/* The base class filterkit.Filter and the per-kind classes. */
extern PyTypeObject *pyfk_filter_type;
int pyfk_types_init(PyObject *module);
/* The class of the kind ops (borrowed), or NULL with TypeError set. */
PyTypeObject *pyfk_type_of_ops(const fk_ops *ops);
/* The kind a class stands for: NULL for the base class (no error set). */
const fk_ops *pyfk_ops_of_type(PyTypeObject *type);
/* Wraps f (stolen: freed on error) in a new object of its kind's class. */
PyObject *pyfk_wrap(fk_filter *f, double fpr, uint64_t seed);

/* --------------------------------------------------------------- errors */
extern PyObject *pyfk_Error, *pyfk_FilterFullError, *pyfk_CorruptError, *pyfk_UnsupportedError,
    *pyfk_LimitError;
int pyfk_errors_init(PyObject *module);
/* Sets the exception documented for s (never FK_OK) with "what: reason";
 * returns NULL so that callers can `return pyfk_raise(...)`. */
PyObject *pyfk_raise(fk_status s, const char *what);

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
    /* CPython <= 3.11: ob_size is the signed digit count */
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

/* ------------------------------------------------------ the busy state
 *
 * The GIL is the lock: an operation that keeps the GIL from its check to
 * its end holds the filters it checked, since no other Python code runs.
 * What it must wait for are the GIL-free sections (batches, save) already
 * in flight. pyfk_hold waits for them with the GIL dropped and then checks
 * every filter again, all at once, so the operation starts with all of
 * them idle (never "f was idle before I waited for g"); it holds nothing
 * while it waits, so two operations cannot wait for each other (f |= g
 * beside g |= f), whatever the order of their filters. */

/* True when an operation writing w (NULL: none) and reading r (NULL:
 * none) must wait: a GIL-free section on w, a GIL-free writer on r, and
 * for a caller about to drop the GIL itself (batch), an operation already
 * waiting for either (so a stream of batches cannot starve a merge). */
static inline bool pyfk_must_wait(const pyfk_filter *w, const pyfk_filter *r, bool batch)
{
    return (w && (w->writing || w->readers || (batch && w->waiting))) ||
           (r && (r->writing || (batch && r->waiting)));
}

/* Waits (dropping the GIL) until pyfk_must_wait(w, r, batch) is false,
 * with the GIL held. 0, or -1 when a signal handler raised while waiting.
 * The caller then does its work without dropping the GIL, or marks itself
 * busy (readers, writing) before it drops it. */
int pyfk_hold_slow(pyfk_filter *w, pyfk_filter *r, bool batch);
static inline int pyfk_hold(pyfk_filter *w, pyfk_filter *r, bool batch)
{
    return pyfk_must_wait(w, r, batch) ? pyfk_hold_slow(w, r, batch) : 0;
}
/* One filter: read it (write false) or write it (write true). */
static inline int pyfk_wait_idle(pyfk_filter *self, bool write)
{
    return write ? pyfk_hold(self, NULL, false) : pyfk_hold(NULL, self, false);
}

/* ------------------------------------------------------ the byte limit */

/* The byte limit of a filter made with max_bytes 0 or loaded: half the
 * least of the physical memory (sysconf), RLIMIT_AS, RLIMIT_DATA and the
 * cgroup's memory.max (those that are set), at most FK_MEMORY_CAP. Half,
 * since a grow holds the old table beside the new one. Cost: a few system
 * calls and one small file read. */
uint64_t pyfk_default_max_bytes(void);
/* Sets self's byte limit (0: the default), passing it to a growing chain. */
void pyfk_set_max_bytes(pyfk_filter *self, uint64_t max_bytes);

/* ------------------------------------------------------------ batches */

/* Batches of at least this many keys drop the GIL (below it the hand-over
 * costs more than it frees). */
#define PYFK_NOGIL_MIN 1024
PyObject *pyfk_add_many(pyfk_filter *self, PyObject *keys);
PyObject *pyfk_contains_many(pyfk_filter *self, PyObject *args, PyObject *kw);
PyObject *pyfk_update(pyfk_filter *self, PyObject *iterable);
/* A new NumPy bool array of n elements (numpy imported on first use), its
 * data in *data; NULL with the exception set. */
PyObject *pyfk_new_bool_array(Py_ssize_t n, bool **data, Py_buffer *view);
/* Builds a filter of kind ops from keys (as add_many takes them) with
 * fk_filter_build(_u64), the GIL released: a new reference to None and the
 * filter in *out, or NULL with the exception set. */
PyObject *pyfk_build_keys(const fk_ops *ops, const fk_params *p, PyObject *keys, fk_filter **out);

/* -------------------------------------------------- bench and sizing */
PyObject *pyfk_bench(PyObject *module, PyObject *args, PyObject *kw);
PyObject *pyfk_sizing(PyObject *module, PyObject *args, PyObject *kw);

/* Reads the fk_params knobs from keyword arguments (capacity, fpr, seed,
 * bits, hashes, counter_bits, fingerprint_bits, growth, max_load,
 * tightening, max_bytes); 0, or -1 with TypeError/ValueError/OverflowError set.
 * Unset knobs stay 0 ("derive"); fpr defaults to 0.01. */
int pyfk_params_from(PyObject *kw, fk_params *p, bool capacity_required);

#endif
