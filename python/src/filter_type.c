/* python/src/filter_type.c: filterkit.Filter and one class per registered
 * kind, made at import from the registry. A class gets the method groups
 * its kind's fk_ops_caps allow (add/update where it inserts, remove/discard
 * where it removes, count where it counts, | where it merges): nothing
 * here names a kind. */
#include "pyfk.h" /* first: Python.h sets the feature macros */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include "scalable/scalable.h" /* fk_scalable_set_max_bytes: a loaded chain's limit */

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
    /* a chain checks its limit before each new link; other kinds answer
     * FK_EINVAL (not a chain): grow checks theirs here (filter_grow) */
    if (self->filter)
        (void)fk_scalable_set_max_bytes(self->filter, self->max_bytes);
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
 * type itself when it is a subclass of a kind's class), and its ops. */
static const fk_ops *resolve_kind(const pyfk_state *st, PyTypeObject *type, PyObject *args,
                                  PyTypeObject **make)
{
    const fk_ops *ops = pyfk_ops_of_type(st, type);
    Py_ssize_t nargs = PyTuple_GET_SIZE(args);
    *make = type;
    if (!ops) {
        if (nargs != 1) {
            PyErr_SetString(PyExc_TypeError, "Filter(kind, capacity=..., fpr=..., seed=...): give the "
                                             "kind's name (filterkit.kinds() lists them)");
            return NULL;
        }
        ops = kind_argument(PyTuple_GET_ITEM(args, 0));
        if (ops && !(*make = pyfk_type_of_ops(st, ops)))
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
    pyfk_state *st = pyfk_state_of_type(type);
    if (!st)
        return NULL;
    PyTypeObject *make;
    const fk_ops *ops = resolve_kind(st, type, args, &make);
    if (!ops)
        return NULL;
    unsigned caps = fk_ops_caps(ops);
    if (caps & FK_CAP_STATIC) {
        PyErr_Format(st->UnsupportedError, "%s filters are built from the whole set at once: use "
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
        return pyfk_raise(st, s, what);
    }
    pyfk_filter *self = alloc_for(make, f, p.fpr, p.seed);
    if (self)
        set_max_bytes(self, p.max_bytes);
    return (PyObject *)self;
}

static void filter_dealloc(PyObject *o)
{
    pyfk_filter *self = (pyfk_filter *)o;
    PyTypeObject *type = Py_TYPE(o);
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
    int in = pyfk_enter(self, false); /* stats needs the writers done */
    if (in < 0)
        return -1;
    fk_filter_stats(self->filter, st);
    pyfk_leave(self, in);
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
        int in = pyfk_enter(self, false); /* saving needs the writers done */
        if (in < 0)
            break;
        fk_status s = fk_filter_serialized_size(self->filter, &n);
        pyfk_leave(self, in);
        if (s != FK_OK)
            return pyfk_raise(state_of(o), s, "to_bytes");
        if (n > (uint64_t)PY_SSIZE_T_MAX)
            return PyErr_NoMemory();
        b = PyBytes_FromStringAndSize(NULL, (Py_ssize_t)n);
        if (!b || (in = pyfk_enter(self, false)) < 0)
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
        return pyfk_raise(st, s, what);
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

static PyObject *filter_save(PyObject *o, PyObject *path_arg)
{
    pyfk_filter *self = (pyfk_filter *)o;
    PyObject *path = NULL;
    if (!PyUnicode_FSConverter(path_arg, &path))
        return NULL;
    if (pyfk_hold(NULL, self)) { /* saving reads: lookups may go on */
        Py_DECREF(path);
        return NULL;
    }
    /* a kind that cannot save says so before the file is truncated */
    uint64_t n;
    fk_status s = fk_filter_serialized_size(self->filter, &n);
    if (s != FK_OK) {
        pyfk_unhold(NULL, self);
        Py_DECREF(path);
        return pyfk_raise(state_of(o), s, "save");
    }
    FILE *fp;
    int err = 0;
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
    pyfk_unhold(NULL, self);
    PyObject *r = NULL;
    if (!fp || s == FK_EIO) {
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
        return pyfk_raise(st, s, buf);
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
    if (r) /* and its byte limit, a runtime setting the bytes do not carry */
        set_max_bytes((pyfk_filter *)r, ((pyfk_filter *)o)->max_bytes);
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
PyDoc_STRVAR(add_many_doc, "add_many($self, keys, /)\n--\n\n"
"Adds a batch of keys: a NumPy array or buffer of 64-bit integers (uint64, or int64\n"
"without negatives), or a sequence of keys. Raises FilterFullError (its .done says\n"
"how many keys went in) when a bounded kind runs out of room. Releases the GIL for\n"
"large arrays; other threads' writers on this filter wait.\n"
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
"expected_fpr (theory at the current fill), target_fpr, seed. Cost: O(1) or one\n"
"scan of the filter, per kind.");
PyDoc_STRVAR(to_bytes_doc, "to_bytes($self)\n--\n\n"
"The filter in filterkit's file format (the CLI's and Redis's). Cost: O(size).");
PyDoc_STRVAR(from_bytes_doc, "from_bytes($type, data, /)\n--\n\n"
"Class method: the filter saved in data (bytes-like). On Filter any kind; on a kind's\n"
"class that kind only (TypeError for another). CorruptError (a ValueError) for bad,\n"
"truncated or altered bytes, UnsupportedError for a newer format. Cost: O(size).");
PyDoc_STRVAR(save_doc, "save($self, path, /)\n--\n\n"
"Writes to_bytes() to the file at path (str, bytes or os.PathLike), replacing it.\n"
"OSError when the file cannot be written. Releases the GIL while writing.");
PyDoc_STRVAR(build_doc, "build($type, keys, /, *, capacity=None, fpr=0.01, seed=0, **knobs)\n--\n\n"
"Class method: a filter made from the whole set at once (the way static kinds are\n"
"made; for the others, created with capacity len(keys) when not given and filled\n"
"with add_many). keys as for add_many.");
PyDoc_STRVAR(copy_doc, "copy($self)\n--\n\nAn independent copy (through the file format). Cost: O(size).");

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

/* One class for kind ops, its methods chosen by its caps. */
static PyTypeObject *make_kind_class(PyObject *module, const pyfk_state *st, const fk_ops *ops)
{
    unsigned caps = fk_ops_caps(ops);
    char cname[64], qual[80];
    class_name(ops->name, cname, sizeof cname);
    snprintf(qual, sizeof qual, "filterkit.%s", cname);
    /* The spec's name and doc are copied into the class. */
    size_t doc_cap = 900 + 2 * strlen(ops->name) + strlen(ops->summary ? ops->summary : "");
    char *doc = PyMem_Malloc(doc_cap);
    if (!doc) {
        PyErr_NoMemory();
        return NULL;
    }
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
              ((caps & FK_CAP_RESIZES) && add_methods(type, resize_methods));
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
