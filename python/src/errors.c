/* python/src/errors.c: filterkit's exceptions (one set per import, in the
 * module's state) and the map from the library's fk_status to them. */
#include "pyfk.h" /* first: Python.h sets the feature macros */
#include <stdio.h>

static int add_exception(PyObject *module, PyObject **slot, const char *name, PyObject *bases,
                         const char *doc)
{
    char full[64];
    snprintf(full, sizeof full, "filterkit.%s", name);
    *slot = PyErr_NewExceptionWithDoc(full, doc, bases, NULL);
    Py_XDECREF(bases);
    return *slot ? PyModule_AddObjectRef(module, name, *slot) : -1;
}

int pyfk_errors_init(PyObject *module, pyfk_state *st)
{
    if (add_exception(module, &st->Error, "Error", NULL, "Base class of filterkit's own exceptions."))
        return -1;
    if (add_exception(module, &st->FilterFullError, "FilterFullError", Py_BuildValue("(O)", st->Error),
                      "A bounded kind (cuckoo) has no room for the key (FK_EFULL): nothing was lost, "
                      "the filter answers as before. From a batch, .done says how many keys went in."))
        return -1;
    if (add_exception(module, &st->CorruptError, "CorruptError",
                      Py_BuildValue("(OO)", st->Error, PyExc_ValueError),
                      "The bytes or file are not a filter saved by filterkit, or were truncated or "
                      "altered (FK_ECORRUPT). A ValueError."))
        return -1;
    if (add_exception(module, &st->UnsupportedError, "UnsupportedError",
                      Py_BuildValue("(OO)", st->Error, PyExc_ValueError),
                      "The kind cannot do this (FK_EUNSUPPORTED): e.g. insert into a static kind, "
                      "or a file written by a newer filterkit. A ValueError."))
        return -1;
    if (add_exception(module, &st->LimitError, "LimitError",
                      Py_BuildValue("(OO)", st->FilterFullError, PyExc_ValueError),
                      "The filter would pass its byte limit (FK_ELIMIT: the max_bytes knob, else "
                      "the library's 64 GiB cap): when it is made, or when a growing filter needs "
                      "a new link. Nothing changed. A FilterFullError and a ValueError."))
        return -1;
    return 0;
}

PyObject *pyfk_exception_for(const pyfk_state *st, fk_status s)
{
    switch (s) {
    case FK_EINVAL:       return PyExc_ValueError;
    case FK_ENOMEM:       return PyExc_MemoryError;
    case FK_EFULL:        return st->FilterFullError;
    case FK_ENOTFOUND:    return PyExc_KeyError;
    case FK_EUNSUPPORTED: return st->UnsupportedError;
    case FK_ECORRUPT:     return st->CorruptError;
    case FK_EIO:          return PyExc_OSError;
    case FK_ELIMIT:       return st->LimitError;
    default:              return st->Error;
    }
}

PyObject *pyfk_raise(const pyfk_state *st, fk_status s, const char *what)
{
    PyErr_Format(pyfk_exception_for(st, s), "%s: %s (%s)", what, fk_strerror(s), fk_status_name(s));
    return NULL;
}

/* Raises exception type `type` with message msg (stolen), carrying .done. */
static PyObject *raise_with_done(PyObject *type, PyObject *msg, size_t done)
{
    PyObject *e = msg ? PyObject_CallOneArg(type, msg) : NULL;
    PyObject *n = e ? PyLong_FromSize_t(done) : NULL;
    if (n && PyObject_SetAttrString(e, "done", n) == 0)
        PyErr_SetObject((PyObject *)Py_TYPE(e), e);
    Py_XDECREF(msg);
    Py_XDECREF(e);
    Py_XDECREF(n);
    return NULL;
}

PyObject *pyfk_raise_done(const pyfk_state *st, fk_status s, size_t done, const char *what)
{
    return raise_with_done(pyfk_exception_for(st, s),
                           PyUnicode_FromFormat("%s: %s (%s)", what, fk_strerror(s), fk_status_name(s)),
                           done);
}

PyObject *pyfk_raise_full(const pyfk_state *st, const fk_ops *ops, uint64_t capacity, bool with_done,
                          size_t done, const char *what)
{
    /* the CLI's hint (bench/cli/hints.c): headroom, or the growing kind over
     * this one, found by name in the registry */
    char grows[64];
    snprintf(grows, sizeof grows, "scalable-%s", ops->name);
    const fk_ops *g = fk_ops_find(grows);
    PyTypeObject *gt = NULL;
    for (size_t i = 0; g && i < st->nkinds; i++)
        if (st->kinds[i].ops == g)
            gt = st->kinds[i].type;
    PyObject *msg;
    if (fk_ops_caps(ops) & FK_CAP_EXPIRES) /* a time window fed past its rate */
        msg = PyUnicode_FromFormat(
            "%s: %s (%s): this %s was sized for %llu keys per span and holds as many as its "
            "window and slack may (8 generations); the key was not added, none inside the window "
            "was lost: advance(now) frees room as generations pass, or make it with a larger "
            "capacity (describe()['refused'] counts the refused adds)",
            what, fk_strerror(FK_EFULL), fk_status_name(FK_EFULL), ops->name, (unsigned long long)capacity);
    else
        msg = PyUnicode_FromFormat(
        "%s: %s (%s): a %s filter holds a fixed number of keys (this one was sized for %llu); "
        "make it again with headroom for what you will add (a larger capacity: "
        "filterkit.pick(n, fpr) prints one)%s%s%s",
        what, fk_strerror(FK_EFULL), fk_status_name(FK_EFULL), ops->name, (unsigned long long)capacity,
        gt ? ", or use " : "", gt ? gt->tp_name : "", gt ? ", which grows instead of filling up" : "");
    if (with_done)
        return raise_with_done(st->FilterFullError, msg, done);
    if (msg)
        PyErr_SetObject(st->FilterFullError, msg);
    Py_XDECREF(msg);
    return NULL;
}
