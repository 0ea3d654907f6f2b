/* python/src/filter_type.c: filterkit.Filter and one class per registered
 * kind, made at import from the registry. A class gets the method groups
 * its kind's fk_ops_caps allow (add/update where it inserts, remove/discard
 * where it removes, count where it counts, | where it merges): nothing
 * here names a kind. */
#include "pyfk.h" /* first: Python.h sets the feature macros */
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>
#include "scalable/scalable.h" /* fk_scalable_set_max_bytes: a loaded chain's limit */

PyTypeObject *pyfk_filter_type;

/* A growing kind made without a capacity starts with this first link (the
 * CLI's default too). */
#define GROWING_START_CAPACITY (UINT64_C(1) << 16)

/* ------------------------------------------------------------ kinds table */
#define MAX_KINDS 64
static struct {
    const fk_ops *ops;
    PyTypeObject *type;
} kinds[MAX_KINDS];
static size_t nkinds;

PyTypeObject *pyfk_type_of_ops(const fk_ops *ops)
{
    for (size_t i = 0; i < nkinds; i++)
        if (kinds[i].ops == ops)
            return kinds[i].type;
    PyErr_Format(PyExc_TypeError, "filter kind %s is not in filterkit's registry",
                 ops && ops->name ? ops->name : "?");
    return NULL;
}

const fk_ops *pyfk_ops_of_type(PyTypeObject *type)
{
    for (PyTypeObject *t = type; t; t = t->tp_base)
        for (size_t i = 0; i < nkinds; i++)
            if (kinds[i].type == t)
                return kinds[i].ops;
    return NULL;
}

/* ------------------------------------------------------------ busy state */
int pyfk_hold_slow(pyfk_filter *w, pyfk_filter *r, bool batch)
{
    /* Other threads run GIL-free sections on these filters; they need the
     * GIL back to finish, so wait with it released. A writer or a merge
     * says it waits, so that batches starting now queue behind it. */
    if (!batch) {
        if (w)
            w->waiting++;
        if (r)
            r->waiting++;
    }
    int rc = 0;
    while (pyfk_must_wait(w, r, batch)) {
        Py_BEGIN_ALLOW_THREADS
        sched_yield();
        Py_END_ALLOW_THREADS
        if (PyErr_CheckSignals() < 0) {
            rc = -1;
            break;
        }
    }
    if (!batch) {
        if (w)
            w->waiting--;
        if (r)
            r->waiting--;
    }
    return rc;
}

/* ------------------------------------------------------------ byte limit */
static uint64_t min_u64(uint64_t a, uint64_t b)
{
    return a < b ? a : b;
}

/* The cgroup (v2) memory.max the process runs under: the OOM killer acts
 * there first in a container; UINT64_MAX when there is none ("max"). */
static uint64_t cgroup_memory_max(void)
{
    FILE *fp = fopen("/sys/fs/cgroup/memory.max", "r");
    unsigned long long v = 0;
    int got = fp ? fscanf(fp, "%llu", &v) : 0;
    if (fp)
        fclose(fp);
    return got == 1 && v > 0 ? (uint64_t)v : UINT64_MAX;
}

uint64_t pyfk_default_max_bytes(void)
{
    uint64_t room = UINT64_MAX;
    long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
    if (pages > 0 && page > 0)
        room = (uint64_t)pages > UINT64_MAX / (uint64_t)page ? UINT64_MAX : (uint64_t)pages * (uint64_t)page;
    const int limits[] = { RLIMIT_AS, RLIMIT_DATA };
    for (size_t i = 0; i < sizeof limits / sizeof limits[0]; i++) {
        struct rlimit rl;
        if (getrlimit(limits[i], &rl) == 0 && rl.rlim_cur != RLIM_INFINITY)
            room = min_u64(room, (uint64_t)rl.rlim_cur);
    }
    room = min_u64(room, cgroup_memory_max());
    return min_u64(room / 2, FK_MEMORY_CAP);
}

void pyfk_set_max_bytes(pyfk_filter *self, uint64_t max_bytes)
{
    self->max_bytes = max_bytes ? min_u64(max_bytes, FK_MEMORY_CAP) : pyfk_default_max_bytes();
    /* a chain checks its limit before each new link; other kinds answer
     * FK_EINVAL (not a chain): grow checks theirs here (filter_grow) */
    if (self->filter)
        (void)fk_scalable_set_max_bytes(self->filter, self->max_bytes);
}

