/* python/src/bench.c: filterkit.bench and filterkit.sizing: timing loops
 * over the generic interface (fk_filter_*_u64 and the batch call), written
 * here since nothing outside bench/ includes bench/ (but python/src/pick.c,
 * which includes the pick component's header). */
#include "pyfk.h" /* first: Python.h sets the feature macros */
#include <stdlib.h>
#include <string.h>
#include <time.h>

static uint64_t now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* splitmix64's finalizer: a bijection, so distinct inputs give distinct keys. */
static uint64_t mix64(uint64_t x)
{
    x += UINT64_C(0x9E3779B97F4A7C15);
    x = (x ^ (x >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
    x = (x ^ (x >> 27)) * UINT64_C(0x94D049BB133111EB);
    return x ^ (x >> 31);
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median(double *v, unsigned n)
{
    qsort(v, n, sizeof *v, cmp_double);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

#define MAX_REPEAT 64

typedef struct {
    fk_status status;          /* FK_OK, or why the filter could not be made */
    double    insert[MAX_REPEAT], hit[MAX_REPEAT], miss[MAX_REPEAT], many[MAX_REPEAT],
              removal[MAX_REPEAT];
    uint64_t  false_pos, false_neg, failures;
    fk_stats  stats;
    double    theory;
} run_result;

/* One kind at one fpr: `repeat` fresh filters, each timed through every
 * operation. Runs without the GIL: touches no Python object. */
static void run_kind(const fk_ops *ops, const fk_params *p, const uint64_t *in, const uint64_t *out,
                     size_t n, unsigned repeat, bool *res, run_result *r)
{
    unsigned caps = fk_ops_caps(ops);
    volatile uint64_t sink = 0;
    memset(r, 0, sizeof *r);
    if (fk_ops_expected_fpr(ops, p, (double)n, &r->theory) != FK_OK)
        r->theory = -1;
    for (unsigned rep = 0; rep < repeat; rep++) {
        fk_filter *f = NULL;
        uint64_t failures = 0, t0 = now_ns();
        if (caps & FK_CAP_STATIC) {
            r->status = fk_filter_build_u64(ops, p, n, in, &f);
        } else {
            r->status = fk_filter_new(ops, p, &f);
            t0 = now_ns();
            for (size_t i = 0; r->status == FK_OK && i < n; i++)
                failures += fk_filter_insert_u64(f, in[i]) != FK_OK;
        }
        uint64_t t1 = now_ns();
        if (r->status != FK_OK)
            return;
        r->insert[rep] = (double)(t1 - t0) / (double)n;
        uint64_t hits = 0, fp = 0;
        t0 = now_ns();
        for (size_t i = 0; i < n; i++)
            hits += fk_filter_contains_u64(f, in[i]);
        t1 = now_ns();
        r->hit[rep] = (double)(t1 - t0) / (double)n;
        for (size_t i = 0; i < n; i++)
            fp += fk_filter_contains_u64(f, out[i]);
        r->miss[rep] = (double)(now_ns() - t1) / (double)n;
        t0 = now_ns();
        fk_filter_contains_many_u64(f, n, out, res);
        r->many[rep] = (double)(now_ns() - t0) / (double)n;
        for (size_t i = 0; i < n; i++)
            sink += res[i];
        if (rep == repeat - 1) {
            fk_filter_stats(f, &r->stats);
            r->false_pos = fp;
            /* every key inserted with FK_OK must answer yes */
            r->false_neg = hits + failures < n ? n - failures - hits : 0;
            r->failures = failures;
        }
        if (caps & FK_CAP_REMOVE) {
            t0 = now_ns();
            for (size_t i = 0; i < n; i++)
                sink += fk_filter_remove_u64(f, in[i]) == FK_OK;
            r->removal[rep] = (double)(now_ns() - t0) / (double)n;
        }
        fk_filter_free(f);
    }
    (void)sink;
}

static PyObject *num_or_none(bool have, double v)
{
    if (!have)
        Py_RETURN_NONE;
    return PyFloat_FromDouble(v);
}

static PyObject *row_of(const fk_ops *ops, const fk_params *p, size_t n, unsigned repeat, run_result *r)
{
    bool ok = r->status == FK_OK;
    char err[200] = "";
    if (!ok)
        snprintf(err, sizeof err, "%s (%s)", fk_strerror(r->status), fk_status_name(r->status));
    PyObject *row = Py_BuildValue(
        "{s:s,s:n,s:d,s:K,s:N,s:N,s:N,s:N,s:N,s:N,s:N,s:N,s:N,s:N,s:N,s:N}",
        "kind", ops->name, "n", (Py_ssize_t)n, "fpr", p->fpr, "seed", (unsigned long long)p->seed,
        "memory_bytes", ok ? PyLong_FromUnsignedLongLong(r->stats.memory_bytes) : Py_NewRef(Py_None),
        "bits_per_item", num_or_none(ok, 8.0 * (double)r->stats.memory_bytes / (double)n),
        "fpr_measured", num_or_none(ok, (double)r->false_pos / (double)n),
        "fpr_theory", num_or_none(r->theory >= 0, r->theory),
        "insert_ns", num_or_none(ok, median(r->insert, repeat)),
        "lookup_hit_ns", num_or_none(ok, median(r->hit, repeat)),
        "lookup_miss_ns", num_or_none(ok, median(r->miss, repeat)),
        "contains_many_ns", num_or_none(ok, median(r->many, repeat)),
        "remove_ns", num_or_none(ok && (fk_ops_caps(ops) & FK_CAP_REMOVE), median(r->removal, repeat)),
        "insert_failures", ok ? PyLong_FromUnsignedLongLong(r->failures) : Py_NewRef(Py_None),
        "false_negatives", ok ? PyLong_FromUnsignedLongLong(r->false_neg) : Py_NewRef(Py_None),
        "error", ok ? Py_NewRef(Py_None) : PyUnicode_FromString(err));
    return row;
}

/* kinds=None | "name" | iterable of names -> a new list of ops (NULL-ended
 * array in *out, PyMem). */
static int kinds_arg(PyObject *kinds, const fk_ops ***out, size_t *count)
{
    size_t cap = 0;
    const fk_ops *ops;
    while (fk_ops_at(cap))
        cap++;
    PyObject *seq = NULL;
    if (kinds != Py_None) {
        seq = PyUnicode_Check(kinds) ? Py_BuildValue("(O)", kinds) : PySequence_Tuple(kinds);
        if (!seq)
            return -1;
        cap = (size_t)PyTuple_GET_SIZE(seq);
    }
    const fk_ops **v = PyMem_Calloc(cap + 1, sizeof *v);
    if (!v) {
        Py_XDECREF(seq);
        PyErr_NoMemory();
        return -1;
    }
    for (size_t i = 0; i < cap; i++) {
        if (!seq) {
            v[i] = fk_ops_at(i);
            continue;
        }
        PyObject *name = PyTuple_GET_ITEM(seq, i);
        const char *s = PyUnicode_Check(name) ? PyUnicode_AsUTF8(name) : NULL;
        ops = s ? fk_ops_find(s) : NULL;
        if (!ops) {
            if (!PyErr_Occurred())
                PyErr_Format(PyExc_ValueError, "unknown filter kind %R (filterkit.kinds() lists them)", name);
            PyMem_Free(v);
            Py_DECREF(seq);
            return -1;
        }
        v[i] = ops;
    }
    Py_XDECREF(seq);
    *out = v;
    *count = cap;
    return 0;
}

PyObject *pyfk_bench(PyObject *module, PyObject *args, PyObject *kw)
{
    (void)module;
    static char *names[] = { "kinds", "n", "fpr", "seed", "repeat", NULL };
    PyObject *kinds = Py_None, *fprs = NULL;
    Py_ssize_t n = 100000;
    unsigned long long seed = 1;
    int repeat = 3;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "|OnOKi:bench", names, &kinds, &n, &fprs, &seed, &repeat))
        return NULL;
    if (n < 1 || n > (Py_ssize_t)1 << 31) {
        PyErr_SetString(PyExc_ValueError, "n must be in 1 .. 2**31");
        return NULL;
    }
    if (repeat < 1 || repeat > MAX_REPEAT) {
        PyErr_Format(PyExc_ValueError, "repeat must be in 1 .. %d", MAX_REPEAT);
        return NULL;
    }
    PyObject *fpr_seq = !fprs ? Py_BuildValue("(d)", 0.01)
                      : (PyFloat_Check(fprs) || PyLong_Check(fprs)) ? Py_BuildValue("(O)", fprs)
                                                                    : PySequence_Tuple(fprs);
    if (!fpr_seq)
        return NULL;
    Py_ssize_t nf = PyTuple_GET_SIZE(fpr_seq);
    double *fv = PyMem_Calloc((size_t)nf + 1, sizeof *fv);
    for (Py_ssize_t i = 0; fv && i < nf; i++) {
        PyObject *x = PyTuple_GET_ITEM(fpr_seq, i);
        fv[i] = PyFloat_Check(x) || PyLong_Check(x) ? PyFloat_AsDouble(x) : -1;
        if (!(fv[i] > 0 && fv[i] < 1)) {
            if (!PyErr_Occurred())
                PyErr_Format(PyExc_ValueError, "fpr must be in (0, 1), got %R", x);
            PyMem_Free(fv);
            Py_DECREF(fpr_seq);
            return NULL;
        }
    }
    Py_DECREF(fpr_seq);
    if (!fv)
        return PyErr_NoMemory();
    const fk_ops **ops;
    size_t nk;
    if (kinds_arg(kinds, &ops, &nk)) {
        PyMem_Free(fv);
        return NULL;
    }
    size_t un = (size_t)n;
    uint64_t *in = PyMem_RawMalloc(2 * un * sizeof *in);
    bool *res = PyMem_RawMalloc(un);
    run_result *r = PyMem_RawMalloc(sizeof *r);
    PyObject *rows = PyList_New(0);
    if (!in || !res || !r || !rows) {
        PyErr_NoMemory();
        goto fail;
    }
    for (size_t i = 0; i < 2 * un; i++)
        in[i] = mix64(seed * UINT64_C(0x100000000) + i);
    for (size_t k = 0; k < nk; k++)
        for (Py_ssize_t j = 0; j < nf; j++) {
            fk_params p;
            memset(&p, 0, sizeof p);
            p.capacity = un;
            p.fpr = fv[j];
            p.seed = seed;
            Py_BEGIN_ALLOW_THREADS
            run_kind(ops[k], &p, in, in + un, un, (unsigned)repeat, res, r);
            Py_END_ALLOW_THREADS
            PyObject *row = row_of(ops[k], &p, un, (unsigned)repeat, r);
            if (!row || PyList_Append(rows, row) < 0) {
                Py_XDECREF(row);
                goto fail;
            }
            Py_DECREF(row);
            if (PyErr_CheckSignals() < 0)
                goto fail;
        }
    PyMem_RawFree(in);
    PyMem_RawFree(res);
    PyMem_RawFree(r);
    PyMem_Free(ops);
    PyMem_Free(fv);
    return rows;
fail:
    PyMem_RawFree(in);
    PyMem_RawFree(res);
    PyMem_RawFree(r);
    PyMem_Free(ops);
    PyMem_Free(fv);
    Py_XDECREF(rows);
    return NULL;
}

/* _sizing(kind, capacity=..., fpr=..., knobs...) -> dict (fk_ops_size) */
PyObject *pyfk_sizing(PyObject *module, PyObject *args, PyObject *kw)
{
    const char *name;
    if (!PyArg_ParseTuple(args, "s:_sizing", &name))
        return NULL;
    const fk_ops *ops = fk_ops_find(name);
    if (!ops) {
        PyErr_Format(PyExc_ValueError, "unknown filter kind '%s'", name);
        return NULL;
    }
    fk_params p;
    if (pyfk_params_from(kw, &p, true))
        return NULL;
    fk_sizing z;
    fk_status s = fk_ops_size(ops, &p, &z);
    if (s != FK_OK)
        return pyfk_raise(PyModule_GetState(module), s, name);
    return Py_BuildValue("{s:s,s:K,s:d,s:s}", "kind", ops->name, "memory_bytes",
                         (unsigned long long)z.memory_bytes, "expected_fpr", z.expected_fpr, "geometry",
                         z.geometry);
}

/* _c_contains_many_ns(f, keys, repeat): the C batch call alone. */
PyObject *pyfk_c_contains_many_ns(PyObject *module, PyObject *args)
{
    const pyfk_state *st = PyModule_GetState(module);
    PyObject *fo;
    Py_buffer view;
    int repeat = 5;
    if (!PyArg_ParseTuple(args, "O!y*|i:_c_contains_many_ns", st->filter_type, &fo, &view, &repeat))
        return NULL;
    size_t n = (size_t)view.len / 8;
    bool *res = PyMem_RawMalloc(n ? n : 1);
    if (!res) {
        PyBuffer_Release(&view);
        return PyErr_NoMemory();
    }
    double best = 0;
    pyfk_filter *self = (pyfk_filter *)fo;
    int in = pyfk_enter(self, false); /* the GIL kept: only a writer holding it is waited for */
    for (int i = 0; in >= 0 && i < (repeat < 1 ? 1 : repeat) && n; i++) {
        uint64_t t0 = now_ns();
        fk_filter_contains_many_u64(self->filter, n, view.buf, res);
        double t = (double)(now_ns() - t0) / (double)n;
        if (i == 0 || t < best)
            best = t;
    }
    pyfk_leave(self, in);
    PyMem_RawFree(res);
    if (in < 0) {
        PyBuffer_Release(&view);
        return NULL;
    }
    PyBuffer_Release(&view);
    return PyFloat_FromDouble(best);
}
