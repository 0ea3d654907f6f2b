/* python/src/filter_type.c: filterkit.Filter and one class per registered
 * kind, made at import from the registry. A class gets the method groups
 * its kind's fk_ops_caps allow (add/update where it inserts, remove/discard
 * where it removes, count where it counts, | where it merges): nothing
 * here names a kind. */
#include "pyfk.h" /* first: Python.h sets the feature macros */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <structmember.h> /* T_PYSSIZET, READONLY: the weak-reference list (3.11 has no Py_T_*) */

/* A growing kind made without a capacity starts with this first link (the
 * CLI's default too). */
#define GROWING_START_CAPACITY (UINT64_C(1) << 16)

/* ------------------------------------------------------------ kinds table */
PyTypeObject *pyfk_type_of_ops(const pyfk_state *st, const fk_ops *ops)
{
    for (size_t i = 0; i < st->nkinds; i++)
        if (st->kinds[i].ops == ops)
            return st->kinds[i].type;
    PyErr_Format(PyExc_TypeError, "filter kind %s is not in filterkit's registry",
                 ops && ops->name ? ops->name : "?");
    return NULL;
}

const fk_ops *pyfk_ops_of_type(const pyfk_state *st, PyTypeObject *type)
{
    for (PyTypeObject *t = type; t; t = t->tp_base)
        for (size_t i = 0; i < st->nkinds; i++)
            if (st->kinds[i].type == t)
                return st->kinds[i].ops;
    return NULL;
}

/* The state of the module that made o's class. */
static pyfk_state *state_of(PyObject *o)
{
    return pyfk_state_of_type(Py_TYPE(o));
}

/* ------------------------------------------------------------ byte limit */
static void set_max_bytes(pyfk_filter *self, uint64_t max_bytes)
{
    self->max_bytes = max_bytes ? (max_bytes < FK_MEMORY_CAP ? max_bytes : FK_MEMORY_CAP)
                                : pyfk_default_max_bytes();
    /* a growing kind checks its limit before each new link or doubling;
     * the kinds of fixed size answer FK_EUNSUPPORTED */
    if (self->filter)
        (void)fk_filter_set_max_bytes(self->filter, self->max_bytes);
}

/* ---------------------------------------------------------- construction */
static pyfk_filter *alloc_for(PyTypeObject *type, fk_filter *f, double fpr, uint64_t seed)
{
    PyThread_type_lock room = PyThread_allocate_lock();
    pyfk_filter *self = room ? (pyfk_filter *)type->tp_alloc(type, 0) : NULL;
    if (!self) {
        if (room)
            PyThread_free_lock(room);
        else
            PyErr_NoMemory();
        fk_filter_free(f);
        return NULL;
    }
    self->filter = f;
    self->room = room;
    self->fpr = fpr;
    self->seed = seed;
    set_max_bytes(self, 0); /* the default; a made filter sets its knob's */
    return self;
}

PyObject *pyfk_wrap(const pyfk_state *st, fk_filter *f, double fpr, uint64_t seed)
{
    PyTypeObject *type = pyfk_type_of_ops(st, fk_filter_ops(f));
    if (!type) {
        fk_filter_free(f);
        return NULL;
    }
    return (PyObject *)alloc_for(type, f, fpr, seed);
}

/* The kind named by the first positional argument of Filter(kind, ...). */
static const fk_ops *kind_argument(PyObject *name)
{
    if (!PyUnicode_Check(name)) {
        PyErr_Format(PyExc_TypeError, "kind must be a str naming a filter kind (filterkit.kinds()), "
                     "not %.200s", Py_TYPE(name)->tp_name);
        return NULL;
    }
    const char *s = PyUnicode_AsUTF8(name);
    const fk_ops *ops = s ? fk_ops_find(s) : NULL;
    if (!ops && s)
        PyErr_Format(PyExc_ValueError, "unknown filter kind %R (filterkit.kinds() lists them)", name);
    return ops;
}

/* The class to make for `type` called with `args`: the kind's class (or
 * type itself when it is a subclass of a kind's class), and its ops; *rest
 * is the index of the first positional argument after the kind's name
 * (capacity, then fpr). */
static const fk_ops *resolve_kind(const pyfk_state *st, PyTypeObject *type, PyObject *args,
                                  PyTypeObject **make, Py_ssize_t *rest)
{
    const fk_ops *ops = pyfk_ops_of_type(st, type);
    Py_ssize_t nargs = PyTuple_GET_SIZE(args);
    *make = type;
    *rest = ops ? 0 : 1;
    if (nargs - *rest > 2 || nargs < *rest) {
        PyErr_Format(PyExc_TypeError, "%s(%scapacity, fpr, *, seed=..., **knobs): takes at most 2 "
                     "positional arguments%s", type->tp_name, ops ? "" : "kind, ",
                     ops ? " (capacity, fpr)" : " after the kind's name (filterkit.kinds() lists them)");
        return NULL;
    }
    if (!ops) {
        ops = kind_argument(PyTuple_GET_ITEM(args, 0));
        if (ops && !(*make = pyfk_type_of_ops(st, ops)))
            return NULL;
    }
    return ops;
}

/* kw (may be NULL) with the positional capacity and fpr of args[rest..]
 * added: a new dict, or NULL with TypeError for an argument given twice. */
static PyObject *with_positional(PyObject *args, Py_ssize_t rest, PyObject *kw)
{
    static const char *const names[] = { "capacity", "fpr" };
    PyObject *all = kw ? PyDict_Copy(kw) : PyDict_New();
    for (Py_ssize_t i = rest; all && i < PyTuple_GET_SIZE(args); i++) {
        const char *name = names[i - rest];
        int had = PyDict_GetItemString(all, name) != NULL;
        if (had || PyDict_SetItemString(all, name, PyTuple_GET_ITEM(args, i)) < 0) {
            if (had)
                PyErr_Format(PyExc_TypeError, "got multiple values for argument '%s'", name);
            Py_CLEAR(all);
        }
    }
    return all;
}