/* ---------------------------------------------------------- construction */
static pyfk_filter *alloc_for(PyTypeObject *type, fk_filter *f, double fpr, uint64_t seed)
{
    pyfk_filter *self = (pyfk_filter *)type->tp_alloc(type, 0);
    if (!self) {
        fk_filter_free(f);
        return NULL;
    }
    self->filter = f;
    const fk_ops *ops = f ? fk_filter_ops(f) : NULL;
    self->contains_u64 = ops && FK_OPS_HAS(ops, FK_OPS_V5, contains_u64) ? ops->contains_u64
                                                                        : fk_filter_contains_u64;
    self->fpr = fpr;
    self->seed = seed;
    pyfk_set_max_bytes(self, 0); /* the default; a made filter sets its knob's */
    return self;
}

PyObject *pyfk_wrap(fk_filter *f, double fpr, uint64_t seed)
{
    PyTypeObject *type = pyfk_type_of_ops(fk_filter_ops(f));
    if (!type) {
        fk_filter_free(f);
        return NULL;
    }
    return (PyObject *)alloc_for(type, f, fpr, seed);
}

static int get_u64_knob(PyObject *v, const char *name, uint64_t max, uint64_t *out)
{
    PyObject *i = PyNumber_Index(v); /* TypeError for a float, a str, ... */
    if (!i)
        return -1;
    unsigned long long u = PyLong_AsUnsignedLongLong(i); /* OverflowError when < 0 or too large */
    Py_DECREF(i);
    if ((u == (unsigned long long)-1 && PyErr_Occurred()) || u > max) {
        PyErr_Clear();
        PyErr_Format(PyExc_ValueError, "%s must be in 0 .. %llu", name, (unsigned long long)max);
        return -1;
    }
    *out = u;
    return 0;
}

static int get_double_knob(PyObject *v, const char *name, double *out)
{
    if (!PyFloat_Check(v) && !PyLong_Check(v)) {
        PyErr_Format(PyExc_TypeError, "%s must be a float, not %.200s", name, Py_TYPE(v)->tp_name);
        return -1;
    }
    double d = PyFloat_AsDouble(v);
    if (d == -1.0 && PyErr_Occurred())
        return -1;
    *out = d;
    return 0;
}

