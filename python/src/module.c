/* python/src/module.c: the module filterkit._filterkit: its exceptions,
 * functions (kinds, load, from_bytes, bench, ...) and classes. The public
 * face is the package filterkit (python/filterkit/__init__.py). */
#include "pyfk.h" /* first: Python.h sets the feature macros */
#include <stdio.h>

PyObject *pyfk_Error, *pyfk_FilterFullError, *pyfk_CorruptError, *pyfk_UnsupportedError, *pyfk_LimitError;

PyObject *pyfk_load_bytes(const fk_ops *ops, PyObject *data, const char *what);
PyObject *pyfk_load_path(PyObject *path_arg, const fk_ops *ops);

/* ---------------------------------------------------------------- errors */
PyObject *pyfk_raise(fk_status s, const char *what)
{
    PyObject *type;
    switch (s) {
    case FK_EINVAL:       type = PyExc_ValueError; break;
    case FK_ENOMEM:       type = PyExc_MemoryError; break;
    case FK_EFULL:        type = pyfk_FilterFullError; break;
    case FK_ENOTFOUND:    type = PyExc_KeyError; break;
    case FK_EUNSUPPORTED: type = pyfk_UnsupportedError; break;
    case FK_ECORRUPT:     type = pyfk_CorruptError; break;
    case FK_EIO:          type = PyExc_OSError; break;
    case FK_ELIMIT:       type = pyfk_LimitError; break;
    default:              type = pyfk_Error; break;
    }
    PyErr_Format(type, "%s: %s (%s)", what, fk_strerror(s), fk_status_name(s));
    return NULL;
}

static int add_exception(PyObject *module, PyObject **slot, const char *name, PyObject *bases,
                         const char *doc)
{
    char full[64];
    snprintf(full, sizeof full, "filterkit.%s", name);
    *slot = PyErr_NewExceptionWithDoc(full, doc, bases, NULL);
    Py_XDECREF(bases);
    return *slot ? PyModule_AddObjectRef(module, name, *slot) : -1;
}

int pyfk_errors_init(PyObject *module)
{
    if (add_exception(module, &pyfk_Error, "Error", NULL,
                      "Base class of filterkit's own exceptions."))
        return -1;
    if (add_exception(module, &pyfk_FilterFullError, "FilterFullError", Py_BuildValue("(O)", pyfk_Error),
                      "A bounded kind (cuckoo) has no room for the key (FK_EFULL): nothing was lost, "
                      "the filter answers as before. From a batch, .done says how many keys went in."))
        return -1;
    if (add_exception(module, &pyfk_CorruptError, "CorruptError",
                      Py_BuildValue("(OO)", pyfk_Error, PyExc_ValueError),
                      "The bytes or file are not a filter saved by filterkit, or were truncated or "
                      "altered (FK_ECORRUPT). A ValueError."))
        return -1;
    if (add_exception(module, &pyfk_UnsupportedError, "UnsupportedError",
                      Py_BuildValue("(OO)", pyfk_Error, PyExc_ValueError),
                      "The kind cannot do this (FK_EUNSUPPORTED): e.g. insert into a static kind, "
                      "or a file written by a newer filterkit. A ValueError."))
        return -1;
    if (add_exception(module, &pyfk_LimitError, "LimitError",
                      Py_BuildValue("(OO)", pyfk_FilterFullError, PyExc_ValueError),
                      "The filter would pass its byte limit (FK_ELIMIT: the max_bytes knob, else "
                      "the library's 64 GiB cap): when it is made, or when a growing filter needs "
                      "a new link. Nothing changed. A FilterFullError and a ValueError."))
        return -1;
    return 0;
}

/* ------------------------------------------------------------- functions */
static PyObject *mod_kinds(PyObject *module, PyObject *unused)
{
    (void)unused;
    PyObject *t = PyObject_GetAttrString(module, "_kind_classes");
    if (!t)
        return NULL;
    PyObject *l = PyList_New(0);
    for (Py_ssize_t i = 0; l && PyTuple_Check(t) && i < PyTuple_GET_SIZE(t); i++)
        if (PyList_Append(l, PyTuple_GET_ITEM(PyTuple_GET_ITEM(t, i), 0)) < 0)
            Py_CLEAR(l);
    Py_DECREF(t);
    return l;
}

static PyObject *mod_load(PyObject *module, PyObject *path)
{
    (void)module;
    return pyfk_load_path(path, NULL);
}

static PyObject *mod_from_bytes(PyObject *module, PyObject *data)
{
    (void)module;
    return pyfk_load_bytes(NULL, data, "from_bytes");
}

static PyObject *mod_version(PyObject *module, PyObject *unused)
{
    (void)module;
    (void)unused;
    return PyUnicode_FromString(fk_version());
}