/* n bytes in words: "1.1 PiB" (binary units, 3 significant digits). */
static void human_bytes(double n, char *out, size_t cap)
{
    static const char *const units[] = { "bytes", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB" };
    size_t u = 0;
    while (n >= 1024 && u + 1 < sizeof units / sizeof units[0]) {
        n /= 1024;
        u++;
    }
    snprintf(out, cap, u ? "%.3g %s" : "%.0f %s", n, units[u]);
}

/* The error for a filter fk_filter_new refused: when it is too big, the
 * memory it would need (the kind's own sizing, scaled from the largest
 * capacity it sizes when the size itself is past the library's cap). */
static PyObject *raise_new_failed(const pyfk_state *st, const fk_ops *ops, const fk_params *p,
                                  fk_status s, const char *what)
{
    fk_sizing sz;
    fk_params q = *p;
    while (q.capacity > 1 && fk_ops_size(ops, &q, &sz) == FK_EINVAL)
        q.capacity /= 2;
    if ((s != FK_EINVAL && s != FK_ELIMIT) || fk_ops_size(ops, &q, &sz) != FK_OK ||
        (s == FK_EINVAL && q.capacity == p->capacity))
        return pyfk_raise(st, s, what); /* not a question of size */
    double need = (double)sz.memory_bytes * ((double)p->capacity / (double)q.capacity);
    char words[32], cap[32];
    human_bytes(need, words, sizeof words);
    uint64_t limit = s == FK_ELIMIT ? p->max_bytes : FK_MEMORY_CAP;
    human_bytes((double)limit, cap, sizeof cap);
    char msg[600]; /* PyErr_Format has no %f */
    snprintf(msg, sizeof msg, "%s would need %s%s (%.0f bytes), over %s %s (%llu bytes%s): give a "
             "smaller capacity or a larger fpr (filterkit.sizing() says what a size needs)",
             what, q.capacity == p->capacity ? "" : "about ", words, need,
             s == FK_ELIMIT ? "its byte limit max_bytes," : "the library's cap on one filter,", cap,
             (unsigned long long)limit,
             s == FK_ELIMIT ? "; filterkit.default_max_bytes() when not given" : "");
    PyErr_SetString(pyfk_exception_for(st, s), msg);
    return NULL;
}

static PyObject *filter_new(PyTypeObject *type, PyObject *args, PyObject *kw)
{
    pyfk_state *st = pyfk_state_of_type(type);
    if (!st)
        return NULL;
    PyTypeObject *make;
    Py_ssize_t rest;
    const fk_ops *ops = resolve_kind(st, type, args, &make, &rest);
    if (!ops)
        return NULL;
    unsigned caps = fk_ops_caps(ops);
    if (caps & FK_CAP_STATIC) {
        PyErr_Format(st->UnsupportedError, "%s filters are built from the whole set at once: use "
                     "filterkit.%s.build(keys, fpr=...)", ops->name, make->tp_name + sizeof "filterkit");
        return NULL;
    }
    fk_params p;
    uint64_t span = 0;
    uint32_t clock_id = FK_CLOCK_CALLER;
    PyObject *all = with_positional(args, rest, kw);
    int bad = !all || pyfk_timed_take_span(all, (caps & FK_CAP_EXPIRES) != 0, &span, &clock_id) ||
              pyfk_params_from(all, &p, !(caps & FK_CAP_GROWS));
    Py_XDECREF(all);
    if (bad)
        return NULL;
    p.clock = clock_id; /* a time window's (0 otherwise): saved with it, kept by clear() */
    if (p.capacity == 0)
        p.capacity = GROWING_START_CAPACITY;
    if (p.max_bytes == 0) /* below the machine's memory: LimitError, not the OOM killer */
        p.max_bytes = pyfk_default_max_bytes();
    fk_filter *f = NULL;
    fk_status s = pyfk_timed_new(ops, &p, span, &f);
    if (s != FK_OK) {
        char what[160];
        snprintf(what, sizeof what, "%s(capacity=%llu, fpr=%g%s)", ops->name,
                 (unsigned long long)p.capacity, p.fpr, span ? ", span=..." : "");
        return raise_new_failed(st, ops, &p, s, what);
    }
    pyfk_filter *self = alloc_for(make, f, p.fpr, p.seed);
    if (self) {
        set_max_bytes(self, p.max_bytes);
        self->made = p;
        self->made_span = span;
        self->made_known = true;
    }
    return (PyObject *)self;
}

static void filter_dealloc(PyObject *o)
{
    pyfk_filter *self = (pyfk_filter *)o;
    PyTypeObject *type = Py_TYPE(o);
    if (self->weakrefs)
        PyObject_ClearWeakRefs(o);
    fk_filter_free(self->filter);
    if (self->room) /* no holder: each holds a reference to o */
        PyThread_free_lock(self->room);
    type->tp_free(o);
    Py_DECREF(type); /* heap types: the instance held its class */
}

/* fk_filter_contains_u64's target, read from the filter each time (a grow
 * or a merge may choose another): no call before the kind's own. */
static inline bool contains_u64(const pyfk_filter *self, uint64_t key)
{
    const fk_filter *f = self->filter;
    return f->contains_u64 ? f->contains_u64(f, key) : fk_filter_contains_u64(f, key);
}

/* ------------------------------------------------------- single keys
 *
 * The key is converted first (an object's __index__ may run Python code,
 * and with it another thread, which may start a GIL-free batch on this
 * filter), then the lock (pyfk_enter), then the C call: nothing runs
 * Python code between the two. */
/* Every key but a small int: the general conversions (out of line, so
 * that the fast path below keeps no stack frame of its own). */
__attribute__((noinline)) static int contains_slow(pyfk_filter *self, PyObject *key)
{
    int r = -1, in;
    if (PyLong_CheckExact(key)) {
        uint64_t v;
        if (pyfk_u64_of(key, &v) || (in = pyfk_enter(self, false)) < 0)
            return -1;
        r = contains_u64(self, v);
        pyfk_leave(self, in);
        return r;
    }
    if (PyUnicode_CheckExact(key)) {
        Py_ssize_t n;
        const char *s = PyUnicode_AsUTF8AndSize(key, &n);
        if (!s || (in = pyfk_enter(self, false)) < 0)
            return -1;
        r = fk_filter_contains(self->filter, s, (size_t)n);
        pyfk_leave(self, in);
        return r;
    }
    pyfk_key k;
    if (pyfk_key_get(key, &k) == 0 && (in = pyfk_enter(self, false)) >= 0) {
        r = k.is_int ? contains_u64(self, k.u64) : fk_filter_contains(self->filter, k.ptr, k.len);
        pyfk_leave(self, in);
    }
    pyfk_key_release(&k);
    return r;
}

/* `x in f`. A small exact int (the common int key) is read from its
 * digits and goes straight to the kind's lookup: no call, no object and
 * no look-up before the filter's memory access; no lock call either, as
 * a lookup that keeps the GIL only needs no writer to hold the filter. */
static int filter_contains(PyObject *o, PyObject *key)
{
    pyfk_filter *self = (pyfk_filter *)o;
    uint64_t v;
    if (PyLong_CheckExact(key) && pyfk_small_u64(key, &v) && !self->writer)
        return contains_u64(self, v);
    return contains_slow(self, key);
}

static int stats_of(pyfk_filter *self, fk_stats *st);

static PyObject *filter_add(PyObject *o, PyObject *key)
{
    pyfk_filter *self = (pyfk_filter *)o;
    fk_status s;
    uint64_t v;
    int in;
    if (PyLong_CheckExact(key)) {
        if ((!pyfk_small_u64(key, &v) && pyfk_u64_of(key, &v)) || (in = pyfk_enter(self, true)) < 0)
            return NULL;
        s = fk_filter_insert_u64(self->filter, v);
        pyfk_leave(self, in);
    } else {
        pyfk_key k;
        if (pyfk_key_get(key, &k) || (in = pyfk_enter(self, true)) < 0) {
            pyfk_key_release(&k);
            return NULL;
        }
        s = k.is_int ? fk_filter_insert_u64(self->filter, k.u64)
                     : fk_filter_insert(self->filter, k.ptr, k.len);
        pyfk_leave(self, in);
        pyfk_key_release(&k);
    }
    if (s == FK_EFULL) {
        fk_stats st;
        return stats_of(self, &st) ? NULL
                                   : pyfk_raise_full(state_of(o), fk_filter_ops(self->filter), st.capacity,
                                                     false, 0, "add");
    }
    if (s != FK_OK)
        return pyfk_raise(state_of(o), s, "add");
    Py_RETURN_NONE;
}

/* remove (missing = KeyError) and discard (missing = no-op). */
static PyObject *remove_key(pyfk_filter *self, PyObject *key, bool missing_raises)
{
    pyfk_key k;
    int in;
    if (pyfk_key_get(key, &k) || (in = pyfk_enter(self, true)) < 0) {
        pyfk_key_release(&k);
        return NULL;
    }
    fk_status s = k.is_int ? fk_filter_remove_u64(self->filter, k.u64)
                           : fk_filter_remove(self->filter, k.ptr, k.len);
    pyfk_leave(self, in);
    pyfk_key_release(&k);
    if (s == FK_ENOTFOUND) {
        if (!missing_raises)
            Py_RETURN_NONE;
        PyErr_SetObject(PyExc_KeyError, key);
        return NULL;
    }
    if (s != FK_OK)
        return pyfk_raise(state_of((PyObject *)self), s, "remove");
    Py_RETURN_NONE;
}

static PyObject *filter_remove(PyObject *o, PyObject *key)
{
    return remove_key((pyfk_filter *)o, key, true);
}

static PyObject *filter_discard(PyObject *o, PyObject *key)
{
    return remove_key((pyfk_filter *)o, key, false);
}

static PyObject *filter_count(PyObject *o, PyObject *key)
{
    pyfk_filter *self = (pyfk_filter *)o;
    pyfk_key k;
    int in;
    if (pyfk_key_get(key, &k) || (in = pyfk_enter(self, false)) < 0) {
        pyfk_key_release(&k);
        return NULL;
    }
    uint64_t n = 0;
    fk_status s = fk_filter_count(self->filter, k.ptr, k.len, &n);
    pyfk_leave(self, in);
    pyfk_key_release(&k);
    if (s != FK_OK)
        return pyfk_raise(state_of(o), s, "count");
    return PyLong_FromUnsignedLongLong(n);
}

/* ------------------------------------------------------------ add_many etc. */
static PyObject *filter_add_many(PyObject *o, PyObject *args, PyObject *kw)
{
    static char *names[] = { "keys", "concurrent", NULL };
    PyObject *keys;
    int concurrent = 0;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "O|$p:add_many", names, &keys, &concurrent))
        return NULL;
    return pyfk_add_many_mode((pyfk_filter *)o, keys, concurrent != 0);
}

static PyObject *filter_contains_many(PyObject *o, PyObject *args, PyObject *kw)
{
    return pyfk_contains_many((pyfk_filter *)o, args, kw);
}

static PyObject *filter_update(PyObject *o, PyObject *args)
{
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(args); i++) {
        PyObject *r = pyfk_update((pyfk_filter *)o, PyTuple_GET_ITEM(args, i));
        if (!r)
            return NULL;
        Py_DECREF(r);
    }
    Py_RETURN_NONE;
}

/* ---------------------------------------------------------------- stats */
static int stats_of(pyfk_filter *self, fk_stats *st)
{
    int in = pyfk_enter_settled(self); /* stats needs the writers done */
    if (in < 0)
        return -1;
    fk_filter_stats(self->filter, st);
    pyfk_leave(self, in);
    return 0;
}

/* The doublings of a kind that grows by doubling its one table (a
 * "doublings" row among its describe rows: the expandable kind), read
 * under the same hold as its stats; -1 for every other kind. */