int pyfk_params_from(PyObject *kw, fk_params *p, bool capacity_required)
{
    memset(p, 0, sizeof *p);
    p->fpr = 0.01;
    bool have_capacity = false;
    if (kw) {
        PyObject *key, *value;
        Py_ssize_t pos = 0;
        while (PyDict_Next(kw, &pos, &key, &value)) {
            const char *k = PyUnicode_Check(key) ? PyUnicode_AsUTF8(key) : NULL;
            uint64_t u = 0;
            if (!k)
                return PyErr_Occurred() ? -1 : (PyErr_SetString(PyExc_TypeError, "keywords must be strings"), -1);
            if (value == Py_None && strcmp(k, "capacity") == 0)
                continue; /* capacity=None: the default */
#define U64_KNOB(name, field, type, max)                   \
    else if (strcmp(k, name) == 0)                         \
    {                                                      \
        if (get_u64_knob(value, name, max, &u))            \
            return -1;                                     \
        p->field = (type)u;                                \
    }
            if (0) {
            }
            U64_KNOB("capacity", capacity, uint64_t, UINT64_MAX)
            U64_KNOB("seed", seed, uint64_t, UINT64_MAX)
            U64_KNOB("bits", bits, uint64_t, UINT64_MAX)
            U64_KNOB("hashes", hashes, uint32_t, UINT32_MAX)
            U64_KNOB("counter_bits", counter_bits, uint32_t, UINT32_MAX)
            U64_KNOB("fingerprint_bits", fingerprint_bits, uint32_t, UINT32_MAX)
            U64_KNOB("growth", growth, uint32_t, UINT32_MAX)
            U64_KNOB("max_bytes", max_bytes, uint64_t, UINT64_MAX)
            else if (strcmp(k, "fpr") == 0)
            {
                if (get_double_knob(value, "fpr", &p->fpr))
                    return -1;
            }
            else if (strcmp(k, "max_load") == 0)
            {
                if (get_double_knob(value, "max_load", &p->max_load))
                    return -1;
            }
            else if (strcmp(k, "tightening") == 0)
            {
                if (get_double_knob(value, "tightening", &p->tightening))
                    return -1;
            }
            else
            {
                PyErr_Format(PyExc_TypeError, "unexpected keyword argument '%s' (filter knobs: capacity, "
                             "fpr, seed, bits, hashes, counter_bits, fingerprint_bits, growth, max_load, "
                             "tightening, max_bytes)", k);
                return -1;
            }
#undef U64_KNOB
            if (strcmp(k, "capacity") == 0)
                have_capacity = true;
        }
    }
    if (!have_capacity && capacity_required) {
        PyErr_SetString(PyExc_TypeError, "missing keyword argument 'capacity' (the number of items "
                                         "to size the filter for)");
        return -1;
    }
    if (have_capacity && p->capacity == 0) {
        PyErr_SetString(PyExc_ValueError, "capacity must be > 0");
        return -1;
    }
    if (!(p->fpr > 0 && p->fpr < 1)) {
        char got[32];
        snprintf(got, sizeof got, "%g", p->fpr);
        PyErr_Format(PyExc_ValueError, "fpr must be in (0, 1), got %s", got);
        return -1;
    }
    return 0;
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
 * type itself when it is a subclass of a kind's class), and its ops. */
static const fk_ops *resolve_kind(PyTypeObject *type, PyObject *args, PyTypeObject **make)
{
    const fk_ops *ops = pyfk_ops_of_type(type);
    Py_ssize_t nargs = PyTuple_GET_SIZE(args);
    *make = type;
    if (!ops) {
        if (nargs != 1) {
            PyErr_SetString(PyExc_TypeError, "Filter(kind, capacity=..., fpr=..., seed=...): give the "
                                             "kind's name (filterkit.kinds() lists them)");
            return NULL;
        }
        ops = kind_argument(PyTuple_GET_ITEM(args, 0));
        if (ops && !(*make = pyfk_type_of_ops(ops)))
            return NULL;
        return ops;
    }
    if (nargs != 0) {
        PyErr_Format(PyExc_TypeError, "%s() takes keyword arguments only (capacity=..., fpr=..., "
                     "seed=...)", type->tp_name);
        return NULL;
    }
    return ops;
}

static PyObject *filter_new(PyTypeObject *type, PyObject *args, PyObject *kw)
{
    PyTypeObject *make;
    const fk_ops *ops = resolve_kind(type, args, &make);
    if (!ops)
        return NULL;
    unsigned caps = fk_ops_caps(ops);
    if (caps & FK_CAP_STATIC) {
        PyErr_Format(pyfk_UnsupportedError, "%s filters are built from the whole set at once: use "
                     "filterkit.%s.build(keys, fpr=...)", ops->name, make->tp_name + sizeof "filterkit");
        return NULL;
    }
    fk_params p;
    if (pyfk_params_from(kw, &p, !(caps & FK_CAP_GROWS)))
        return NULL;
    if (p.capacity == 0)
        p.capacity = GROWING_START_CAPACITY;
    if (p.max_bytes == 0) /* below the machine's memory: LimitError, not the OOM killer */
        p.max_bytes = pyfk_default_max_bytes();
    fk_filter *f = NULL;
    fk_status s = fk_filter_new(ops, &p, &f);
    if (s != FK_OK) {
        char what[160];
        snprintf(what, sizeof what, "%s(capacity=%llu, fpr=%g)", ops->name,
                 (unsigned long long)p.capacity, p.fpr);
        return pyfk_raise(s, what);
    }
    pyfk_filter *self = alloc_for(make, f, p.fpr, p.seed);
    if (self)
        pyfk_set_max_bytes(self, p.max_bytes);
    return (PyObject *)self;
}

static void filter_dealloc(PyObject *o)
{
    pyfk_filter *self = (pyfk_filter *)o;
    PyTypeObject *type = Py_TYPE(o);
    fk_filter_free(self->filter);
    type->tp_free(o);
    if (type->tp_flags & Py_TPFLAGS_HEAPTYPE)
        Py_DECREF(type);
}

/* ------------------------------------------------------- single keys
 *
 * The key is converted first (an object's __index__ may run Python code,
 * and with it another thread, which may start a GIL-free batch on this
 * filter), then the wait for such a batch, then the C call: nothing runs
 * Python code between the wait and the call. */
/* Every key but a small int: the general conversions (out of line, so
 * that the fast path below keeps no stack frame of its own). */
__attribute__((noinline)) static int contains_slow(pyfk_filter *self, PyObject *key)
{
    if (PyLong_CheckExact(key)) {
        uint64_t v;
        if (pyfk_u64_of(key, &v) || pyfk_wait_idle(self, false))
            return -1;
        return self->contains_u64(self->filter, v);
    }
    if (PyUnicode_CheckExact(key)) {
        Py_ssize_t n;
        const char *s = PyUnicode_AsUTF8AndSize(key, &n);
        if (!s || pyfk_wait_idle(self, false))
            return -1;
        return fk_filter_contains(self->filter, s, (size_t)n);
    }
    pyfk_key k;
    int r = -1;
    if (pyfk_key_get(key, &k) == 0 && pyfk_wait_idle(self, false) == 0)
        r = k.is_int ? self->contains_u64(self->filter, k.u64)
                     : fk_filter_contains(self->filter, k.ptr, k.len);
    pyfk_key_release(&k);
    return r;
}

/* `x in f`. A small exact int (the common int key) is read from its
 * digits and goes straight to the kind's slot cached in the object: no
 * call, no object and no look-up before the filter's memory access. */
static int filter_contains(PyObject *o, PyObject *key)
{
    pyfk_filter *self = (pyfk_filter *)o;
    uint64_t v;
    if (PyLong_CheckExact(key) && pyfk_small_u64(key, &v) && !self->writing)
        return self->contains_u64(self->filter, v);
    return contains_slow(self, key);
}

static PyObject *filter_add(PyObject *o, PyObject *key)
{
    pyfk_filter *self = (pyfk_filter *)o;
    fk_status s;
    uint64_t v;
    if (PyLong_CheckExact(key)) {
        if ((!pyfk_small_u64(key, &v) && pyfk_u64_of(key, &v)) || pyfk_wait_idle(self, true))
            return NULL;
        s = fk_filter_insert_u64(self->filter, v);
    } else {
        pyfk_key k;
        if (pyfk_key_get(key, &k) || pyfk_wait_idle(self, true)) {
            pyfk_key_release(&k);
            return NULL;
        }
        s = k.is_int ? fk_filter_insert_u64(self->filter, k.u64)
                     : fk_filter_insert(self->filter, k.ptr, k.len);
        pyfk_key_release(&k);
    }
    if (s != FK_OK)
        return pyfk_raise(s, "add");
    Py_RETURN_NONE;
}

/* remove (missing = KeyError) and discard (missing = no-op). */
static PyObject *remove_key(pyfk_filter *self, PyObject *key, bool missing_raises)
{
    pyfk_key k;
    if (pyfk_key_get(key, &k) || pyfk_wait_idle(self, true)) {
        pyfk_key_release(&k);
        return NULL;
    }
    fk_status s = k.is_int ? fk_filter_remove_u64(self->filter, k.u64)
                           : fk_filter_remove(self->filter, k.ptr, k.len);
    pyfk_key_release(&k);
    if (s == FK_ENOTFOUND) {
        if (!missing_raises)
            Py_RETURN_NONE;
        PyErr_SetObject(PyExc_KeyError, key);
        return NULL;
    }
    if (s != FK_OK)
        return pyfk_raise(s, "remove");
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
    if (pyfk_key_get(key, &k) || pyfk_wait_idle(self, false)) {
        pyfk_key_release(&k);
        return NULL;
    }
    uint64_t n = 0;
    fk_status s = fk_filter_count(self->filter, k.ptr, k.len, &n);
    pyfk_key_release(&k);
    if (s != FK_OK)
        return pyfk_raise(s, "count");
    return PyLong_FromUnsignedLongLong(n);
}

/* ------------------------------------------------------------ add_many etc. */
static PyObject *filter_add_many(PyObject *o, PyObject *keys)
{
    return pyfk_add_many((pyfk_filter *)o, keys);
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
    if (pyfk_wait_idle(self, false)) /* stats needs the writers done */
        return -1;
    fk_filter_stats(self->filter, st);
    return 0;
}

static PyObject *filter_stats(PyObject *o, PyObject *unused)
{
    (void)unused;
    pyfk_filter *self = (pyfk_filter *)o;
    fk_stats st;
    if (stats_of(self, &st))
        return NULL;
    return Py_BuildValue("{s:s,s:K,s:K,s:K,s:d,s:d,s:d,s:d,s:K}",
                         "kind", fk_filter_ops(self->filter)->name,
                         "items", (unsigned long long)st.items,
                         "capacity", (unsigned long long)st.capacity,
                         "memory_bytes", (unsigned long long)st.memory_bytes,
                         "bits_per_item", st.bits_per_item,
                         "load_factor", st.load_factor,
                         "expected_fpr", st.expected_fpr,
                         "target_fpr", self->fpr,
                         "seed", (unsigned long long)self->seed);
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
    if (self->writing) /* a GIL-free add_many runs: say so rather than wait */
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
    if (pyfk_wait_idle(self, false)) /* saving needs the writers done */
        return NULL;
    uint64_t n = 0;
    fk_status s = fk_filter_serialized_size(self->filter, &n);
    if (s != FK_OK)
        return pyfk_raise(s, "to_bytes");
    if (n > (uint64_t)PY_SSIZE_T_MAX)
        return PyErr_NoMemory();
    PyObject *b = PyBytes_FromStringAndSize(NULL, (Py_ssize_t)n);
    if (!b)
        return NULL;
    s = fk_filter_save(self->filter, PyBytes_AS_STRING(b), (size_t)n, NULL);
    if (s != FK_OK) {
        Py_DECREF(b);
        return pyfk_raise(s, "to_bytes");
    }
    return b;
}

/* A new filter loaded from the bytes in buf: of kind ops, or of the kind
 * the header names when ops is NULL. */
static PyObject *load_buffer(const fk_ops *ops, const void *buf, size_t len, const char *what)
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
        return pyfk_raise(s, what);
    fk_serial_head h; /* the header passed: its fpr and seed are the filter's */
    fk_serial_read_head(buf, len, &h);
    return pyfk_wrap(f, h.fpr, h.seed);
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
        pyfk_set_max_bytes(dst, src->max_bytes);
    Py_DECREF(r);
    return (PyObject *)dst;
}

