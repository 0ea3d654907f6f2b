/* python/src/keys.c: Python objects -> key bytes, the same bits as the C
 * calls, the CLI (a line's bytes) and Redis. */
#include "pyfk.h" /* first: Python.h sets the feature macros */
#include <limits.h>

void pyfk_le64(uint64_t v, unsigned char out[8])
{
    for (int i = 0; i < 8; i++)
        out[i] = (unsigned char)(v >> (8 * i));
}

int pyfk_u64_of(PyObject *o, uint64_t *out)
{
    /* PyLong_AsUnsignedLong loops over the int's 30-bit digits, where
     * CPython 3.11's PyLong_AsUnsignedLongLong goes byte by byte through
     * _PyLong_AsByteArray for anything over one digit: use it where
     * unsigned long holds 64 bits. */
#if ULONG_MAX == UINT64_MAX
    uint64_t v = PyLong_AsUnsignedLong(o);
#else
    uint64_t v = PyLong_AsUnsignedLongLong(o);
#endif
    if (v == UINT64_MAX && PyErr_Occurred()) {
        if (!PyErr_ExceptionMatches(PyExc_OverflowError))
            return -1;
        PyErr_Clear();
        int negative = PyObject_RichCompareBool(o, Py_False, Py_LT);
        if (negative < 0)
            return -1;
        PyErr_SetString(PyExc_OverflowError,
                        negative ? "int key is negative: int keys are in 0 .. 2**64-1 (their 8 "
                                   "little-endian bytes); use bytes for other values"
                                 : "int key is over 2**64-1: int keys are in 0 .. 2**64-1 (their 8 "
                                   "little-endian bytes); use bytes for larger values");
        return -1;
    }
    *out = v;
    return 0;
}

int pyfk_key_get(PyObject *o, pyfk_key *k)
{
    k->has_view = false;
    k->is_int = false;
    if (PyBytes_Check(o)) {
        k->ptr = PyBytes_AS_STRING(o);
        k->len = (size_t)PyBytes_GET_SIZE(o);
        return 0;
    }
    if (PyUnicode_Check(o)) {
        Py_ssize_t n;
        const char *s = PyUnicode_AsUTF8AndSize(o, &n); /* cached in o */
        if (!s)
            return -1; /* UnicodeEncodeError: a lone surrogate */
        k->ptr = s;
        k->len = (size_t)n;
        return 0;
    }
    if (PyLong_Check(o) || PyIndex_Check(o)) {
        /* ints, and integer scalars such as numpy.uint64 (by value, never
         * by their in-memory bytes) */
        PyObject *i = PyNumber_Index(o);
        if (!i)
            return -1;
        int rc = pyfk_u64_of(i, &k->u64);
        Py_DECREF(i);
        if (rc)
            return -1;
        k->is_int = true;
        pyfk_le64(k->u64, k->le);
        k->ptr = k->le;
        k->len = 8;
        return 0;
    }
    if (PyByteArray_Check(o) || PyMemoryView_Check(o)) {
        /* bytes-like: its bytes (other buffer exporters, e.g. a NumPy
         * float, are refused rather than read as raw memory) */
        if (PyObject_GetBuffer(o, &k->view, PyBUF_C_CONTIGUOUS) < 0)
            return -1;
        k->has_view = true;
        k->ptr = k->view.buf;
        k->len = (size_t)k->view.len;
        return 0;
    }
    PyErr_Format(PyExc_TypeError,
                 "a filterkit key is bytes, str or int (0 .. 2**64-1), not %.200s (use bytes(x) "
                 "for its raw bytes)",
                 Py_TYPE(o)->tp_name);
    return -1;
}

void pyfk_key_release(pyfk_key *k)
{
    if (k->has_view) {
        PyBuffer_Release(&k->view);
        k->has_view = false;
    }
}