static int64_t doublings_of(const fk_filter *f)
{
    if (!(fk_ops_caps(fk_filter_ops(f)) & FK_CAP_GROWS))
        return -1;
    fk_describe_row rows[FK_DESCRIBE_MAX_ROWS];
    size_t n = 0;
    fk_status s = fk_filter_describe(f, rows, FK_DESCRIBE_MAX_ROWS, &n);
    if (s != FK_OK && s != FK_ELIMIT)
        return -1;
    n = n < FK_DESCRIBE_MAX_ROWS ? n : FK_DESCRIBE_MAX_ROWS;
    const fk_describe_row *r = fk_describe_find(rows, n, "doublings");
    return r && r->type == FK_DESCRIBE_U64 ? (int64_t)r->value.u64 : -1;
}

static PyObject *filter_stats(PyObject *o, PyObject *unused)
{
    (void)unused;
    pyfk_filter *self = (pyfk_filter *)o;
    fk_stats st;
    int in = pyfk_enter(self, false); /* stats needs the writers done */
    if (in < 0)
        return NULL;
    fk_filter_stats(self->filter, &st);
    int64_t doublings = doublings_of(self->filter);
    pyfk_leave(self, in);
    PyObject *d = Py_BuildValue("{s:s,s:K,s:K,s:K,s:d,s:d,s:d,s:d,s:K}",
                                "kind", fk_filter_ops(self->filter)->name,
                                "items", (unsigned long long)st.items,
                                "capacity", (unsigned long long)st.capacity,
                                "memory_bytes", (unsigned long long)st.memory_bytes,
                                "bits_per_item", st.bits_per_item,
                                "load_factor", st.load_factor,
                                "expected_fpr", st.expected_fpr,
                                "target_fpr", self->fpr,
                                "seed", (unsigned long long)self->seed);
    if (d && doublings >= 0) {
        PyObject *v = PyLong_FromLongLong((long long)doublings);
        if (!v || PyDict_SetItemString(d, "doublings", v) < 0)
            Py_CLEAR(d);
        Py_XDECREF(v);
    }
    return d;
}

static PyObject *filter_sizeof(PyObject *o, PyObject *unused)
{
    (void)unused;
    fk_stats st;
    if (stats_of((pyfk_filter *)o, &st))
        return NULL;
    return PyLong_FromUnsignedLongLong((unsigned long long)Py_TYPE(o)->tp_basicsize + st.memory_bytes);
}

static PyObject *filter_repr(PyObject *o)
{
    pyfk_filter *self = (pyfk_filter *)o;
    fk_stats st;
    if (self->writer) /* a writer holds it (a GIL-free add_many, a merge): say so rather than wait */
        return PyUnicode_FromFormat("<%s (busy)>", Py_TYPE(o)->tp_name);
    fk_filter_stats(self->filter, &st);
    char fpr[32];
    snprintf(fpr, sizeof fpr, "%g", self->fpr);
    return PyUnicode_FromFormat("<%s capacity=%llu fpr=%s items=%llu memory_bytes=%llu>",
                                Py_TYPE(o)->tp_name, (unsigned long long)st.capacity, fpr,
                                (unsigned long long)st.items, (unsigned long long)st.memory_bytes);
}

static PyObject *get_kind(PyObject *o, void *unused)
{
    (void)unused;
    return PyUnicode_FromString(fk_filter_ops(((pyfk_filter *)o)->filter)->name);
}

static PyObject *get_fpr(PyObject *o, void *unused)
{
    (void)unused;
    return PyFloat_FromDouble(((pyfk_filter *)o)->fpr);
}

static PyObject *get_max_bytes(PyObject *o, void *unused)
{
    (void)unused;
    return PyLong_FromUnsignedLongLong(((pyfk_filter *)o)->max_bytes);
}

static PyObject *get_seed(PyObject *o, void *unused)
{
    (void)unused;
    return PyLong_FromUnsignedLongLong(((pyfk_filter *)o)->seed);
}

/* -------------------------------------------------------- serialization */
static PyObject *filter_to_bytes(PyObject *o, PyObject *unused)
{
    (void)unused;
    pyfk_filter *self = (pyfk_filter *)o;
    PyObject *b = NULL;
    for (;;) {
        /* the size, then the bytes object (its allocation may run a
         * finalizer that changes the filter), then the save, the size
         * checked again right before it */
        uint64_t n = 0, now = 0;
        int in = pyfk_enter_settled(self); /* saving needs the writers done */
        if (in < 0)
            break;
        fk_status s = fk_filter_serialized_size(self->filter, &n);
        pyfk_leave(self, in);
        if (s != FK_OK)
            return pyfk_raise(state_of(o), s, "to_bytes");
        if (n > (uint64_t)PY_SSIZE_T_MAX)
            return PyErr_NoMemory();
        b = PyBytes_FromStringAndSize(NULL, (Py_ssize_t)n);
        if (!b || (in = pyfk_enter_settled(self)) < 0)
            break;
        s = fk_filter_serialized_size(self->filter, &now);
        if (s == FK_OK && now == n)
            s = fk_filter_save(self->filter, PyBytes_AS_STRING(b), (size_t)n, NULL);
        pyfk_leave(self, in);
        if (s == FK_OK && now == n)
            return b;
        Py_CLEAR(b);
        if (s != FK_OK)
            return pyfk_raise(state_of(o), s, "to_bytes");
    }
    Py_XDECREF(b);
    return NULL;
}

/* The error for bytes that did not load; head: their first len bytes. Bytes
 * without filterkit's magic are not a damaged filter but something else (a
 * text file, an image): said as the CLI says it. */
static PyObject *raise_load_failed(const pyfk_state *st, fk_status s, const void *head, size_t len,
                                   const char *what)
{
    if (s == FK_ECORRUPT &&
        (len < FK_SERIAL_MAGIC_BYTES || memcmp(head, FK_SERIAL_MAGIC, FK_SERIAL_MAGIC_BYTES) != 0)) {
        PyErr_Format(st->CorruptError, "%s: not a filterkit file (it does not start with the filterkit "
                     "header; to_bytes() and save() write one)", what);
        return NULL;
    }
    return pyfk_raise(st, s, what);
}

/* A new filter loaded from the bytes in buf: of kind ops, or of the kind
 * the header names when ops is NULL. */
static PyObject *load_buffer(const pyfk_state *st, const fk_ops *ops, const void *buf, size_t len,
                             const char *what)
{
    fk_filter *f = NULL;
    fk_status s = ops ? fk_filter_load(ops, buf, len, &f) : fk_filter_load_any(buf, len, &f);
    if (s == FK_ECORRUPT && ops && fk_filter_load_any(buf, len, &f) == FK_OK) {
        /* sound bytes of another kind: say which, rather than "corrupt" */
        PyErr_Format(PyExc_TypeError, "%s: the bytes hold a %s filter, not a %s filter "
                     "(filterkit.from_bytes loads any kind)", what, fk_filter_ops(f)->name, ops->name);
        fk_filter_free(f);
        return NULL;
    }
    if (s != FK_OK)
        return raise_load_failed(st, s, buf, len, what);
    fk_serial_head h; /* the header passed: its fpr and seed are the filter's */
    fk_serial_read_head(buf, len, &h);
    return pyfk_wrap(st, f, h.fpr, h.seed);
}

/* r (a new object of a kind's class) as an object of cls, a subclass of
 * r's class (a user's subclass): the new object takes r's filter over. */
static PyObject *as_class(PyObject *r, PyTypeObject *cls)
{
    if (!r || Py_TYPE(r) == cls)
        return r;
    if (!PyType_IsSubtype(cls, Py_TYPE(r))) {
        PyErr_Format(PyExc_TypeError, "the bytes hold a %s, not a %s", Py_TYPE(r)->tp_name, cls->tp_name);
        Py_DECREF(r);
        return NULL;
    }
    pyfk_filter *src = (pyfk_filter *)r;
    fk_filter *f = src->filter;
    src->filter = NULL;
    pyfk_filter *dst = alloc_for(cls, f, src->fpr, src->seed);
    if (dst)
        set_max_bytes(dst, src->max_bytes);
    Py_DECREF(r);
    return (PyObject *)dst;
}

PyObject *pyfk_load_bytes(const pyfk_state *st, const fk_ops *ops, PyObject *data, const char *what)
{
    Py_buffer view;
    if (PyUnicode_Check(data)) {
        PyErr_Format(PyExc_TypeError, "%s needs bytes (what to_bytes() returned), not str", what);
        return NULL;
    }
    if (PyObject_GetBuffer(data, &view, PyBUF_C_CONTIGUOUS) < 0)
        return NULL;
    PyObject *r = load_buffer(st, ops, view.buf, (size_t)view.len, what);
    PyBuffer_Release(&view);
    return r;
}