PyObject *pyfk_load_bytes(const fk_ops *ops, PyObject *data, const char *what);
PyObject *pyfk_load_bytes(const fk_ops *ops, PyObject *data, const char *what)
{
    Py_buffer view;
    if (PyUnicode_Check(data)) {
        PyErr_Format(PyExc_TypeError, "%s needs bytes (what to_bytes() returned), not str", what);
        return NULL;
    }
    if (PyObject_GetBuffer(data, &view, PyBUF_C_CONTIGUOUS) < 0)
        return NULL;
    PyObject *r = load_buffer(ops, view.buf, (size_t)view.len, what);
    PyBuffer_Release(&view);
    return r;
}

static PyObject *filter_from_bytes(PyObject *cls, PyObject *data)
{
    const fk_ops *ops = pyfk_ops_of_type((PyTypeObject *)cls);
    PyObject *r = pyfk_load_bytes(ops, data, "from_bytes");
    return ops ? as_class(r, (PyTypeObject *)cls) : r;
}

static PyObject *filter_save(PyObject *o, PyObject *path_arg)
{
    pyfk_filter *self = (pyfk_filter *)o;
    PyObject *path = NULL;
    if (!PyUnicode_FSConverter(path_arg, &path))
        return NULL;
    if (pyfk_hold(NULL, self, true)) {
        Py_DECREF(path);
        return NULL;
    }
    uint64_t n;
    fk_status s = fk_filter_serialized_size(self->filter, &n);
    if (s != FK_OK) {
        Py_DECREF(path);
        return pyfk_raise(s, "save");
    }
    FILE *fp;
    int err = 0;
    self->readers++; /* saving reads: lookups may go on */
    Py_BEGIN_ALLOW_THREADS
    fp = fopen(PyBytes_AS_STRING(path), "wb");
    if (!fp) {
        err = errno;
    } else {
        s = fk_filter_save_file(self->filter, fp);
        if (s == FK_EIO)
            err = errno ? errno : EIO;
        if (fclose(fp) != 0 && s == FK_OK) {
            s = FK_EIO;
            err = errno;
        }
    }
    Py_END_ALLOW_THREADS
    self->readers--;
    PyObject *r = NULL;
    if (!fp || s == FK_EIO) {
        errno = err;
        PyErr_SetFromErrnoWithFilenameObject(PyExc_OSError, path_arg);
    } else if (s != FK_OK) {
        pyfk_raise(s, "save");
    } else {
        r = Py_None;
        Py_INCREF(r);
    }
    Py_DECREF(path);
    return r;
}

