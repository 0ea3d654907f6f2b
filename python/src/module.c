/* python/src/module.c: the module filterkit._filterkit: its state, its
 * multi-phase initialisation (PEP 489: every import runs module_exec into a
 * new module object with its own state), and its functions (kinds, load,
 * from_bytes, bench, ...). The public face is the package filterkit
 * (python/filterkit/__init__.py). */
#include "pyfk.h" /* first: Python.h sets the feature macros */

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
    return pyfk_load_path(PyModule_GetState(module), path, NULL);
}

static PyObject *mod_from_bytes(PyObject *module, PyObject *data)
{
    return pyfk_load_bytes(PyModule_GetState(module), NULL, data, "from_bytes");
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

static PyMethodDef module_methods[] = {
    { "kinds", mod_kinds, METH_NOARGS, kinds_doc },
    { "load", mod_load, METH_O, load_doc },
    { "from_bytes", mod_from_bytes, METH_O, from_bytes_doc },
    { "_sbbf_new", pyfk_sbbf_new, METH_O,
      "_sbbf_new(nbytes)\n--\n\nAn empty Blocked filter with Parquet's hashing scheme of nbytes bytes "
      "(filterkit.parquet_filter calls it)." },
    { "_sbbf_from", pyfk_sbbf_from, METH_O,
      "_sbbf_from(data)\n--\n\nA Blocked filter with Parquet's hashing scheme holding a copy of a Parquet "
      "bitset (filterkit.from_sbbf calls it)." },
    { "_sbbf_bytes", pyfk_sbbf_bytes, METH_O,
      "_sbbf_bytes(filter)\n--\n\nThe bitset of a Blocked filter with Parquet's hashing scheme, as a "
      "Parquet file stores it (filterkit.to_sbbf calls it)." },
    { "parquet_bytes", pyfk_parquet_bytes, METH_VARARGS,
      "parquet_bytes(ndv, fpp, /)\n--\n\nThe Bloom filter size in bytes Parquet writers choose for ndv "
      "distinct values at false-positive probability fpp (parquet-cpp's OptimalNumOfBits): a power of two "
      "from 32 bytes to 128 MiB." },
    { "bench", (PyCFunction)(void (*)(void))pyfk_bench, METH_VARARGS | METH_KEYWORDS, bench_doc },
    { "_sizing", (PyCFunction)(void (*)(void))pyfk_sizing, METH_VARARGS | METH_KEYWORDS, sizing_doc },
    { "_c_contains_many_ns", pyfk_c_contains_many_ns, METH_VARARGS,
      "_c_contains_many_ns(f, keys, repeat)\n--\n\nThe C batch call's own time per key (ns, best "
      "of repeat) on filter f and a uint64 array, for comparing the Python call's overhead." },
    { "_pick", (PyCFunction)(void (*)(void))pyfk_pick, METH_VARARGS | METH_KEYWORDS,
      "_pick(**query)\n--\n\nThe pick component (bench/pick/pick.h) on a query: (status, answer, message); "
      "status 0 picked, 1 nothing fits, 2 refused, 3 failed; answer: `filterkit pick --format json` as a dict. "
      "filterkit.pick calls it." },
    { "_parquet_chunks", pyfk_parquet_chunks, METH_O,
      "_parquet_chunks(path)\n--\n\nEvery column chunk of the Parquet file at path: a list of "
      "(row_group, column, physical type number, Blocked filter or None, distinct values or None). "
      "filterkit.parquet_filters calls it." },
    { "library_version", mod_version, METH_NOARGS, "The C library's version string." },
    { "default_max_bytes", mod_default_max_bytes, METH_NOARGS, default_max_bytes_doc },
    { NULL, NULL, 0, NULL },
};

/* ------------------------------------------------------------ the state */
static int module_traverse(PyObject *module, visitproc visit, void *arg)
{
    pyfk_state *st = PyModule_GetState(module);
    if (!st)
        return 0;
    Py_VISIT(st->Error);
    Py_VISIT(st->FilterFullError);
    Py_VISIT(st->CorruptError);
    Py_VISIT(st->UnsupportedError);
    Py_VISIT(st->LimitError);
    Py_VISIT(st->filter_type);
    for (size_t i = 0; i < st->nkinds; i++)
        Py_VISIT(st->kinds[i].type);
    Py_VISIT(st->numpy_empty);
    Py_VISIT(st->numpy_bool);
    return 0;
}

static int module_clear(PyObject *module)
{
    pyfk_state *st = PyModule_GetState(module);
    if (!st)
        return 0;
    Py_CLEAR(st->Error);
    Py_CLEAR(st->FilterFullError);
    Py_CLEAR(st->CorruptError);
    Py_CLEAR(st->UnsupportedError);
    Py_CLEAR(st->LimitError);
    /* the kinds' classes first: each is a subclass of Filter */
    for (size_t i = 0; i < st->nkinds; i++)
        Py_CLEAR(st->kinds[i].type);
    st->nkinds = 0;
    Py_CLEAR(st->filter_type);
    Py_CLEAR(st->numpy_empty);
    Py_CLEAR(st->numpy_bool);
    return 0;
}

static void module_free(void *module)
{
    (void)module_clear((PyObject *)module);
}

/* Fills a new module object (its state starts zeroed). */
static int module_exec(PyObject *module)
{
    pyfk_state *st = PyModule_GetState(module);
    if (pyfk_errors_init(module, st) || pyfk_types_init(module, st) ||
        PyModule_AddIntConstant(module, "NOGIL_MIN_KEYS", PYFK_NOGIL_MIN) < 0 ||
        PyModule_AddStringConstant(module, "__version__", fk_version()) < 0)
        return -1;
    return 0;
}

static PyModuleDef_Slot module_slots[] = {
    { Py_mod_exec, (void *)module_exec },
#ifdef Py_mod_multiple_interpreters
    /* every Python object lives in the module's state; interpreters with
     * a GIL of their own are not claimed (the library's process-wide
     * state, e.g. the registry, was not reviewed for them) */
    { Py_mod_multiple_interpreters, Py_MOD_MULTIPLE_INTERPRETERS_SUPPORTED },
#endif
#ifdef Py_mod_gil
    /* Used: the calls that keep the GIL (add, x in f, ...) rely on it to
     * run alone on a filter; only the GIL-free sections take its lock. */
    { Py_mod_gil, Py_MOD_GIL_USED },
#endif
    { 0, NULL },
};

PyModuleDef pyfk_module_def = {
    PyModuleDef_HEAD_INIT,
    .m_name = "filterkit._filterkit",
    .m_doc = "The C extension behind the filterkit package (import filterkit instead).",
    .m_size = sizeof(pyfk_state),
    .m_methods = module_methods,
    .m_slots = module_slots,
    .m_traverse = module_traverse,
    .m_clear = module_clear,
    .m_free = module_free,
};

PyMODINIT_FUNC PyInit__filterkit(void);
PyMODINIT_FUNC PyInit__filterkit(void)
{
    return PyModuleDef_Init(&pyfk_module_def);
}