static PyObject *filter_from_bytes(PyObject *cls, PyObject *data)
{
    pyfk_state *st = pyfk_state_of_type((PyTypeObject *)cls);
    if (!st)
        return NULL;
    const fk_ops *ops = pyfk_ops_of_type(st, (PyTypeObject *)cls);
    PyObject *r = pyfk_load_bytes(st, ops, data, "from_bytes");
    return ops ? as_class(r, (PyTypeObject *)cls) : r;
}

/* Writes f to the file at path atomically (issue 48): into a temporary
 * file beside it (path.tmp-XXXXXX), flushed and fsynced, given the old
 * file's mode (a new file: 0666 less the umask), then renamed over path,
 * whose folder is fsynced; a symlink stays a link (its target is
 * replaced). Any failure (a full disk, RLIMIT_FSIZE) removes the temporary
 * file and leaves the old file as it was. A path that is not a regular
 * file (/dev/null, a FIFO) is written in place: there is nothing to
 * replace. Runs without the GIL. Returns FK_OK, FK_EIO with *err set, or
 * the status of the save. */
static fk_status save_atomic(const fk_filter *f, const char *path, int *err)
{
    char *real = realpath(path, NULL); /* NULL: a new file (or a dangling link) */
    const char *target = real ? real : path;
    struct stat st;
    int exists = stat(target, &st) == 0;
    fk_status s = FK_OK;
    if (exists && !S_ISREG(st.st_mode)) {
        FILE *fp = fopen(target, "wb");
        if (!fp) {
            *err = errno;
            free(real);
            return FK_EIO;
        }
        s = fk_filter_save_file(f, fp);
        if (s == FK_EIO)
            *err = errno ? errno : EIO;
        if (fclose(fp) != 0 && s == FK_OK) {
            s = FK_EIO;
            *err = errno;
        }
        free(real);
        return s;
    }
    mode_t mode;
    if (exists) {
        mode = st.st_mode & 07777;
    } else {
        mode_t mask = umask(0);
        umask(mask);
        mode = 0666 & ~mask;
    }
    size_t len = strlen(target);
    char *tmp = malloc(len + sizeof ".tmp-XXXXXX");
    if (!tmp) {
        free(real);
        *err = ENOMEM;
        return FK_EIO;
    }
    memcpy(tmp, target, len);
    memcpy(tmp + len, ".tmp-XXXXXX", sizeof ".tmp-XXXXXX");
    int fd = mkstemp(tmp);
    if (fd < 0) {
        *err = errno;
        free(tmp);
        free(real);
        return FK_EIO;
    }
    FILE *fp = fdopen(fd, "wb");
    if (!fp) {
        *err = errno;
        close(fd);
        s = FK_EIO;
    } else {
        s = fk_filter_save_file(f, fp);
        if (s == FK_EIO)
            *err = errno ? errno : EIO;
        if (s == FK_OK && (fflush(fp) != 0 || fsync(fd) != 0 || fchmod(fd, mode) != 0)) {
            s = FK_EIO;
            *err = errno;
        }
        if (fclose(fp) != 0 && s == FK_OK) {
            s = FK_EIO;
            *err = errno;
        }
    }
    if (s == FK_OK && rename(tmp, target) != 0) {
        s = FK_EIO;
        *err = errno;
    }
    if (s != FK_OK) {
        unlink(tmp);
    } else {
        /* the rename itself made durable; best effort (some file systems
         * refuse fsync on a folder), the new file being in place already */
        char *slash = strrchr(tmp, '/');
        if (slash)
            slash[slash == tmp] = '\0';
        int dfd = open(slash ? tmp : ".", O_RDONLY);
        if (dfd >= 0) {
            (void)fsync(dfd);
            close(dfd);
        }
    }
    free(tmp);
    free(real);
    return s;
}

static PyObject *filter_save(PyObject *o, PyObject *path_arg)
{
    pyfk_filter *self = (pyfk_filter *)o;
    PyObject *path = NULL;
    if (!PyUnicode_FSConverter(path_arg, &path))
        return NULL;
    /* saving reads: lookups may go on, a concurrent add_many may not */
    bool settle = self->concurrent_adds > 0;
    if (settle ? pyfk_hold(self, NULL) : pyfk_hold(NULL, self)) {
        Py_DECREF(path);
        return NULL;
    }
    /* a kind that cannot save says so before any file is made */
    uint64_t n;
    fk_status s = fk_filter_serialized_size(self->filter, &n);
    if (s != FK_OK) {
        settle ? pyfk_unhold(self, NULL) : pyfk_unhold(NULL, self);
        Py_DECREF(path);
        return pyfk_raise(state_of(o), s, "save");
    }
    int err = 0;
    Py_BEGIN_ALLOW_THREADS
    s = save_atomic(self->filter, PyBytes_AS_STRING(path), &err);
    Py_END_ALLOW_THREADS
    settle ? pyfk_unhold(self, NULL) : pyfk_unhold(NULL, self);
    PyObject *r = NULL;
    if (s == FK_EIO) {
        errno = err;
        PyErr_SetFromErrnoWithFilenameObject(PyExc_OSError, path_arg);
    } else if (s != FK_OK) {
        pyfk_raise(state_of(o), s, "save");
    } else {
        r = Py_None;
        Py_INCREF(r);
    }
    Py_DECREF(path);
    return r;
}

PyObject *pyfk_load_path(const pyfk_state *st, PyObject *path_arg, const fk_ops *ops)
{
    PyObject *path = NULL;
    if (!PyUnicode_FSConverter(path_arg, &path))
        return NULL;
    /* The library reads and checks the file; its header (read first) gives
     * the fpr and seed the object reports. */
    FILE *fp;
    int err = 0;
    Py_BEGIN_ALLOW_THREADS
    fp = fopen(PyBytes_AS_STRING(path), "rb");
    if (!fp)
        err = errno;
    Py_END_ALLOW_THREADS
    if (!fp) {
        errno = err;
        PyErr_SetFromErrnoWithFilenameObject(PyExc_OSError, path_arg);
        Py_DECREF(path);
        return NULL;
    }
    fk_filter *f = NULL;
    fk_status s;
    unsigned char head[FK_SERIAL_HEADER_BYTES];
    size_t got;
    Py_BEGIN_ALLOW_THREADS
    got = fread(head, 1, sizeof head, fp);
    if (fseek(fp, 0, SEEK_SET) != 0) {
        s = FK_EIO;
        err = errno;
    } else {
        s = ops ? fk_filter_load_file(ops, fp, &f) : fk_filter_load_file_any(fp, &f);
        if (s == FK_EIO)
            err = errno ? errno : EIO;
    }
    fclose(fp);
    Py_END_ALLOW_THREADS
    Py_DECREF(path);
    if (s == FK_EIO) {
        errno = err;
        return PyErr_SetFromErrnoWithFilenameObject(PyExc_OSError, path_arg);
    }
    if (s != FK_OK) {
        PyObject *name = PyObject_Str(path_arg);
        const char *what = name ? PyUnicode_AsUTF8(name) : NULL;
        PyErr_Clear();
        char buf[300];
        snprintf(buf, sizeof buf, "load %s", what ? what : "?");
        Py_XDECREF(name);
        return raise_load_failed(st, s, head, got, buf);
    }
    fk_serial_head h;
    fk_serial_read_head(head, got, &h);
    return pyfk_wrap(st, f, h.fpr, h.seed);
}

/* pickle: (cls.from_bytes, (to_bytes(),)): the file format, and the same
 * class back (a user's subclass too, when pickle can find it by name). */
static PyObject *filter_reduce(PyObject *o, PyObject *unused)
{
    (void)unused;
    PyObject *data = filter_to_bytes(o, NULL);
    if (!data)
        return NULL;
    PyObject *fn = PyObject_GetAttrString((PyObject *)Py_TYPE(o), "from_bytes");
    if (!fn) {
        Py_DECREF(data);
        return NULL;
    }
    return Py_BuildValue("(N(N))", fn, data);
}

/* A copy through the file format: same kind, bits, counts, fpr and seed. */
static PyObject *filter_copy(PyObject *o, PyObject *unused)
{
    (void)unused;
    PyObject *data = filter_to_bytes(o, NULL);
    if (!data)
        return NULL;
    PyObject *r = load_buffer(state_of(o), fk_filter_ops(((pyfk_filter *)o)->filter),
                              PyBytes_AS_STRING(data), (size_t)PyBytes_GET_SIZE(data), "copy");
    Py_DECREF(data);
    r = as_class(r, Py_TYPE(o)); /* a user's subclass keeps its class */
    if (r) { /* and its byte limit, a runtime setting the bytes do not carry */
        set_max_bytes((pyfk_filter *)r, ((pyfk_filter *)o)->max_bytes);
        ((pyfk_filter *)r)->made = ((pyfk_filter *)o)->made;
        ((pyfk_filter *)r)->made_span = ((pyfk_filter *)o)->made_span;
        ((pyfk_filter *)r)->made_known = ((pyfk_filter *)o)->made_known;
    }
    return r;
}