static PyObject *mod_default_max_bytes(PyObject *module, PyObject *unused)
{
    (void)module;
    (void)unused;
    return PyLong_FromUnsignedLongLong(pyfk_default_max_bytes());
}

PyDoc_STRVAR(default_max_bytes_doc, "default_max_bytes()\n--\n\n"
"The byte limit of a filter made without max_bytes (or with 0), or loaded:\n"
"half the least of the physical memory, RLIMIT_AS, RLIMIT_DATA and the\n"
"cgroup's memory.max (those set), at most 64 GiB; read now, so a later\n"
"setrlimit counts. Half, as a grow holds the old table beside the new one.\n"
"Growth past it raises filterkit.LimitError (a MemoryError would come from\n"
"the allocator; the kernel's OOM killer would not raise at all).");

PyDoc_STRVAR(kinds_doc, "kinds()\n--\n\n"
"The names of the filter kinds this build knows, in the registry's order\n"
"(the CLI's --kind names). Each has a class: filterkit.Filter(name, ...).");
PyDoc_STRVAR(load_doc, "load(path, /)\n--\n\n"
"The filter saved at path (by save(), the CLI or Redis), of whatever kind it is.\n"
"OSError when it cannot be read, CorruptError for a damaged or foreign file,\n"
"UnsupportedError for a newer format. Cost: O(size); releases the GIL.");
PyDoc_STRVAR(from_bytes_doc, "from_bytes(data, /)\n--\n\n"
"The filter saved in data (to_bytes(), a file's bytes), of whatever kind it is.\n"
"CorruptError (a ValueError) for bad bytes. Cost: O(size).");
PyDoc_STRVAR(bench_doc, "bench(kinds=None, n=100000, fpr=0.01, seed=1, repeat=3)\n--\n\n"
"Times every kind (or those named) through the generic C interface on n random\n"
"64-bit keys made from seed, for each fpr (a float or a sequence), and returns one\n"
"dict per (kind, fpr): kind, n, fpr, seed, memory_bytes, bits_per_item,\n"
"fpr_measured (on n keys never inserted), fpr_theory, insert_ns, lookup_hit_ns,\n"
"lookup_miss_ns, contains_many_ns (the batch call, per key), remove_ns (None when\n"
"the kind does not remove), insert_failures, false_negatives, error (None, or why\n"
"the kind could not be made). Times are medians over repeat fresh filters, in ns\n"
"per key, measured in C with the GIL released: pandas.DataFrame(rows) takes them.");
PyDoc_STRVAR(sizing_doc, "_sizing(kind, /, *, capacity, fpr=0.01, ...)\n--\n\n"
"What the kind would build for these parameters, without building it (fk_ops_size):\n"
"a dict with memory_bytes, expected_fpr and geometry.");

PyObject *pyfk_c_contains_many_ns(PyObject *module, PyObject *args);

static PyMethodDef module_methods[] = {
    { "kinds", mod_kinds, METH_NOARGS, kinds_doc },
    { "load", mod_load, METH_O, load_doc },
    { "from_bytes", mod_from_bytes, METH_O, from_bytes_doc },
    { "bench", (PyCFunction)(void (*)(void))pyfk_bench, METH_VARARGS | METH_KEYWORDS, bench_doc },
    { "_sizing", (PyCFunction)(void (*)(void))pyfk_sizing, METH_VARARGS | METH_KEYWORDS, sizing_doc },
    { "_c_contains_many_ns", pyfk_c_contains_many_ns, METH_VARARGS,
      "_c_contains_many_ns(f, keys, repeat)\n--\n\nThe C batch call's own time per key (ns, best "
      "of repeat) on filter f and a uint64 array, for comparing the Python call's overhead." },
    { "library_version", mod_version, METH_NOARGS, "The C library's version string." },
    { "default_max_bytes", mod_default_max_bytes, METH_NOARGS, default_max_bytes_doc },
    { NULL, NULL, 0, NULL },
};

static struct PyModuleDef module_def = {
    PyModuleDef_HEAD_INIT, "filterkit._filterkit",
    "The C extension behind the filterkit package (import filterkit instead).", -1, module_methods,
    NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__filterkit(void);
PyMODINIT_FUNC PyInit__filterkit(void)
{
    PyObject *m = PyModule_Create(&module_def);
    if (!m)
        return NULL;
    if (pyfk_errors_init(m) || pyfk_types_init(m) ||
        PyModule_AddIntConstant(m, "NOGIL_MIN_KEYS", PYFK_NOGIL_MIN) < 0 ||
        PyModule_AddStringConstant(m, "__version__", fk_version()) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