PyObject *pyfk_load_path(PyObject *path_arg, const fk_ops *ops);
PyObject *pyfk_load_path(PyObject *path_arg, const fk_ops *ops)
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
        return pyfk_raise(s, buf);
    }
    fk_serial_head h;
    fk_serial_read_head(head, got, &h);
    return pyfk_wrap(f, h.fpr, h.seed);
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
    PyObject *r = load_buffer(fk_filter_ops(((pyfk_filter *)o)->filter), PyBytes_AS_STRING(data),
                              (size_t)PyBytes_GET_SIZE(data), "copy");
    Py_DECREF(data);
    r = as_class(r, Py_TYPE(o)); /* a user's subclass keeps its class */
    if (r) /* and its byte limit, a runtime setting the bytes do not carry */
        pyfk_set_max_bytes((pyfk_filter *)r, ((pyfk_filter *)o)->max_bytes);
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
    const fk_ops *ops = pyfk_ops_of_type((PyTypeObject *)cls);
    if (!ops) {
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
    PyObject *ok = pyfk_build_keys(ops, &p, keys, &f);
    if (!ok)
        return NULL;
    Py_DECREF(ok);
    pyfk_filter *self = alloc_for((PyTypeObject *)cls, f, p.fpr, p.seed);
    if (self)
        pyfk_set_max_bytes(self, p.max_bytes);
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
    /* both at once: the GIL then stays held to the end, so no batch starts
     * on dst (whose table a merge may free) nor a writer on src */
    if (pyfk_hold(dst, src, false))
        return NULL;
    fk_status s = op(dst->filter, src->filter);
    if (s == FK_EINVAL) {
        PyErr_Format(PyExc_ValueError, "cannot %s a %s filter with a %s filter: both must be of the "
                     "same kind, made with the same capacity, fpr and seed", verb,
                     fk_filter_ops(dst->filter)->name, fk_filter_ops(src->filter)->name);
        return NULL;
    }
    if (s != FK_OK)
        return pyfk_raise(s, verb);
    return (PyObject *)dst;
}