static PyObject *filter_deepcopy(PyObject *o, PyObject *memo)
{
    (void)memo;
    return filter_copy(o, NULL);
}

/* ------------------------------------------------------- building whole */
static PyObject *filter_build(PyObject *cls, PyObject *args, PyObject *kw)
{
    pyfk_state *st = pyfk_state_of_type((PyTypeObject *)cls);
    const fk_ops *ops = st ? pyfk_ops_of_type(st, (PyTypeObject *)cls) : NULL;
    if (!ops) {
        if (!st)
            return NULL;
        PyErr_SetString(PyExc_TypeError, "build is a class method of a kind's class: "
                                         "filterkit.Bloom.build(keys, fpr=...)");
        return NULL;
    }
    PyObject *keys;
    if (!PyArg_ParseTuple(args, "O:build", &keys))
        return NULL;
    fk_params p;
    if (pyfk_params_from(kw, &p, false))
        return NULL;
    fk_filter *f = NULL;
    PyObject *ok = pyfk_build_keys(st, ops, &p, keys, &f);
    if (!ok)
        return NULL;
    Py_DECREF(ok);
    pyfk_filter *self = alloc_for((PyTypeObject *)cls, f, p.fpr, p.seed);
    if (self)
        set_max_bytes(self, p.max_bytes);
    return (PyObject *)self;
}

/* ------------------------------------------------- union, intersection
 *
 * f | g and f & g make a copy of f and combine g into it; f |= g and
 * f &= g change f in place. Both need filters made alike (same kind,
 * capacity, fpr and seed): the C calls refuse the others with FK_EINVAL. */
typedef fk_status (*combine_fn)(fk_filter *dst, const fk_filter *src);

static PyObject *combine_into(pyfk_filter *dst, PyObject *other, combine_fn op, const char *verb)
{
    pyfk_filter *src = (pyfk_filter *)other;
    /* both held for the whole run (dst written, src read), the GIL
     * released: a merge may free dst's table, so nothing else may use it */
    if (pyfk_hold(dst, src))
        return NULL;
    fk_status s;
    Py_BEGIN_ALLOW_THREADS
    s = op(dst->filter, src->filter);
    Py_END_ALLOW_THREADS
    pyfk_unhold(dst, src);
    if (s == FK_EINVAL) {
        PyErr_Format(PyExc_ValueError, "cannot %s a %s filter with a %s filter: both must be of the "
                     "same kind, made with the same capacity, fpr and seed", verb,
                     fk_filter_ops(dst->filter)->name, fk_filter_ops(src->filter)->name);
        return NULL;
    }
    if (s != FK_OK)
        return pyfk_raise(state_of((PyObject *)dst), s, verb);
    return (PyObject *)dst;
}

/* o is a filter: an instance of a class an import of this module made
 * (filters of two imports combine: same layout, same library). */
static bool is_filter(PyObject *o)
{
    if (PyType_GetModuleByDef(Py_TYPE(o), &pyfk_module_def))
        return true;
    PyErr_Clear();
    return false;
}

static PyObject *combine_new(PyObject *a, PyObject *b, combine_fn op, const char *verb)
{
    if (!is_filter(a) || !is_filter(b))
        Py_RETURN_NOTIMPLEMENTED;
    PyObject *r = filter_copy(a, NULL);
    if (!r)
        return NULL;
    if (!combine_into((pyfk_filter *)r, b, op, verb)) {
        Py_DECREF(r);
        return NULL;
    }
    return r;
}

static PyObject *combine_in_place(PyObject *a, PyObject *b, combine_fn op, const char *verb)
{
    if (!is_filter(a) || !is_filter(b))
        Py_RETURN_NOTIMPLEMENTED;
    if (a == b) {
        Py_INCREF(a);
        return a; /* f |= f and f &= f change nothing */
    }
    PyObject *r = combine_into((pyfk_filter *)a, b, op, verb);
    Py_XINCREF(r);
    return r;
}

/* f.grow(): fk_filter_grow, for the kinds that resize (FK_CAP_RESIZES);
 * held for writing its whole run (it replaces the table), the GIL
 * released. */
static PyObject *filter_grow(PyObject *o, PyObject *noargs)
{
    pyfk_filter *self = (pyfk_filter *)o;
    (void)noargs;
    if (pyfk_hold(self, NULL))
        return NULL;
    /* the doubled table must fit the byte limit (a loaded table's kind
     * knows none of its own); the library checks its exact size too */
    fk_stats st;
    fk_filter_stats(self->filter, &st);
    fk_status s = FK_ELIMIT;
    if (st.memory_bytes <= self->max_bytes / 2) {
        Py_BEGIN_ALLOW_THREADS
        s = fk_filter_grow(self->filter);
        Py_END_ALLOW_THREADS
    }
    pyfk_unhold(self, NULL);
    if (st.memory_bytes > self->max_bytes / 2) {
        PyErr_Format(state_of(o)->LimitError, "grow: the doubled %s filter (about %llu bytes) would "
                     "pass its byte limit max_bytes=%llu", fk_filter_ops(self->filter)->name,
                     (unsigned long long)st.memory_bytes * 2, (unsigned long long)self->max_bytes);
        return NULL;
    }
    if (s == FK_EINVAL) {
        PyErr_Format(PyExc_ValueError, "this %s filter cannot double again: its remainders are at "
                     "the minimum width, or the doubled table would pass the memory cap",
                     fk_filter_ops(self->filter)->name);
        return NULL;
    }
    if (s != FK_OK)
        return pyfk_raise(state_of(o), s, "grow");
    /* the target it now meets, as fk_filter_grow records it (filter.h) */
    if (self->fpr * 2 < 1.0)
        self->fpr *= 2;
    Py_RETURN_NONE;
}

static PyObject *filter_or(PyObject *a, PyObject *b)
{
    return combine_new(a, b, fk_filter_merge, "merge");
}

static PyObject *filter_ior(PyObject *a, PyObject *b)
{
    return combine_in_place(a, b, fk_filter_merge, "merge");
}

static PyObject *filter_and(PyObject *a, PyObject *b)
{
    return combine_new(a, b, fk_filter_intersect, "intersect");
}

static PyObject *filter_iand(PyObject *a, PyObject *b)
{
    return combine_in_place(a, b, fk_filter_intersect, "intersect");
}

/* ------------------------------------------------------------ set-likeness */

/* len(f): no kind knows how many distinct keys it holds (stats' items
 * counts insertions less removals, a repeated key each time; a Bloom
 * filter's distinct count is an estimate from its fill), so len refuses
 * with a TypeError that says so, rather than answer what set.__len__ does
 * not mean. bool(f) stays True (nb_bool), as for any object without len. */
static Py_ssize_t filter_len(PyObject *o)
{
    const fk_ops *ops = fk_filter_ops(((pyfk_filter *)o)->filter);
    if (fk_ops_caps(ops) & FK_CAP_EXPIRES) {
        PyErr_Format(PyExc_TypeError, "len() of a %s filter would be an estimate: it does not know "
                     "how many distinct keys are in its window. f.stats()['items'] counts the adds "
                     "of its live generations (a repeated key each time, the slack's older adds "
                     "too)", ops->name);
        return -1;
    }
    PyErr_Format(PyExc_TypeError, "len() of a %s filter would be an estimate: a filter does not "
                 "know how many distinct keys it holds. f.stats()['items'] counts the insertions "
                 "(less removals; a key added twice counts twice)", ops->name);
    return -1;
}

static int filter_bool(PyObject *o)
{
    (void)o;
    return 1;
}

static PyObject *get_capacity(PyObject *o, void *unused)
{
    (void)unused;
    fk_stats st;
    if (stats_of((pyfk_filter *)o, &st))
        return NULL;
    return PyLong_FromUnsignedLongLong((unsigned long long)st.capacity);
}

/* f.clear(): an empty filter of the same shape replaces the table. It is
 * made from the parameters the constructor had; a loaded, built or grown
 * filter is remade from its capacity, fpr and seed when that gives its
 * shape again (same kind, memory and file size), else UnsupportedError. */
