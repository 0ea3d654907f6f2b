/* python/src/batch.c: many keys per call. A NumPy array (or any buffer) of
 * 64-bit integers goes to the library's u64 batch calls as it is, with the
 * GIL released; a sequence of keys is gathered into a key list first. */
#include "pyfk.h" /* first: Python.h sets the feature macros */
#include <string.h>

/* update() inserts an iterable in chunks of this many keys. */
#define UPDATE_CHUNK 4096

/* --------------------------------------------------------- u64 buffers */

/* When o exports a 1-D buffer of 64-bit integers: fills view (the caller
 * releases it) and returns 1; 0 when o is no such buffer (nothing held,
 * no error); -1 with an exception when it is one we refuse (big-endian,
 * non-contiguous, more dimensions, a negative signed value). */
static int u64_buffer(PyObject *o, Py_buffer *view)
{
    if (PyBytes_Check(o) || PyByteArray_Check(o) || PyUnicode_Check(o) || !PyObject_CheckBuffer(o))
        return 0;
    if (PyObject_GetBuffer(o, view, PyBUF_FORMAT | PyBUF_STRIDES) < 0) {
        PyErr_Clear();
        return 0;
    }
    const char *fmt = view->format ? view->format : "B";
    char order = *fmt;
    if (order == '@' || order == '=' || order == '<' || order == '>' || order == '!')
        fmt++;
    bool integer = fmt[1] == 0 && (fmt[0] == 'Q' || fmt[0] == 'L' || fmt[0] == 'q' || fmt[0] == 'l' ||
                                   fmt[0] == 'N' || fmt[0] == 'n');
    if (!integer || view->itemsize != 8) {
        PyBuffer_Release(view);
        return 0; /* not integers of 8 bytes: maybe a sequence of keys */
    }
    /* the values must be in the host's order: the library reads them as
     * integers ('<' is that order on a little-endian host, '>' and '!' on a
     * big-endian one) */
    bool foreign = PY_LITTLE_ENDIAN ? (order == '>' || order == '!') : order == '<';
    if (foreign) {
        PyBuffer_Release(view);
        PyErr_SetString(PyExc_ValueError, "integer array not in this machine's byte order: convert it "
                                          "with .astype('=u8') first");
        return -1;
    }
    if (view->ndim != 1) {
        PyBuffer_Release(view);
        PyErr_Format(PyExc_ValueError, "keys must be a 1-D array of 64-bit integers, not %d-D (use "
                     ".ravel())", view->ndim);
        return -1;
    }
    if (view->strides && view->strides[0] != 8) {
        PyBuffer_Release(view);
        PyErr_SetString(PyExc_ValueError, "keys must be a contiguous array (use numpy.ascontiguousarray)");
        return -1;
    }
    if (fmt[0] == 'q' || fmt[0] == 'l' || fmt[0] == 'n') {
        /* int64 is numpy's default: fine without negative values */
        const int64_t *v = view->buf;
        Py_ssize_t n = view->len / 8;
        for (Py_ssize_t i = 0; i < n; i++)
            if (v[i] < 0) {
                PyBuffer_Release(view);
                PyErr_Format(PyExc_OverflowError, "keys[%zd] is negative: int keys are in 0 .. "
                             "2**64-1 (use .view(numpy.uint64) for their two's complement bits)", i);
                return -1;
            }
    }
    return 1;
}

/* ----------------------------------------------------- gathered keys
 *
 * Keys from a sequence: while every key is an int, only their values are
 * kept (the u64 calls); the first other key switches to pointer + length
 * for all (ints then point at their 8 little-endian bytes). Objects whose
 * bytes are pointed at are held until gather_free. */
typedef struct {
    size_t         n, cap;
    bool           all_int;
    uint64_t      *u64;
    const void   **ptrs;
    size_t        *lens;
    unsigned char *le;
    PyObject     **refs;
} gather;

static int gather_init(gather *g, size_t cap)
{
    memset(g, 0, sizeof *g);
    g->cap = cap;
    g->all_int = true;
    g->u64 = PyMem_Malloc((cap ? cap : 1) * sizeof *g->u64);
    if (!g->u64) {
        PyErr_NoMemory();
        return -1;
    }
    return 0;
}

static void gather_clear(gather *g)
{
    if (g->refs)
        for (size_t i = 0; i < g->n; i++)
            Py_XDECREF(g->refs[i]);
    g->n = 0;
    g->all_int = true;
}

