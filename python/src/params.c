/* python/src/params.c: the keyword knobs of Filter(...), build(...) and
 * _sizing(...) -> fk_params (the byte limit a filter gets by default,
 * pyfk_default_max_bytes, is in pick.c: the bench's own limit). */
#include "pyfk.h" /* first: Python.h sets the feature macros */
#include <stdio.h>
#include <string.h>

/* ---------------------------------------------------------------- knobs */
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