static PyObject *filter_clear(PyObject *o, PyObject *noargs)
{
    (void)noargs;
    pyfk_filter *self = (pyfk_filter *)o;
    pyfk_state *st = state_of(o);
    fk_stats now;
    uint64_t size_now = 0, size_new = 0;
    int in = pyfk_enter(self, false);
    if (in < 0)
        return NULL;
    const fk_ops *ops = fk_filter_ops(self->filter);
    fk_filter_stats(self->filter, &now);
    (void)fk_filter_serialized_size(self->filter, &size_now);
    uint64_t span = self->made_known ? self->made_span : pyfk_timed_span_of(self->filter);
    uint32_t clock_id = pyfk_timed_clock_of(self->filter);
    pyfk_leave(self, in);
    bool grows = (fk_ops_caps(ops) & FK_CAP_GROWS) != 0;
    fk_params p = self->made;
    if (!self->made_known) {
        p = fk_params_make(now.capacity, self->fpr);
        p.seed = self->seed;
        p.max_bytes = self->max_bytes;
        p.clock = clock_id;
    }
    fk_filter *fresh = NULL;
    fk_status s = pyfk_timed_new(ops, &p, span, &fresh);
    fk_stats st_new;
    if (s == FK_OK) {
        fk_filter_stats(fresh, &st_new);
        (void)fk_filter_serialized_size(fresh, &size_new);
    }
    if (s == FK_OK && !grows && (st_new.memory_bytes != now.memory_bytes || size_new != size_now ||
                                 st_new.capacity != now.capacity)) {
        fk_filter_free(fresh);
        PyErr_Format(st->UnsupportedError, "clear: this %s filter (loaded, built or grown) cannot be "
                     "made again from its capacity, fpr and seed alone: make a new one", ops->name);
        return NULL;
    }
    if (s != FK_OK)
        return pyfk_raise(st, s, "clear");
    if (pyfk_hold(self, NULL)) { /* a writer: replaces the table */
        fk_filter_free(fresh);
        return NULL;
    }
    fk_filter *old = self->filter;
    self->filter = fresh;
    pyfk_unhold(self, NULL);
    fk_filter_free(old);
    Py_RETURN_NONE;
}

/* The saved form of o with its item count and checksum zeroed: what ==
 * compares (kind, parameters and contents, not how many inserts made
 * them). A new bytes object, or NULL. */
static PyObject *comparable_bytes(PyObject *o)
{
    PyObject *b = filter_to_bytes(o, NULL);
    if (!b)
        return NULL;
    char *d = PyBytes_AS_STRING(b);
    size_t n = (size_t)PyBytes_GET_SIZE(b);
    if (n >= FK_SERIAL_HEADER_BYTES + FK_SERIAL_TRAILER_BYTES) {
        memset(d + 40, 0, 8); /* the item count (common/serial.h) */
        memset(d + n - FK_SERIAL_TRAILER_BYTES, 0, FK_SERIAL_TRAILER_BYTES);
    }
    return b;
}

/* The kinds whose merge ORs bits (merge, and neither counts, removes nor
 * grows: bloom, blocked): f <= g is "every bit of f is set in g". */
static bool subset_by_bits(const fk_ops *ops)
{
    unsigned caps = fk_ops_caps(ops);
    return (caps & FK_CAP_MERGE) && !(caps & (FK_CAP_COUNT | FK_CAP_REMOVE | FK_CAP_GROWS));
}

/* f == g: the same kind, parameters and bits (items aside); f <= g and
 * f >= g for the kinds whose bits say subset; other orderings TypeError. */
static PyObject *filter_richcompare(PyObject *a, PyObject *b, int op)
{
    if (!is_filter(a) || !is_filter(b))
        Py_RETURN_NOTIMPLEMENTED;
    const fk_ops *ka = fk_filter_ops(((pyfk_filter *)a)->filter);
    const fk_ops *kb = fk_filter_ops(((pyfk_filter *)b)->filter);
    if (op == Py_LE || op == Py_GE) {
        if (!subset_by_bits(ka) || ka != kb) {
            PyErr_Format(PyExc_TypeError, "%s: subset is defined only between two filters of a kind "
                         "whose bits tell it (bloom, blocked: every bit of one set in the other), "
                         "not %s and %s", op == Py_LE ? "<=" : ">=", ka->name, kb->name);
            return NULL;
        }
    } else if (op != Py_EQ && op != Py_NE) {
        Py_RETURN_NOTIMPLEMENTED;
    }
    if (op == Py_GE) {
        PyObject *t = a;
        a = b;
        b = t;
    }
    if (a == b)
        return PyBool_FromLong(op != Py_NE);
    if (ka != kb)
        return PyBool_FromLong(op == Py_NE);
    PyObject *x = comparable_bytes(a), *y = x ? comparable_bytes(b) : NULL;
    if (!y) {
        Py_XDECREF(x);
        return NULL;
    }
    const unsigned char *p = (const unsigned char *)PyBytes_AS_STRING(x);
    const unsigned char *q = (const unsigned char *)PyBytes_AS_STRING(y);
    size_t n = (size_t)PyBytes_GET_SIZE(x);
    bool same_size = n == (size_t)PyBytes_GET_SIZE(y);
    PyObject *r = NULL;
    if (op == Py_EQ || op == Py_NE) {
        bool eq = same_size && memcmp(p, q, n) == 0;
        r = PyBool_FromLong(op == Py_EQ ? eq : !eq);
    } else if (!same_size || memcmp(p, q, FK_SERIAL_HEADER_BYTES) != 0) {
        PyErr_Format(PyExc_ValueError, "subset needs two %s filters made alike (same capacity, fpr "
                     "and seed)", ka->name);
    } else {
        bool sub = true; /* the payload: bit words, compared byte by byte */
        for (size_t i = FK_SERIAL_HEADER_BYTES; sub && i + FK_SERIAL_TRAILER_BYTES < n; i++)
            sub = (p[i] & ~q[i]) == 0;
        r = PyBool_FromLong(sub);
    }
    Py_DECREF(x);
    Py_DECREF(y);
    return r;
}

/* ------------------------------------------------------- method tables */
#define DOC_THREADS "\n\nThreads: see help(filterkit) -- lookups may run together; a writer waits for " \
    "the GIL-free batches on its filters (both filters of | and &) and runs alone."

PyDoc_STRVAR(add_doc, "add($self, key, /)\n--\n\n"
"Adds key (bytes, str as UTF-8, or int in 0..2**64-1 as its 8 little-endian bytes).\n"
"Raises FilterFullError when a bounded kind has no room (nothing was lost),\n"
"TypeError for another key type, OverflowError for an int out of range.\n"
"Cost: one hash plus the kind's probes; holds the GIL." DOC_THREADS);
PyDoc_STRVAR(update_doc, "update($self, *iterables)\n--\n\n"
"Adds every key of each iterable, in order (as set.update). A NumPy uint64 array or\n"
"any buffer of 64-bit integers goes through add_many. On an error the keys before\n"
"the failing one are in. Cost: as add per key, inserted in batches of 4096.");
PyDoc_STRVAR(add_many_doc, "add_many($self, keys, /, *, concurrent=False)\n--\n\n"
"Adds a batch of keys: a NumPy array or buffer of 64-bit integers (uint64, or int64\n"
"without negatives), or a sequence of keys. Raises FilterFullError (its .done says\n"
"how many keys went in) when a bounded kind runs out of room. Releases the GIL for\n"
"large arrays; other threads' writers on this filter wait. concurrent=True (kinds\n"
"with concurrent inserts, else UnsupportedError): the kind's concurrent inserts,\n"
"so add_many calls with concurrent=True from several threads, and lookups, run\n"
"in parallel on one filter; the other writers, stats and saving wait for them.\n"
"Cost: one hash per key, the memory accesses of a window of keys overlapped.");
PyDoc_STRVAR(contains_many_doc, "contains_many($self, keys, /, out=None)\n--\n\n"
"Returns a NumPy bool array: out[i] = keys[i] in self. keys as for add_many; out,\n"
"when given, is a writable C-contiguous bool buffer of len(keys) elements that is\n"
"filled and returned. Releases the GIL (lookups from other threads may run at the\n"
"same time; writers wait). Cost: one hash per key, memory accesses overlapped.");
PyDoc_STRVAR(remove_doc, "remove($self, key, /)\n--\n\n"
"Removes one earlier insertion of key; KeyError when key is definitely absent (as\n"
"set.remove). Removing a key that was never added may remove another key's trace\n"
"(a false negative later). Cost: one hash plus probes." DOC_THREADS);
PyDoc_STRVAR(discard_doc, "discard($self, key, /)\n--\n\n"
"As remove, but an absent key is not an error (as set.discard).");
PyDoc_STRVAR(count_doc, "count($self, key, /)\n--\n\n"
"Estimated number of times key was added (never less than the truth for keys\n"
"added and not removed; 0 means definitely absent). Cost: one hash plus probes.");
PyDoc_STRVAR(grow_doc, "grow($self)\n--\n\n"
"Doubles the filter in place without its keys: every key kept with its count,\n"
"room for twice as many. The false-positive rate at a given number of keys\n"
"doubles, and so do capacity and target_fpr in stats(): make the filter with\n"
"the fpr needed at the end divided by 2**g for g doublings (filterkit.pick's\n"
"grow_to says which). ValueError when it cannot double again, LimitError when\n"
"twice its memory_bytes would pass f.max_bytes (the max_bytes knob, else\n"
"filterkit.default_max_bytes()), MemoryError. Cost: one pass writing a table\n"
"twice the size (both held meanwhile); releases the GIL, holding the filter." DOC_THREADS);
PyDoc_STRVAR(stats_doc, "stats($self)\n--\n\n"
"A dict: kind, items, capacity, memory_bytes, bits_per_item, load_factor,\n"
"expected_fpr (theory at the current fill), target_fpr, seed; a kind that grows by\n"
"doubling its table (Expandable) also doublings (capacity is then the keys before\n"
"the next one). Cost: O(1) or one scan of the filter, per kind.");
PyDoc_STRVAR(to_bytes_doc, "to_bytes($self)\n--\n\n"
"The filter in filterkit's file format (the CLI's and Redis's). Cost: O(size).");
PyDoc_STRVAR(from_bytes_doc, "from_bytes($type, data, /)\n--\n\n"
"Class method: the filter saved in data (bytes-like). On Filter any kind; on a kind's\n"
"class that kind only (TypeError for another). CorruptError (a ValueError) for bad,\n"
"truncated or altered bytes, UnsupportedError for a newer format. Cost: O(size).");
PyDoc_STRVAR(save_doc, "save($self, path, /)\n--\n\n"
"Writes to_bytes() to the file at path (str, bytes or os.PathLike), replacing it\n"
"atomically: a temporary file in the same folder (path.tmp-XXXXXX), flushed and\n"
"fsynced, renamed over path (its mode kept; a symlink stays a link). OSError when\n"
"the file cannot be written; the old file is then left as it was and the temporary\n"
"file removed. Releases the GIL while writing.");
PyDoc_STRVAR(build_doc, "build($type, keys, /, *, capacity=None, fpr=0.01, seed=0, **knobs)\n--\n\n"
"Class method: a filter made from the whole set at once (the way static kinds are\n"
"made; for the others, created with capacity len(keys) when not given and filled\n"
"with add_many). keys as for add_many.");
PyDoc_STRVAR(clear_doc, "clear($self)\n--\n\n"
"Removes every key: an empty filter of the same shape (kind, capacity, fpr, seed and\n"
"knobs) replaces the table. UnsupportedError for a loaded, built or grown filter\n"
"whose shape its capacity, fpr and seed alone do not give. Cost: O(size), a writer." DOC_THREADS);
PyDoc_STRVAR(copy_doc, "copy($self)\n--\n\nAn independent copy (through the file format). Cost: O(size).");