static void gather_free(gather *g)
{
    gather_clear(g);
    PyMem_Free(g->u64);
    PyMem_Free(g->ptrs);
    PyMem_Free(g->lens);
    PyMem_Free(g->le);
    PyMem_Free(g->refs);
    memset(g, 0, sizeof *g);
}

/* The first non-int key: make room for pointers and point the ints so far
 * at their bytes. */
static int gather_to_bytes(gather *g)
{
    if (!g->ptrs) {
        size_t cap = g->cap ? g->cap : 1;
        g->ptrs = PyMem_Malloc(cap * sizeof *g->ptrs);
        g->lens = PyMem_Malloc(cap * sizeof *g->lens);
        g->le = PyMem_Malloc(cap * 8);
        g->refs = PyMem_Calloc(cap, sizeof *g->refs);
        if (!g->ptrs || !g->lens || !g->le || !g->refs) {
            PyErr_NoMemory();
            return -1;
        }
    }
    for (size_t i = 0; i < g->n; i++) {
        pyfk_le64(g->u64[i], g->le + 8 * i);
        g->ptrs[i] = g->le + 8 * i;
        g->lens[i] = 8;
        g->refs[i] = NULL;
    }
    g->all_int = false;
    return 0;
}

static int gather_push(gather *g, PyObject *item)
{
    size_t i = g->n;
    if (PyLong_CheckExact(item) || (!PyBytes_Check(item) && !PyUnicode_Check(item) && PyIndex_Check(item))) {
        uint64_t v;
        if (PyLong_CheckExact(item)) {
            if (pyfk_u64_of(item, &v))
                return -1;
        } else {
            PyObject *ix = PyNumber_Index(item);
            int rc = ix ? pyfk_u64_of(ix, &v) : -1;
            Py_XDECREF(ix);
            if (rc)
                return -1;
        }
        g->u64[i] = v;
        if (!g->all_int) {
            pyfk_le64(v, g->le + 8 * i);
            g->ptrs[i] = g->le + 8 * i;
            g->lens[i] = 8;
            g->refs[i] = NULL;
        }
        g->n++;
        return 0;
    }
    if (g->all_int && gather_to_bytes(g))
        return -1;
    PyObject *held;
    const char *p;
    Py_ssize_t len;
    if (PyBytes_Check(item)) {
        held = Py_NewRef(item);
        p = PyBytes_AS_STRING(item);
        len = PyBytes_GET_SIZE(item);
    } else if (PyUnicode_Check(item)) {
        p = PyUnicode_AsUTF8AndSize(item, &len); /* owned by item */
        if (!p)
            return -1;
        held = Py_NewRef(item);
    } else if (PyByteArray_Check(item) || PyMemoryView_Check(item)) {
        held = PyBytes_FromObject(item); /* a snapshot of its bytes */
        if (!held)
            return -1;
        p = PyBytes_AS_STRING(held);
        len = PyBytes_GET_SIZE(held);
    } else {
        PyErr_Format(PyExc_TypeError, "a filterkit key is bytes, str or int (0 .. 2**64-1), not %.200s",
                     Py_TYPE(item)->tp_name);
        return -1;
    }
    g->ptrs[i] = p;
    g->lens[i] = (size_t)len;
    g->refs[i] = held;
    g->n++;
    return 0;
}

/* Gathers every key of the iterable o (a new tuple is taken of it first,
 * so nothing the keys point at can change while the GIL is released). */
static int gather_all(gather *g, PyObject *o)
{
    if (PyUnicode_Check(o) || PyBytes_Check(o) || PyByteArray_Check(o)) {
        PyErr_SetString(PyExc_TypeError, "expected a collection of keys (a list, a NumPy uint64 array, "
                                         "...), not one str or bytes; for one key use add() / in");
        return -1;
    }
    PyObject *t = PySequence_Tuple(o);
    if (!t)
        return -1;
    Py_ssize_t n = PyTuple_GET_SIZE(t);
    if (gather_init(g, (size_t)n)) {
        Py_DECREF(t);
        return -1;
    }
    for (Py_ssize_t i = 0; i < n; i++)
        if (gather_push(g, PyTuple_GET_ITEM(t, i))) {
            Py_DECREF(t);
            gather_free(g);
            return -1;
        }
    Py_DECREF(t);
    return 0;
}

/* The state of the module that made self's class (its exceptions). */
static pyfk_state *state_of(pyfk_filter *self)
{
    return pyfk_state_of_type(Py_TYPE(self));
}

/* FilterFullError with the CLI's hints for self (its capacity read under
 * the lock) and the keys a batch put in. */
