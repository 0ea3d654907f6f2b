/* python/src/pick.c: filterkit.pick's C half: the pick component
 * (bench/pick/pick.h, the one bench/ header Python includes) run on a query
 * made from keyword arguments, its result turned into the dict that
 * `filterkit pick --format json` prints (the same fkc_pick_doc), and the
 * default byte limit of filters (default_max_bytes). */
#include "pyfk.h" /* first: Python.h sets the feature macros */
#include <math.h>
#include <stdlib.h>
#include "bench/pick/pick.h"

uint64_t pyfk_default_max_bytes(void)
{
    return fkc_memlimit_default();
}

/* One doc value as a new Python object (not an OBJ / ARR / END). */
static PyObject *doc_value(const fkc_doc_item *it)
{
    switch (it->type) {
    case FKC_DOC_BOOL:
        return PyBool_FromLong(it->v.b);
    case FKC_DOC_U64:
        return PyLong_FromUnsignedLongLong(it->v.u);
    case FKC_DOC_NUM:
        if (isnan(it->v.d) || isinf(it->v.d))
            Py_RETURN_NONE; /* JSON's null */
        return PyFloat_FromDouble(it->v.d);
    case FKC_DOC_STR:
        return PyUnicode_DecodeUTF8(it->v.s, (Py_ssize_t)strlen(it->v.s), "replace");
    default:
        Py_RETURN_NONE;
    }
}

/* Puts v (a new reference, stolen; NULL: an error already set) into the
 * container `to` under key (a dict) or at its end (a list). Returns 0 or -1. */
static int doc_put(PyObject *to, const char *key, PyObject *v)
{
    if (!v)
        return -1;
    int rc = PyList_Check(to) ? PyList_Append(to, v) : PyDict_SetItemString(to, key, v);
    Py_DECREF(v);
    return rc;
}

/* A doc as the Python object json.loads makes of its JSON: dicts, lists,
 * int, float, str, bool and None. A new reference, or NULL with an error set. */
static PyObject *doc_to_python(const fkc_doc *d)
{
    PyObject *stack[64], *top = NULL;
    int depth = 0;
    for (size_t i = 0; i < d->n; i++) {
        const fkc_doc_item *it = &d->items[i];
        if (it->type == FKC_DOC_END) {
            if (--depth == 0)
                return top;
            continue;
        }
        int open = it->type == FKC_DOC_OBJ || it->type == FKC_DOC_ARR;
        PyObject *v = open ? (it->type == FKC_DOC_OBJ ? PyDict_New() : PyList_New(0)) : doc_value(it);
        if (depth == 0) {
            if (!open) {
                Py_XDECREF(v);
                break;
            }
            top = v;
            if (!top)
                return NULL;
        } else {
            if (open && v)
                Py_INCREF(v); /* one for the stack, one given to the parent */
            if (doc_put(stack[depth - 1], it->key, v) != 0) {
                if (open && v)
                    Py_DECREF(v);
                Py_XDECREF(top);
                return NULL;
            }
            if (open)
                Py_DECREF(v); /* the parent holds it; the stack borrows */
        }
        if (open) {
            if (depth == 64)
                break;
            stack[depth++] = v;
        }
    }
    Py_XDECREF(top);
    PyErr_SetString(PyExc_SystemError, "_pick: an unbalanced result");
    return NULL;
}

/* _pick(**query) -> (status, answer, message): runs the pick component,
 * the GIL released (filterkit.pick serialises the calls: the progress note
 * is process-wide). status: 0 picked, 1 nothing fits, 2 the query is
 * refused, 3 the measurement failed; answer: the JSON form's dict (None when
 * refused or failed); message: why (refused, failed), else "". */
PyObject *pyfk_pick(PyObject *module, PyObject *args, PyObject *kw)
{
    (void)module;
    static char *names[] = { "n", "fpr", "deletes", "static", "counts", "merges", "memory", "headroom",
                             "n_uncertain", "grow_to", "window", "window_seconds", "rate", "read_ratio", "seed",
                             "repeat", "no_timing", NULL };
    fkc_pick_query q;
    fkc_pick_query_init(&q);
    unsigned long long n = 0, memory = 0, grow_to = 0, window = 0, seconds = 0, rate = 0, seed = q.seed,
                       repeat = q.repeat;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "|$KdppppKdpKKKKdKKp:_pick", names, &n, &q.fpr, &q.deletes,
                                     &q.is_static, &q.counts, &q.merges, &memory, &q.headroom, &q.uncertain,
                                     &grow_to, &window, &seconds, &rate, &q.read_ratio, &seed, &repeat,
                                     &q.no_timing))
        return NULL;
    q.n = n, q.memory = memory, q.grow_to = grow_to, q.window = window, q.window_seconds = seconds;
    q.rate = rate, q.seed = seed, q.repeat = repeat, q.keys.seed = seed;
    fkc_pick_result *res = PyMem_RawMalloc(sizeof *res);
    if (!res)
        return PyErr_NoMemory();
    fkc_pick_status st;
    Py_BEGIN_ALLOW_THREADS
    st = fkc_pick(&q, res);
    Py_END_ALLOW_THREADS
    PyObject *answer = NULL, *out = NULL;
    if (st == FKC_PICK_OK || st == FKC_PICK_NONE) {
        fkc_doc d = { 0 };
        if (fkc_pick_doc(res, &d) != 0)
            PyErr_NoMemory();
        else
            answer = doc_to_python(&d);
        fkc_doc_free(&d);
    } else {
        answer = Py_None;
        Py_INCREF(answer);
    }
    if (answer)
        out = Py_BuildValue("(iNs)", (int)st, answer, st == FKC_PICK_OK || st == FKC_PICK_NONE ? "" : res->message);
    PyMem_RawFree(res);
    return out;
}