static PyMethodDef read_methods[] = {
    { "contains_many", (PyCFunction)(void (*)(void))filter_contains_many, METH_VARARGS | METH_KEYWORDS, contains_many_doc },
    { "stats", filter_stats, METH_NOARGS, stats_doc },
    { "describe", pyfk_describe, METH_NOARGS, pyfk_describe_doc },
    { "to_bytes", filter_to_bytes, METH_NOARGS, to_bytes_doc },
    { "save", filter_save, METH_O, save_doc },
    { "from_bytes", filter_from_bytes, METH_O | METH_CLASS, from_bytes_doc },
    { "build", (PyCFunction)(void (*)(void))filter_build, METH_VARARGS | METH_KEYWORDS | METH_CLASS, build_doc },
    { "copy", filter_copy, METH_NOARGS, copy_doc },
    { "__copy__", filter_copy, METH_NOARGS, NULL },
    { "__deepcopy__", filter_deepcopy, METH_O, NULL },
    { "__reduce__", filter_reduce, METH_NOARGS, NULL },
    { "__sizeof__", filter_sizeof, METH_NOARGS, NULL },
    { NULL, NULL, 0, NULL },
};
static PyMethodDef insert_methods[] = {
    { "add", filter_add, METH_O, add_doc },
    { "update", filter_update, METH_VARARGS, update_doc },
    { "add_many", (PyCFunction)(void (*)(void))filter_add_many, METH_VARARGS | METH_KEYWORDS, add_many_doc },
    { "clear", filter_clear, METH_NOARGS, clear_doc },
    { NULL, NULL, 0, NULL },
};
static PyMethodDef remove_methods[] = {
    { "remove", filter_remove, METH_O, remove_doc },
    { "discard", filter_discard, METH_O, discard_doc },
    { NULL, NULL, 0, NULL },
};
static PyMethodDef count_methods[] = {
    { "count", filter_count, METH_O, count_doc },
    { NULL, NULL, 0, NULL },
};
static PyMethodDef resize_methods[] = {
    { "grow", filter_grow, METH_NOARGS, grow_doc },
    { NULL, NULL, 0, NULL },
};

static PyGetSetDef filter_getset[] = {
    { "kind", get_kind, NULL, "the kind's registry name (\"bloom\", ...)", NULL },
    { "fpr", get_fpr, NULL, "the target false-positive rate it was made for", NULL },
    { "seed", get_seed, NULL, "the hash seed", NULL },
    { "capacity", get_capacity, NULL, "the number of items it is sized for (stats()['capacity']; a "
      "growing kind's grows with it)", NULL },
    { "max_bytes", get_max_bytes, NULL, "the byte limit its growth stays under (LimitError past it): "
      "the max_bytes knob, else filterkit.default_max_bytes() when made or loaded; a copy keeps it", NULL },
    { NULL, NULL, NULL, NULL, NULL },
};

/* not const: PyType_Slot takes a void * */
static char filter_doc[] = PyDoc_STR(
"Filter(kind, /, capacity, fpr=0.01, *, seed=0, **knobs)\n--\n\n"
"An approximate-membership filter of the named kind (filterkit.kinds()); the\n"
"result is an instance of that kind's class (filterkit.Bloom, ...), which can\n"
"also be called directly: filterkit.Bloom(10**6, 0.01) or\n"
"filterkit.Bloom(capacity=10**6, fpr=0.01).\n\n"
"capacity is the number of items to size for (growing kinds may omit it);\n"
"knobs, 0 meaning derive: bits, hashes, counter_bits, fingerprint_bits, growth,\n"
"max_load, tightening; max_bytes caps the bytes the filter may hold, growth\n"
"included (0: filterkit.default_max_bytes(), below the machine's memory; at most\n"
"64 GiB; not saved with it: a loaded filter gets the default). ValueError for a bad value (fpr not in (0, 1), NaN,\n"
"capacity 0; a filter over the library's 64 GiB cap, saying the memory it would need),\n"
"LimitError (a ValueError) for a filter over max_bytes, TypeError for a wrong type,\n"
"MemoryError.\n\n"
"x in f is False only when x was never added (or was removed); True may be a false\n"
"positive, at about the rate fpr once capacity items are in.\n\n"
"Methods (a kind's class has those its kind can do: its `capabilities`; see\n"
"help(filterkit.Bloom.add) and so on for each):\n"
"  add(key), update(*iterables), add_many(keys): insert (all but static kinds);\n"
"    FilterFullError, saying what to do, when a bounded kind (cuckoo) is full\n"
"  clear(): remove every key (all but static kinds)\n"
"  remove(key), discard(key): kinds with \"remove\"; count(key): with \"count\"\n"
"  grow(): kinds with \"resizes\"; f | g, f |= g: \"merge\"; f & g, f &= g: \"intersect\"\n"
"  advance(now), describe(): \"expires\" (window: span=T makes a time window of T\n"
"    ns of Unix time, advance() reading time.time_ns(); clock=\"caller\" for ticks of\n"
"    your own, advance(now) only; help(filterkit.Window))\n"
"  x in f, contains_many(keys), stats(), to_bytes(), save(path), copy(),\n"
"  from_bytes(data), build(keys): every kind\n"
"  f == g: the same kind, parameters and bits (not how many inserts made them);\n"
"  f <= g, f >= g: subset by bits, for bloom and blocked (TypeError for others)\n"
"  len(f): TypeError (a filter does not know how many distinct keys it holds:\n"
"    f.stats()['items'] counts insertions); weakref.ref(f) works.\n"
"Attributes: kind, capacity, fpr, seed, max_bytes.");

static PyMemberDef filter_members[] = {
    { "__weaklistoffset__", T_PYSSIZET, offsetof(pyfk_filter, weakrefs), READONLY, NULL },
    { NULL, 0, 0, 0, NULL },
};

static PyType_Slot filter_slots[] = {
    { Py_tp_new, filter_new },
    { Py_tp_dealloc, filter_dealloc },
    { Py_tp_repr, filter_repr },
    { Py_tp_hash, PyObject_HashNotImplemented },
    { Py_tp_richcompare, filter_richcompare },
    { Py_tp_methods, read_methods },
    { Py_tp_getset, filter_getset },
    { Py_tp_members, filter_members },
    { Py_tp_doc, filter_doc },
    { Py_sq_contains, filter_contains },
    { Py_sq_length, filter_len },
    { Py_nb_bool, filter_bool },
    { 0, NULL },
};

static PyType_Spec filter_spec = {
    "filterkit.Filter", sizeof(pyfk_filter), 0, Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE, filter_slots,
};