static PyObject *raise_full(pyfk_filter *self, size_t done, const char *what)
{
    fk_stats st = { 0 };
    int in = pyfk_enter(self, false);
    if (in < 0)
        return NULL;
    fk_filter_stats(self->filter, &st);
    pyfk_leave(self, in);
    return pyfk_raise_full(state_of(self), fk_filter_ops(self->filter), st.capacity, true, done, what);
}

/* ------------------------------------------------------------ add_many */

/* Inserts n keys: u64 when u64 is not NULL, else g's byte keys. A batch of
 * PYFK_NOGIL_MIN keys or more holds self for writing and drops the GIL; a
 * smaller one keeps the GIL. */
static fk_status insert_batch(pyfk_filter *self, size_t n, const uint64_t *u64, const gather *g,
                              size_t *done, bool *interrupted)
{
    fk_status s;
    *interrupted = false;
    if (n < PYFK_NOGIL_MIN) {
        int in = pyfk_enter(self, true);
        if (in < 0) {
            *interrupted = true;
            return FK_OK;
        }
        s = u64 ? fk_filter_insert_many_u64(self->filter, n, u64, done)
                : fk_filter_insert_many(self->filter, n, g->ptrs, g->lens, done);
        pyfk_leave(self, in);
        return s;
    }
    if (pyfk_hold(self, NULL)) {
        *interrupted = true;
        return FK_OK;
    }
    Py_BEGIN_ALLOW_THREADS
    s = u64 ? fk_filter_insert_many_u64(self->filter, n, u64, done)
            : fk_filter_insert_many(self->filter, n, g->ptrs, g->lens, done);
    Py_END_ALLOW_THREADS
    pyfk_unhold(self, NULL);
    return s;
}

/* The same through the kind's concurrent inserts (fk_filter_insert_many
 * _concurrent): self held as a reader, so lookups and other concurrent
 * batches go on beside it, and counted in concurrent_adds, so the readers
 * that need the writers done (stats, saving) wait. FK_EUNSUPPORTED for a
 * kind without concurrent inserts. */
static fk_status insert_batch_concurrent(pyfk_filter *self, size_t n, const uint64_t *u64,
                                         const gather *g, size_t *done, bool *interrupted)
{
    fk_status s;
    *interrupted = false;
    if (!FK_OPS_HAS(fk_filter_ops(self->filter), FK_OPS_V4, insert_concurrent))
        return FK_EUNSUPPORTED;
    if (pyfk_hold(NULL, self)) {
        *interrupted = true;
        return FK_OK;
    }
    self->concurrent_adds++;
    if (n < PYFK_NOGIL_MIN) {
        s = u64 ? fk_filter_insert_many_u64_concurrent(self->filter, n, u64, done)
                : fk_filter_insert_many_concurrent(self->filter, n, g->ptrs, g->lens, done);
    } else {
        Py_BEGIN_ALLOW_THREADS
        s = u64 ? fk_filter_insert_many_u64_concurrent(self->filter, n, u64, done)
                : fk_filter_insert_many_concurrent(self->filter, n, g->ptrs, g->lens, done);
        Py_END_ALLOW_THREADS
    }
    self->concurrent_adds--;
    pyfk_unhold(NULL, self);
    return s;
}

PyObject *pyfk_add_many(pyfk_filter *self, PyObject *keys)
{
    return pyfk_add_many_mode(self, keys, false);
}

PyObject *pyfk_add_many_mode(pyfk_filter *self, PyObject *keys, bool concurrent)
{
    fk_status (*insert)(pyfk_filter *, size_t, const uint64_t *, const gather *, size_t *,
                        bool *) = concurrent ? insert_batch_concurrent : insert_batch;
    Py_buffer view;
    int b = u64_buffer(keys, &view);
    if (b < 0)
        return NULL;
    size_t done = 0;
    fk_status s;
    bool interrupted;
    if (b) {
        s = insert(self, (size_t)(view.len / 8), view.buf, NULL, &done, &interrupted);
        PyBuffer_Release(&view);
    } else {
        gather g;
        if (gather_all(&g, keys))
            return NULL;
        s = insert(self, g.n, g.all_int ? g.u64 : NULL, &g, &done, &interrupted);
        gather_free(&g);
    }
    if (interrupted)
        return NULL;
    if (s == FK_EFULL)
        return raise_full(self, done, "add_many");
    if (s != FK_OK)
        return pyfk_raise_done(state_of(self), s, done, "add_many");
    Py_RETURN_NONE;
}

/* -------------------------------------------------------- contains_many */
/* A new NumPy bool array of n elements (numpy imported on first use), its
 * data in *data; NULL with the exception set. */