static PyObject *combine_new(PyObject *a, PyObject *b, combine_fn op, const char *verb)
{
    if (!PyObject_TypeCheck(a, pyfk_filter_type) || !PyObject_TypeCheck(b, pyfk_filter_type))
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
    if (!PyObject_TypeCheck(b, pyfk_filter_type))
        Py_RETURN_NOTIMPLEMENTED;
    if (a == b) {
        Py_INCREF(a);
        return a; /* f |= f and f &= f change nothing */
    }
    PyObject *r = combine_into((pyfk_filter *)a, b, op, verb);
    Py_XINCREF(r);
    return r;
}

/* f.grow(): fk_filter_grow, for the kinds that resize (FK_CAP_RESIZES). */
static PyObject *filter_grow(PyObject *o, PyObject *noargs)
{
    pyfk_filter *self = (pyfk_filter *)o;
    (void)noargs;
    if (pyfk_wait_idle(self, true))
        return NULL;
    /* the doubled table must fit the byte limit (a loaded table's kind
     * knows none of its own); the library checks its exact size too */
    fk_stats st;
    fk_filter_stats(self->filter, &st);
    if (st.memory_bytes > self->max_bytes / 2) {
        PyErr_Format(pyfk_LimitError, "grow: the doubled %s filter (about %llu bytes) would pass its "
                     "byte limit max_bytes=%llu", fk_filter_ops(self->filter)->name,
                     (unsigned long long)st.memory_bytes * 2, (unsigned long long)self->max_bytes);
        return NULL;
    }
    fk_status s = fk_filter_grow(self->filter);
    if (s == FK_EINVAL) {
        PyErr_Format(PyExc_ValueError, "this %s filter cannot double again: its remainders are at "
                     "the minimum width, or the doubled table would pass the memory cap",
                     fk_filter_ops(self->filter)->name);
        return NULL;
    }
    if (s != FK_OK)
        return pyfk_raise(s, "grow");
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

/* ------------------------------------------------------- method tables */
#define DOC_THREADS "\n\nThreads: see help(filterkit) -- lookups may run together; a writer waits for " \
    "the GIL-free batches on its filters (both filters of | and &) and runs alone."

PyDoc_STRVAR(add_doc, "add(key, /)\n--\n\n"
"Adds key (bytes, str as UTF-8, or int in 0..2**64-1 as its 8 little-endian bytes).\n"
"Raises FilterFullError when a bounded kind has no room (nothing was lost),\n"
"TypeError for another key type, OverflowError for an int out of range.\n"
"Cost: one hash plus the kind's probes; holds the GIL." DOC_THREADS);
PyDoc_STRVAR(update_doc, "update(*iterables)\n--\n\n"
"Adds every key of each iterable, in order (as set.update). A NumPy uint64 array or\n"
"any buffer of 64-bit integers goes through add_many. On an error the keys before\n"
"the failing one are in. Cost: as add per key, inserted in batches of 4096.");
PyDoc_STRVAR(add_many_doc, "add_many(keys, /)\n--\n\n"
"Adds a batch of keys: a NumPy array or buffer of 64-bit integers (uint64, or int64\n"
"without negatives), or a sequence of keys. Raises FilterFullError (its .done says\n"
"how many keys went in) when a bounded kind runs out of room. Releases the GIL for\n"
"large arrays; other threads' writers on this filter wait.\n"
"Cost: one hash per key, the memory accesses of a window of keys overlapped.");
PyDoc_STRVAR(contains_many_doc, "contains_many(keys, /, out=None)\n--\n\n"
"Returns a NumPy bool array: out[i] = keys[i] in self. keys as for add_many; out,\n"
"when given, is a writable C-contiguous bool buffer of len(keys) elements that is\n"
"filled and returned. Releases the GIL (lookups from other threads may run at the\n"
"same time; writers wait). Cost: one hash per key, memory accesses overlapped.");
PyDoc_STRVAR(remove_doc, "remove(key, /)\n--\n\n"
"Removes one earlier insertion of key; KeyError when key is definitely absent (as\n"
"set.remove). Removing a key that was never added may remove another key's trace\n"
"(a false negative later). Cost: one hash plus probes." DOC_THREADS);
PyDoc_STRVAR(discard_doc, "discard(key, /)\n--\n\n"
"As remove, but an absent key is not an error (as set.discard).");
PyDoc_STRVAR(count_doc, "count(key, /)\n--\n\n"
"Estimated number of times key was added (never less than the truth for keys\n"
"added and not removed; 0 means definitely absent). Cost: one hash plus probes.");
PyDoc_STRVAR(grow_doc, "grow()\n--\n\n"
"Doubles the filter in place without its keys: every key kept with its count,\n"
"room for twice as many. The false-positive rate at a given number of keys\n"
"doubles, and so do capacity and target_fpr in stats(): make the filter with\n"
"the fpr needed at the end divided by 2**g for g doublings (filterkit.pick's\n"
"grow_to says which). ValueError when it cannot double again, LimitError when\n"
"twice its memory_bytes would pass f.max_bytes (the max_bytes knob, else\n"
"filterkit.default_max_bytes()), MemoryError. Cost: one pass writing a table\n"
"twice the size (both held meanwhile)." DOC_THREADS);
PyDoc_STRVAR(stats_doc, "stats()\n--\n\n"
"A dict: kind, items, capacity, memory_bytes, bits_per_item, load_factor,\n"
"expected_fpr (theory at the current fill), target_fpr, seed. Cost: O(1) or one\n"
"scan of the filter, per kind.");
PyDoc_STRVAR(to_bytes_doc, "to_bytes()\n--\n\n"
"The filter in filterkit's file format (the CLI's and Redis's). Cost: O(size).");
PyDoc_STRVAR(from_bytes_doc, "from_bytes(data, /)\n--\n\n"
"Class method: the filter saved in data (bytes-like). On Filter any kind; on a kind's\n"
"class that kind only (TypeError for another). CorruptError (a ValueError) for bad,\n"
"truncated or altered bytes, UnsupportedError for a newer format. Cost: O(size).");
PyDoc_STRVAR(save_doc, "save(path, /)\n--\n\n"
"Writes to_bytes() to the file at path (str, bytes or os.PathLike), replacing it.\n"
"OSError when the file cannot be written. Releases the GIL while writing.");
PyDoc_STRVAR(build_doc, "build(keys, /, *, capacity=None, fpr=0.01, seed=0, ...)\n--\n\n"
"Class method: a filter made from the whole set at once (the way static kinds are\n"
"made; for the others, created with capacity len(keys) when not given and filled\n"
"with add_many). keys as for add_many.");
PyDoc_STRVAR(copy_doc, "copy()\n--\n\nAn independent copy (through the file format). Cost: O(size).");

static PyMethodDef read_methods[] = {
    { "contains_many", (PyCFunction)(void (*)(void))filter_contains_many, METH_VARARGS | METH_KEYWORDS, contains_many_doc },
    { "stats", filter_stats, METH_NOARGS, stats_doc },
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
    { "add_many", filter_add_many, METH_O, add_many_doc },
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
    { "max_bytes", get_max_bytes, NULL, "the byte limit its growth stays under (LimitError past it): "
      "the max_bytes knob, else filterkit.default_max_bytes() when made or loaded; a copy keeps it", NULL },
    { NULL, NULL, NULL, NULL, NULL },
};

/* not const: PyType_Slot takes a void * */
static char filter_doc[] = PyDoc_STR(
"Filter(kind, /, *, capacity, fpr=0.01, seed=0, **knobs)\n--\n\n"
"An approximate-membership filter of the named kind (filterkit.kinds()); the\n"
"result is an instance of that kind's class (filterkit.Bloom, ...), which can\n"
"also be called directly: filterkit.Bloom(capacity=10**6, fpr=0.01).\n\n"
"capacity is the number of items to size for (growing kinds may omit it);\n"
"knobs, 0 meaning derive: bits, hashes, counter_bits, fingerprint_bits, growth,\n"
"max_load, tightening; max_bytes caps the bytes the filter may hold, growth\n"
"included (0: filterkit.default_max_bytes(), below the machine's memory; at most\n"
"64 GiB; not saved with it: a loaded filter gets the default). ValueError for a bad value (fpr not in (0, 1), NaN,\n"
"capacity 0), LimitError (a ValueError) for a filter over max_bytes, TypeError\n"
"for a wrong type, MemoryError.\n\n"
"x in f is False only when x was never added (or was removed); True may be a false\n"
"positive, at about the rate fpr once capacity items are in.");

static PyType_Slot filter_slots[] = {
    { Py_tp_new, filter_new },
    { Py_tp_dealloc, filter_dealloc },
    { Py_tp_repr, filter_repr },
    { Py_tp_hash, PyObject_HashNotImplemented },
    { Py_tp_methods, read_methods },
    { Py_tp_getset, filter_getset },
    { Py_tp_doc, filter_doc },
    { Py_sq_contains, filter_contains },
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

/* One class for kind ops, its methods chosen by its caps. */
static PyTypeObject *make_kind_class(PyObject *module, const fk_ops *ops)
{
    unsigned caps = fk_ops_caps(ops);
    char cname[64];
    class_name(ops->name, cname, sizeof cname);
    /* The spec's strings and method table live as long as the class:
     * allocated once per kind at import, never freed. */
    size_t nm = 0;
    enum { NGROUPS = 4 };
    PyMethodDef *groups[NGROUPS] = { NULL, NULL, NULL, NULL };
    if (!(caps & FK_CAP_STATIC))
        groups[0] = insert_methods;
    if (caps & FK_CAP_REMOVE)
        groups[1] = remove_methods;
    if (caps & FK_CAP_COUNT)
        groups[2] = count_methods;
    if (caps & FK_CAP_RESIZES)
        groups[3] = resize_methods;
    for (int g = 0; g < NGROUPS; g++)
        for (PyMethodDef *m = groups[g]; m && m->ml_name; m++)
            nm++;
    PyMethodDef *methods = PyMem_Calloc(nm + 1, sizeof *methods);
    char *qual = PyMem_Malloc(strlen(cname) + sizeof "filterkit.");
    size_t doc_cap = 900 + 2 * strlen(ops->name) + strlen(ops->summary ? ops->summary : "");
    char *doc = PyMem_Malloc(doc_cap);
    if (!methods || !qual || !doc) {
        PyMem_Free(methods);
        PyMem_Free(qual);
        PyMem_Free(doc);
        PyErr_NoMemory();
        return NULL;
    }
    nm = 0;
    for (int g = 0; g < NGROUPS; g++)
        for (PyMethodDef *m = groups[g]; m && m->ml_name; m++)
            methods[nm++] = *m;
    snprintf(qual, strlen(cname) + sizeof "filterkit.", "filterkit.%s", cname);
    snprintf(doc, doc_cap, "%s(*, capacity, fpr=0.01, seed=0, **knobs)\n--\n\nfilterkit kind \"%s\": %s\n"
            "%s%s%s%s%s%s%sSee help(filterkit.Filter) for the arguments.",
            cname, ops->name, ops->summary ? ops->summary : "",
            caps & FK_CAP_STATIC ? "Static: made from the whole set with build(keys).\n" : "",
            caps & FK_CAP_REMOVE ? "Removes keys (remove, discard).\n" : "",
            caps & FK_CAP_COUNT ? "Counts keys (count).\n" : "",
            caps & FK_CAP_RESIZES ? "Doubles in place without its keys (grow).\n" : "",
            caps & FK_CAP_MERGE ? "Merges (f | g, f |= g) with filters made alike.\n" : "",
            caps & FK_CAP_INTERSECT ? "Intersects (f & g, f &= g) with filters made alike: true for every "
                                      "key both hold,\nand possibly more than a filter of the common keys "
                                      "would hold. Cost: one pass.\n" : "",
            caps & FK_CAP_GROWS ? "Grows as keys arrive: capacity is only its first size.\n" : "");
    PyType_Slot slots[8];
    int ns = 0;
    slots[ns++] = (PyType_Slot){ Py_tp_methods, methods };
    slots[ns++] = (PyType_Slot){ Py_tp_doc, doc };
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
    PyTypeObject *type = (PyTypeObject *)PyType_FromModuleAndSpec(module, &spec, (PyObject *)pyfk_filter_type);
    if (!type)
        return NULL;
    PyObject *kind = PyUnicode_FromString(ops->name);
    PyObject *summary = PyUnicode_FromString(ops->summary ? ops->summary : "");
    PyObject *capset = caps_set(caps);
    int bad = !kind || !summary || !capset || PyObject_SetAttrString((PyObject *)type, "kind", kind) < 0 ||
              PyObject_SetAttrString((PyObject *)type, "summary", summary) < 0 ||
              PyObject_SetAttrString((PyObject *)type, "capabilities", capset) < 0;
    Py_XDECREF(kind);
    Py_XDECREF(summary);
    Py_XDECREF(capset);
    if (bad) {
        Py_DECREF(type);
        return NULL;
    }
    return type;
}

int pyfk_types_init(PyObject *module)
{
    pyfk_filter_type = (PyTypeObject *)PyType_FromModuleAndSpec(module, &filter_spec, NULL);
    if (!pyfk_filter_type || PyModule_AddObjectRef(module, "Filter", (PyObject *)pyfk_filter_type) < 0)
        return -1;
    PyObject *names = PyList_New(0);
    if (!names)
        return -1;
    const fk_ops *ops;
    for (size_t i = 0; (ops = fk_ops_at(i)) != NULL && nkinds < MAX_KINDS; i++) {
        PyTypeObject *type = make_kind_class(module, ops);
        if (!type) {
            Py_DECREF(names);
            return -1;
        }
        kinds[nkinds].ops = ops;
        kinds[nkinds].type = type; /* the table keeps this reference */
        nkinds++;
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