/* "scalable-bloom" -> "ScalableBloom" */
static void class_name(const char *kind, char *out, size_t cap)
{
    size_t o = 0;
    bool up = true;
    for (const char *c = kind; *c && o + 1 < cap; c++) {
        if (!((*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') || (*c >= '0' && *c <= '9'))) {
            up = true;
            continue;
        }
        out[o++] = up && *c >= 'a' && *c <= 'z' ? (char)(*c - 'a' + 'A') : *c;
        up = false;
    }
    out[o] = 0;
}

static PyObject *caps_set(unsigned caps)
{
    static const struct {
        unsigned    flag;
        const char *name;
    } names[] = {
        { FK_CAP_REMOVE, "remove" },   { FK_CAP_COUNT, "count" },   { FK_CAP_SERIALIZE, "serialize" },
        { FK_CAP_BOUNDED, "bounded" }, { FK_CAP_GROWS, "grows" },   { FK_CAP_STATIC, "static" },
        { FK_CAP_MERGE, "merge" },     { FK_CAP_INTERSECT, "intersect" }, { FK_CAP_RESIZES, "resizes" },
        { FK_CAP_EXPIRES, "expires" },
    };
    PyObject *set = PyFrozenSet_New(NULL);
    for (size_t i = 0; set && i < sizeof names / sizeof names[0]; i++) {
        if (!(caps & names[i].flag))
            continue;
        PyObject *s = PyUnicode_FromString(names[i].name);
        if (!s || PySet_Add(set, s) < 0)
            Py_CLEAR(set);
        Py_XDECREF(s);
    }
    return set;
}

/* Adds the methods of table to type (descriptors pointing at the static
 * table: nothing to free with the class). */
static int add_methods(PyTypeObject *type, PyMethodDef *table)
{
    for (PyMethodDef *m = table; m->ml_name; m++) {
        PyObject *d = PyDescr_NewMethod(type, m);
        int rc = d ? PyObject_SetAttrString((PyObject *)type, m->ml_name, d) : -1;
        Py_XDECREF(d);
        if (rc < 0)
            return -1;
    }
    return 0;
}

/* What a forgetting kind's class says of itself (help(filterkit.Window)). */
#define EXPIRES_DOC \
"Forgets: a sliding window. A count window (span=None) answers present for every\n" \
"key among its last `capacity` adds; a time window (span=T) for every key added\n" \
"less than T ticks before its clock, which only advance moves, never backwards\n" \
"(ValueError). clock=\"unix_ns\" (the default: T and the times in Unix ns, as the\n" \
"CLI and Redis keep them; advance() reads time.time_ns()) or clock=\"caller\"\n" \
"(any unit of yours; advance(now) only).\n" \
"Older keys leave: past the window plus its slack (capacity/7 adds, or T/7\n" \
"ticks) a key answers present only at the fpr. Adding a key again refreshes it.\n" \
"capacity is for a time window the keys one span brings: adds past that raise\n" \
"FilterFullError until the clock moves (nothing lost). No remove (a shared slot\n" \
"would take another key with it); len() raises TypeError (stats()['items']\n" \
"counts the adds of the live generations, repeats and slack included).\n" \
"describe() gives the generations; the state (clock included) is saved,\n" \
"copied and pickled, and a loaded window continues exactly.\n"

/* One class for kind ops, its methods chosen by its caps. */
static PyTypeObject *make_kind_class(PyObject *module, const pyfk_state *st, const fk_ops *ops)
{
    unsigned caps = fk_ops_caps(ops);
    char cname[64], qual[80];
    class_name(ops->name, cname, sizeof cname);
    snprintf(qual, sizeof qual, "filterkit.%s", cname);
    /* The spec's name and doc are copied into the class. */
    size_t doc_cap = 900 + sizeof EXPIRES_DOC + 2 * strlen(ops->name) + strlen(ops->summary ? ops->summary : "");
    char *doc = PyMem_Malloc(doc_cap);
    if (!doc) {
        PyErr_NoMemory();
        return NULL;
    }
    snprintf(doc, doc_cap, "%s(capacity, fpr=0.01, *, seed=0, %s**knobs)\n--\n\nfilterkit kind \"%s\": %s\n"
            "%s%s%s%s%s%s%s%sSee help(filterkit.Filter) for the arguments.",
            cname, caps & FK_CAP_EXPIRES ? "span=None, clock=\"unix_ns\", " : "", ops->name, ops->summary ? ops->summary : "",
            caps & FK_CAP_EXPIRES ? EXPIRES_DOC : "",
            caps & FK_CAP_STATIC ? "Static: made from the whole set with build(keys).\n" : "",
            caps & FK_CAP_REMOVE ? "Removes keys (remove, discard).\n" : "",
            caps & FK_CAP_COUNT ? "Counts keys (count).\n" : "",
            caps & FK_CAP_RESIZES ? "Doubles in place without its keys (grow).\n" : "",
            caps & FK_CAP_MERGE ? "Merges (f | g, f |= g) with filters made alike.\n" : "",
            caps & FK_CAP_INTERSECT ? "Intersects (f & g, f &= g) with filters made alike: true for every "
                                      "key both hold,\nand possibly more than a filter of the common keys "
                                      "would hold. Cost: one pass.\n" : "",
            caps & FK_CAP_GROWS ? "Grows as keys arrive: capacity is only its first size.\n" : "");
    PyType_Slot slots[9];
    int ns = 0;
    slots[ns++] = (PyType_Slot){ Py_tp_doc, doc };
    if (caps & FK_CAP_EXPIRES)
        slots[ns++] = (PyType_Slot){ Py_tp_getset, pyfk_timed_getset };
    if (caps & FK_CAP_MERGE) {
        slots[ns++] = (PyType_Slot){ Py_nb_or, filter_or };
        slots[ns++] = (PyType_Slot){ Py_nb_inplace_or, filter_ior };
    }
    if (caps & FK_CAP_INTERSECT) {
        slots[ns++] = (PyType_Slot){ Py_nb_and, filter_and };
        slots[ns++] = (PyType_Slot){ Py_nb_inplace_and, filter_iand };
    }
    slots[ns] = (PyType_Slot){ 0, NULL };
    PyType_Spec spec = { qual, sizeof(pyfk_filter), 0, Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE, slots };
    PyTypeObject *type = (PyTypeObject *)PyType_FromModuleAndSpec(module, &spec, (PyObject *)st->filter_type);
    PyMem_Free(doc);
    if (!type)
        return NULL;
    PyObject *kind = PyUnicode_FromString(ops->name);
    PyObject *summary = PyUnicode_FromString(ops->summary ? ops->summary : "");
    PyObject *capset = caps_set(caps);
    int bad = !kind || !summary || !capset || PyObject_SetAttrString((PyObject *)type, "kind", kind) < 0 ||
              PyObject_SetAttrString((PyObject *)type, "summary", summary) < 0 ||
              PyObject_SetAttrString((PyObject *)type, "capabilities", capset) < 0 ||
              (!(caps & FK_CAP_STATIC) && add_methods(type, insert_methods)) ||
              ((caps & FK_CAP_REMOVE) && add_methods(type, remove_methods)) ||
              ((caps & FK_CAP_COUNT) && add_methods(type, count_methods)) ||
              ((caps & FK_CAP_RESIZES) && add_methods(type, resize_methods)) ||
              ((caps & FK_CAP_EXPIRES) && add_methods(type, pyfk_timed_methods));
    Py_XDECREF(kind);
    Py_XDECREF(summary);
    Py_XDECREF(capset);
    if (bad) {
        Py_DECREF(type);
        return NULL;
    }
    return type;
}

int pyfk_types_init(PyObject *module, pyfk_state *st)
{
    st->filter_type = (PyTypeObject *)PyType_FromModuleAndSpec(module, &filter_spec, NULL);
    if (!st->filter_type || PyModule_AddObjectRef(module, "Filter", (PyObject *)st->filter_type) < 0)
        return -1;
    PyObject *names = PyList_New(0);
    if (!names)
        return -1;
    const fk_ops *ops;
    for (size_t i = 0; (ops = fk_ops_at(i)) != NULL && st->nkinds < PYFK_MAX_KINDS; i++) {
        PyTypeObject *type = make_kind_class(module, st, ops);
        if (!type) {
            Py_DECREF(names);
            return -1;
        }
        st->kinds[st->nkinds].ops = ops;
        st->kinds[st->nkinds].type = type; /* the state keeps this reference */
        st->nkinds++;
        const char *cname = strrchr(type->tp_name, '.') + 1;
        PyObject *n = Py_BuildValue("(sO)", ops->name, (PyObject *)type);
        if (!n || PyList_Append(names, n) < 0 || PyModule_AddObjectRef(module, cname, (PyObject *)type) < 0) {
            Py_XDECREF(n);
            Py_DECREF(names);
            return -1;
        }
        Py_DECREF(n);
    }
    PyObject *tuple = PyList_AsTuple(names);
    Py_DECREF(names);
    int rc = tuple ? PyModule_AddObjectRef(module, "_kind_classes", tuple) : -1;
    Py_XDECREF(tuple);
    return rc;
}