static PyObject *new_bool_array(pyfk_state *st, Py_ssize_t n, bool **data, Py_buffer *view)
{
    if (!st->numpy_empty) {
        PyObject *np = PyImport_ImportModule("numpy");
        if (!np)
            return NULL;
        st->numpy_empty = PyObject_GetAttrString(np, "empty");
        st->numpy_bool = PyObject_GetAttrString(np, "bool_");
        Py_DECREF(np);
        if (!st->numpy_empty || !st->numpy_bool) {
            Py_CLEAR(st->numpy_empty);
            Py_CLEAR(st->numpy_bool);
            return NULL;
        }
    }
    PyObject *arr = PyObject_CallFunction(st->numpy_empty, "nO", n, st->numpy_bool);
    if (!arr)
        return NULL;
    if (PyObject_GetBuffer(arr, view, PyBUF_WRITABLE | PyBUF_C_CONTIGUOUS) < 0) {
        Py_DECREF(arr);
        return NULL;
    }
    *data = view->buf;
    return arr;
}

/* out=: a writable contiguous buffer of n one-byte booleans. */
static PyObject *out_buffer(PyObject *out, Py_ssize_t n, bool **data, Py_buffer *view)
{
    if (PyObject_GetBuffer(out, view, PyBUF_WRITABLE | PyBUF_C_CONTIGUOUS | PyBUF_FORMAT) < 0)
        return NULL;
    const char *fmt = view->format ? view->format : "B";
    if (*fmt == '@' || *fmt == '=' || *fmt == '<' || *fmt == '>' || *fmt == '!')
        fmt++;
    if (view->itemsize != 1 || !(strcmp(fmt, "?") == 0 || strcmp(fmt, "B") == 0)) {
        PyBuffer_Release(view);
        PyErr_SetString(PyExc_TypeError, "out must be a writable bool (or uint8) array");
        return NULL;
    }
    if (view->len != n) {
        PyBuffer_Release(view);
        PyErr_Format(PyExc_ValueError, "out has %zd elements for %zd keys", view->len, n);
        return NULL;
    }
    *data = view->buf;
    return Py_NewRef(out);
}

/* u64 keys when u64 is not NULL, else g's byte keys. */
static void lookup_many(const fk_filter *f, size_t n, const uint64_t *u64, const gather *g, bool *res)
{
    if (u64)
        fk_filter_contains_many_u64(f, n, u64, res);
    else
        fk_filter_contains_many(f, n, g->ptrs, g->lens, res);
}

PyObject *pyfk_contains_many(pyfk_filter *self, PyObject *args, PyObject *kw)
{
    static char *names[] = { "keys", "out", NULL };
    PyObject *keys, *out = Py_None;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "O|O:contains_many", names, &keys, &out))
        return NULL;
    Py_buffer view, outview;
    gather g;
    memset(&g, 0, sizeof g);
    int b = u64_buffer(keys, &view);
    if (b < 0)
        return NULL;
    if (!b && gather_all(&g, keys))
        return NULL;
    size_t n = b ? (size_t)(view.len / 8) : g.n;
    bool *res;
    pyfk_state *st = state_of(self);
    PyObject *arr = !st ? NULL
                  : out == Py_None ? new_bool_array(st, (Py_ssize_t)n, &res, &outview)
                                   : out_buffer(out, (Py_ssize_t)n, &res, &outview);
    if (arr) {
        const void *u64 = b ? view.buf : g.all_int ? g.u64 : NULL;
        int in = 0;
        if (n < PYFK_NOGIL_MIN) {
            if ((in = pyfk_enter(self, false)) >= 0) {
                lookup_many(self->filter, n, u64, &g, res);
                pyfk_leave(self, in);
            }
        } else if ((in = pyfk_hold(NULL, self)) == 0) {
            /* readers together: other batches and lookups go on */
            Py_BEGIN_ALLOW_THREADS
            lookup_many(self->filter, n, u64, &g, res);
            Py_END_ALLOW_THREADS
            pyfk_unhold(NULL, self);
        }
        PyBuffer_Release(&outview);
        if (in < 0)
            Py_CLEAR(arr);
    }
    if (b)
        PyBuffer_Release(&view);
    else
        gather_free(&g);
    return arr;
}

/* -------------------------------------------------------------- update */
/* The raised exception, taken (PyErr_GetRaisedException from 3.12 on). */
static PyObject *take_exception(void)
{
#if PY_VERSION_HEX >= 0x030C0000
    return PyErr_GetRaisedException();
#else
    PyObject *type, *value, *tb;
    PyErr_Fetch(&type, &value, &tb);
    PyErr_NormalizeException(&type, &value, &tb);
    if (value && tb)
        PyException_SetTraceback(value, tb);
    Py_XDECREF(type);
    Py_XDECREF(tb);
    return value;
#endif
}

