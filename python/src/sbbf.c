/* python/src/sbbf.c: Parquet's split-block Bloom filter from Python: a
 * blocked filter with Parquet's hashing scheme made by size, from a
 * Parquet file's bitset, and its bitset handed back (blocked/blocked.h,
 * "Parquet's split-block filter"). filterkit.parquet_filter, from_sbbf,
 * to_sbbf and parquet_bytes (python/filterkit/__init__.py) call these. */
#include "pyfk.h" /* first: Python.h sets the feature macros */
#include "../../blocked/blocked.h"

/* _sbbf_new(nbytes): an empty Parquet-scheme Blocked of nbytes bytes. */
PyObject *pyfk_sbbf_new(PyObject *module, PyObject *arg)
{
    const pyfk_state *st = PyModule_GetState(module);
    unsigned long long bytes = PyLong_AsUnsignedLongLong(arg);
    if (bytes == (unsigned long long)-1 && PyErr_Occurred())
        return NULL;
    fk_filter *f = NULL;
    fk_status s = fk_blocked_new_parquet(bytes, &f);
    if (s == FK_EINVAL)
        return PyErr_Format(PyExc_ValueError, "parquet_filter: nbytes must be a power of two from %u to "
                            "%llu, got %llu", FK_BLOCKED_PARQUET_MIN_BYTES,
                            (unsigned long long)FK_BLOCKED_PARQUET_MAX_BYTES, bytes);
    if (s != FK_OK)
        return pyfk_raise(st, s, "parquet_filter");
    return pyfk_wrap(st, f, FK_BLOCKED_PARQUET_FPP, 0);
}

/* _sbbf_from(data): a Parquet-scheme Blocked holding a copy of the bitset
 * in a bytes-like object. */
PyObject *pyfk_sbbf_from(PyObject *module, PyObject *data)
{
    const pyfk_state *st = PyModule_GetState(module);
    if (PyUnicode_Check(data))
        return PyErr_Format(PyExc_TypeError, "from_sbbf needs the bitset's bytes, not str");
    Py_buffer view;
    if (PyObject_GetBuffer(data, &view, PyBUF_SIMPLE) < 0)
        return NULL;
    fk_filter *f = NULL;
    fk_status s;
    Py_BEGIN_ALLOW_THREADS
    s = fk_blocked_from_sbbf(view.buf, (size_t)view.len, &f);
    Py_END_ALLOW_THREADS
    PyBuffer_Release(&view);
    if (s == FK_EINVAL)
        return PyErr_Format(PyExc_ValueError, "from_sbbf: a Parquet bitset is a power of two from %u to "
                            "%llu bytes, got %zd", FK_BLOCKED_PARQUET_MIN_BYTES,
                            (unsigned long long)FK_BLOCKED_PARQUET_MAX_BYTES, view.len);
    if (s != FK_OK)
        return pyfk_raise(st, s, "from_sbbf");
    return pyfk_wrap(st, f, FK_BLOCKED_PARQUET_FPP, 0);
}

/* _sbbf_bytes(filter): the bitset of a Parquet-scheme Blocked as bytes
 * (a copy, taken with its writers done). */
PyObject *pyfk_sbbf_bytes(PyObject *module, PyObject *o)
{
    const pyfk_state *st = PyModule_GetState(module);
    if (!PyObject_TypeCheck(o, st->filter_type))
        return PyErr_Format(PyExc_TypeError, "to_sbbf needs a filterkit filter, not %.200s",
                            Py_TYPE(o)->tp_name);
    pyfk_filter *self = (pyfk_filter *)o;
    int in = pyfk_enter_settled(self);
    if (in < 0)
        return NULL;
    const void *bits = NULL;
    size_t n = 0;
    fk_status s = fk_blocked_sbbf(self->filter, &bits, &n);
    PyObject *b = NULL;
    if (s == FK_OK)
        b = PyBytes_FromStringAndSize(bits, (Py_ssize_t)n);
    pyfk_leave(self, in);
    if (s == FK_EINVAL)
        return PyErr_Format(PyExc_ValueError, "to_sbbf: a %s filter, not a blocked filter with Parquet's "
                            "hashing scheme (filterkit.parquet_filter or from_sbbf make one)",
                            fk_filter_ops(self->filter)->name);
    if (s != FK_OK)
        return pyfk_raise(st, s, "to_sbbf");
    return b;
}

/* parquet_bytes(ndv, fpp): Parquet writers' bitset size. */
PyObject *pyfk_parquet_bytes(PyObject *module, PyObject *args)
{
    (void)module;
    unsigned long long ndv;
    double fpp;
    if (!PyArg_ParseTuple(args, "Kd:parquet_bytes", &ndv, &fpp))
        return NULL;
    uint64_t bytes = fk_blocked_parquet_bytes(ndv, fpp);
    if (!bytes)
        return PyErr_Format(PyExc_ValueError, "parquet_bytes: fpp must be in (0, 1), got %R",
                            PyTuple_GET_ITEM(args, 1));
    return PyLong_FromUnsignedLongLong(bytes);
}