/* Raises exc again (stolen). */
static void restore_exception(PyObject *exc)
{
#if PY_VERSION_HEX >= 0x030C0000
    PyErr_SetRaisedException(exc);
#else
    if (exc)
        PyErr_Restore(Py_NewRef((PyObject *)Py_TYPE(exc)), exc, PyException_GetTraceback(exc));
#endif
}

/* Inserts g's keys keeping the GIL (an update chunk: the iterator runs
 * Python code between chunks): 0 with the status in *s, or -1 when the
 * wait for the lock was interrupted. */
static int insert_chunk(pyfk_filter *self, const gather *g, size_t *done, fk_status *s)
{
    int in = pyfk_enter(self, true);
    if (in < 0)
        return -1;
    *s = g->all_int ? fk_filter_insert_many_u64(self->filter, g->n, g->u64, done)
                    : fk_filter_insert_many(self->filter, g->n, g->ptrs, g->lens, done);
    pyfk_leave(self, in);
    return 0;
}

PyObject *pyfk_update(pyfk_filter *self, PyObject *iterable)
{
    Py_buffer view;
    int b = u64_buffer(iterable, &view);
    if (b < 0)
        return NULL;
    if (b) {
        PyBuffer_Release(&view);
        return pyfk_add_many(self, iterable);
    }
    if (PyUnicode_Check(iterable) || PyBytes_Check(iterable) || PyByteArray_Check(iterable)) {
        PyErr_SetString(PyExc_TypeError, "update takes an iterable of keys, not one str or bytes; "
                                         "for one key use add()");
        return NULL;
    }
    PyObject *it = PyObject_GetIter(iterable);
    if (!it)
        return NULL;
    gather g;
    if (gather_init(&g, UPDATE_CHUNK)) {
        Py_DECREF(it);
        return NULL;
    }
    size_t total = 0;
    PyObject *item;
    fk_status s = FK_OK;
    bool failed = false;
    for (;;) {
        item = PyIter_Next(it);
        bool flush = !item || g.n == g.cap;
        if (flush && g.n) {
            /* the iterator may run Python code: wait only around the insert */
            size_t done = 0;
            if (insert_chunk(self, &g, &done, &s)) {
                Py_XDECREF(item);
                failed = true;
                break;
            }
            total += done;
            gather_clear(&g);
            if (s != FK_OK) {
                Py_XDECREF(item);
                break;
            }
        }
        if (!item)
            break;
        int rc = gather_push(&g, item);
        Py_DECREF(item);
        if (rc) {
            /* keys before the bad one go in, as set.update would have them */
            PyObject *exc = take_exception();
            size_t done = 0;
            if (g.n && insert_chunk(self, &g, &done, &s))
                PyErr_Clear(); /* the bad key's error wins */
            gather_clear(&g);
            restore_exception(exc);
            failed = true;
            break;
        }
    }
    Py_DECREF(it);
    gather_free(&g);
    if (failed || PyErr_Occurred())
        return NULL;
    if (s == FK_EFULL)
        return raise_full(self, total, "update");
    if (s != FK_OK)
        return pyfk_raise_done(state_of(self), s, total, "update");
    Py_RETURN_NONE;
}

/* --------------------------------------------------------------- build */
PyObject *pyfk_build_keys(const pyfk_state *st, const fk_ops *ops, const fk_params *p, PyObject *keys,
                          fk_filter **out)
{
    Py_buffer view;
    gather g;
    memset(&g, 0, sizeof g);
    int b = u64_buffer(keys, &view);
    if (b < 0)
        return NULL;
    if (!b && gather_all(&g, keys))
        return NULL;
    fk_status s;
    fk_params q = *p;
    Py_BEGIN_ALLOW_THREADS
    if (b)
        s = fk_filter_build_u64(ops, &q, (size_t)(view.len / 8), view.buf, out);
    else if (g.all_int)
        s = fk_filter_build_u64(ops, &q, g.n, g.u64, out);
    else
        s = fk_filter_build(ops, &q, g.n, g.ptrs, g.lens, out);
    Py_END_ALLOW_THREADS
    if (b)
        PyBuffer_Release(&view);
    else
        gather_free(&g);
    if (s != FK_OK)
        return pyfk_raise(st, s, "build");
    Py_RETURN_NONE;
}
