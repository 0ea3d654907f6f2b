/* python/src/window.c: what the forgetting kinds (FK_CAP_EXPIRES: window)
 * add to their class: the span= and clock= keywords that make a time
 * window, the clock (advance), describe(), and the span, now and clock
 * attributes. The kind is reached through the generic door only
 * (fk_filter_advance, fk_filter_describe's rows, fk_params.span): no
 * kind's header or table. A time window's clock is "unix_ns" by default (FK_CLOCK_UNIX_NS:
 * the CLI's and Redis's, so their files advance here on schedule, and
 * advance() with no argument reads time.time_ns()), or "caller" (the
 * caller's own ticks, FK_CLOCK_CALLER: advance(now) only). */
#include "pyfk.h" /* first: Python.h sets the feature macros */
#include <stdio.h>
#include <string.h>

/* ------------------------------------------------------------ making */

/* Reads and deletes "clock" from kw: the clock id of a time window of
 * span (0: none) into *clock. 0, or -1 with the exception set. */
static int take_clock(PyObject *kw, bool expires, uint64_t span, uint32_t *clock_id)
{
    *clock_id = span ? FK_CLOCK_UNIX_NS : FK_CLOCK_CALLER;
    PyObject *v = kw ? PyDict_GetItemString(kw, "clock") : NULL; /* borrowed */
    if (!v)
        return 0;
    Py_INCREF(v);
    int rc = PyDict_DelItemString(kw, "clock");
    if (rc == 0 && v != Py_None) {
        const char *name = PyUnicode_Check(v) ? PyUnicode_AsUTF8(v) : NULL;
        if (!expires) {
            PyErr_SetString(PyExc_TypeError, "unexpected keyword argument 'clock' (only a window "
                                             "kind takes it: filterkit.Window)");
            rc = -1;
        } else if (!name) {
            PyErr_Clear();
            PyErr_Format(PyExc_TypeError, "clock must be \"unix_ns\" or \"caller\", not %.200s",
                         Py_TYPE(v)->tp_name);
            rc = -1;
        } else if (strcmp(name, fk_clock_name(FK_CLOCK_UNIX_NS)) != 0 &&
                   strcmp(name, fk_clock_name(FK_CLOCK_CALLER)) != 0) {
            PyErr_Format(PyExc_ValueError, "clock must be \"unix_ns\" (Unix time in ns, "
                         "time.time_ns()) or \"caller\" (your own ticks), not %R", v);
            rc = -1;
        } else if (!span) {
            PyErr_SetString(PyExc_ValueError, "clock= needs span= (a count window has no clock)");
            rc = -1;
        } else {
            *clock_id = strcmp(name, fk_clock_name(FK_CLOCK_UNIX_NS)) == 0 ? FK_CLOCK_UNIX_NS
                                                                        : FK_CLOCK_CALLER;
        }
    }
    Py_DECREF(v);
    return rc;
}

/* Reads and deletes "span" and "clock" from kw (a dict the caller owns). */
int pyfk_timed_take_span(PyObject *kw, bool expires, uint64_t *span, uint32_t *clock_id)
{
    *span = 0;
    *clock_id = FK_CLOCK_CALLER;
    PyObject *v = kw ? PyDict_GetItemString(kw, "span") : NULL; /* borrowed */
    if (!v)
        return take_clock(kw, expires, 0, clock_id);
    Py_INCREF(v);
    int rc = PyDict_DelItemString(kw, "span");
    if (rc == 0 && v != Py_None) {
        if (!expires) {
            PyErr_SetString(PyExc_TypeError, "unexpected keyword argument 'span' (only a window "
                                             "kind takes it: filterkit.Window)");
            rc = -1;
        } else if (PyBool_Check(v) || !PyLong_Check(v)) {
            PyErr_Format(PyExc_TypeError, "span must be an int (ticks, the unit of advance(now): "
                         "nanoseconds on the default clock, \"unix_ns\"), not %.200s", Py_TYPE(v)->tp_name);
            rc = -1;
        } else {
            unsigned long long u = PyLong_AsUnsignedLongLong(v);
            if ((u == (unsigned long long)-1 && PyErr_Occurred()) || u == 0) {
                PyErr_Clear();
                PyErr_SetString(PyExc_ValueError, "span must be in 1 .. 2**64-1 (ticks)");
                rc = -1;
            } else {
                *span = u;
            }
        }
    }
    Py_DECREF(v);
    return rc ? rc : take_clock(kw, expires, *span, clock_id);
}

fk_status pyfk_timed_new(const fk_ops *ops, const fk_params *p, uint64_t span, fk_filter **out)
{
    if (!span)
        return fk_filter_new(ops, p, out);
    *out = NULL;
    if (!(fk_ops_caps(ops) & FK_CAP_EXPIRES))
        return FK_EUNSUPPORTED;
    fk_params q = *p;
    q.span = span; /* a time window (fk_params.span) */
    return fk_filter_new(ops, &q, out);
}

/* The clock rows of f (0 / false when it has none). */
typedef struct {
    bool     timed, clock_set;
    uint64_t window, clock_id, now;
} win_clock;

static void clock_of(const fk_filter *f, win_clock *c)
{
    memset(c, 0, sizeof *c);
    if (!f || !(fk_ops_caps(fk_filter_ops(f)) & FK_CAP_EXPIRES))
        return;
    fk_describe_row rows[FK_DESCRIBE_MAX_ROWS];
    size_t n = 0;
    if (fk_filter_describe(f, rows, FK_DESCRIBE_MAX_ROWS, &n) != FK_OK)
        return;
    const fk_describe_row *r;
    c->timed = (r = fk_describe_find(rows, n, "timed")) && r->value.b;
    c->clock_set = (r = fk_describe_find(rows, n, "clock_set")) && r->value.b;
    c->window = (r = fk_describe_find(rows, n, "window")) ? r->value.u64 : 0;
    c->clock_id = (r = fk_describe_find(rows, n, "clock_id")) ? r->value.u64 : 0;
    c->now = (r = fk_describe_find(rows, n, "now")) ? r->value.u64 : 0;
}

uint64_t pyfk_timed_span_of(const fk_filter *f)
{
    win_clock c;
    clock_of(f, &c);
    return c.timed ? c.window : 0;
}

uint32_t pyfk_timed_clock_of(const fk_filter *f)
{
    win_clock c;
    clock_of(f, &c);
    return (uint32_t)c.clock_id;
}

/* ------------------------------------------------------------ methods */

/* The clock of self's window, the writers done: 0, or -1. */
static int describe_of(pyfk_filter *self, win_clock *d)
{
    if (!(fk_ops_caps(fk_filter_ops(self->filter)) & FK_CAP_EXPIRES)) {
        PyErr_Format(pyfk_state_of_type(Py_TYPE(self))->UnsupportedError,
                     "a %s filter has no window to describe", fk_filter_ops(self->filter)->name);
        return -1;
    }
    int in = pyfk_enter(self, false);
    if (in < 0)
        return -1;
    clock_of(self->filter, d);
    pyfk_leave(self, in);
    return 0;
}

/* time.time_ns() (looked up at each call, so a test may replace it): 0
 * with *now set, or -1 with the exception set. */
static int unix_ns_now(unsigned long long *now)
{
    PyObject *time = PyImport_ImportModule("time");
    PyObject *t = time ? PyObject_CallMethod(time, "time_ns", NULL) : NULL;
    Py_XDECREF(time);
    if (!t)
        return -1;
    *now = PyLong_Check(t) ? PyLong_AsUnsignedLongLong(t) : (unsigned long long)-1;
    Py_DECREF(t);
    if (*now == (unsigned long long)-1) {
        PyErr_Clear();
        PyErr_SetString(PyExc_ValueError, "advance(): time.time_ns() is not in 0 .. 2**64-2");
        return -1;
    }
    return 0;
}

static PyObject *window_advance(PyObject *o, PyObject *args)
{
    pyfk_filter *self = (pyfk_filter *)o;
    pyfk_state *st = pyfk_state_of_type(Py_TYPE(o));
    PyObject *arg = Py_None;
    if (!PyArg_UnpackTuple(args, "advance", 0, 1, &arg))
        return NULL;
    bool wall = arg == Py_None; /* advance(): the window's own clock, read here */
    unsigned long long now = 0;
    if (wall) {
        win_clock c;
        if (describe_of(self, &c))
            return NULL;
        if (!c.timed)
            return pyfk_raise(st, FK_EUNSUPPORTED, "advance: a count window has no clock (a time "
                              "window is made with span=T)");
        if (c.clock_id != FK_CLOCK_UNIX_NS) {
            PyErr_SetString(PyExc_TypeError, "advance() needs now: this window's times are its "
                            "maker's own ticks (clock=\"caller\"), not Unix ns; give advance(now) "
                            "in that unit");
            return NULL;
        }
        if (unix_ns_now(&now))
            return NULL;
    } else if (PyBool_Check(arg) || !PyLong_Check(arg)) {
        PyErr_Format(PyExc_TypeError, "advance(now): now must be an int in the unit of span "
                     "(Unix ns, as time.time_ns(), on the default clock), not %.200s",
                     Py_TYPE(arg)->tp_name);
        return NULL;
    } else {
        now = PyLong_AsUnsignedLongLong(arg);
        if (now == (unsigned long long)-1 && PyErr_Occurred()) {
            PyErr_Clear();
            PyErr_SetString(PyExc_ValueError, "advance(now): now must be in 0 .. 2**64-1");
            return NULL;
        }
    }
    int in = pyfk_enter(self, true); /* a writer: it may sweep */
    if (in < 0)
        return NULL;
    win_clock d;
    clock_of(self->filter, &d);
    if (wall && d.clock_set && now < d.now)
        now = d.now; /* the wall clock behind the window's (stepped back): hold its time */
    fk_status s = fk_filter_advance(self->filter, (uint64_t)now);
    pyfk_leave(self, in);
    if (s == FK_OK)
        Py_RETURN_NONE;
    char what[200];
    if (s == FK_EINVAL && now > (UINT64_C(1) << 62))
        snprintf(what, sizeof what, "advance(%llu): times stop at 2**62 (FK_WINDOW_MAX_TIME), so "
                 "no generation boundary wraps", now);
    else if (s == FK_EINVAL)
        snprintf(what, sizeof what, "advance(%llu): the clock is at %llu and never goes back", now,
                 (unsigned long long)d.now);
    else if (s == FK_EUNSUPPORTED)
        snprintf(what, sizeof what, "advance: a count window has no clock (a time window is made "
                 "with span=T)");
    else
        snprintf(what, sizeof what, "advance(%llu)", now);
    return pyfk_raise(st, s, what);
}

/* One row's value as a Python object (a new reference), or NULL with
 * the exception set. */
static PyObject *row_value(const fk_describe_row *r)
{
    switch (r->type) {
    case FK_DESCRIBE_U64: return PyLong_FromUnsignedLongLong(r->value.u64);
    case FK_DESCRIBE_DOUBLE: return PyFloat_FromDouble(r->value.d);
    case FK_DESCRIBE_BOOL: return PyBool_FromLong(r->value.b);
    case FK_DESCRIBE_STRING:
        if (!r->value.s)
            Py_RETURN_NONE;
        return PyUnicode_FromString(r->value.s);
    }
    Py_RETURN_NONE;
}

/* The length of name without a "_<digits>" suffix (its whole length when
 * it has none): rows x_0, x_1, ... make one list x. */
static size_t list_stem(const char *name)
{
    size_t len = strlen(name), k = len;
    while (k > 0 && name[k - 1] >= '0' && name[k - 1] <= '9')
        k--;
    return k < len && k > 1 && name[k - 1] == '_' ? k - 1 : len;
}

/* rows[0..n) as a dict: each row under its name; rows x_0, x_1, ... as
 * one list x; a growing filter's link rows ("link" begins one, its
 * "link_*" rows follow) as "chain", a list of dicts without the prefix. */
static PyObject *rows_dict(const fk_describe_row *rows, size_t n)
{
    PyObject *d = PyDict_New(), *chain = NULL, *link = NULL;
    for (size_t i = 0; d && i < n; i++) {
        const fk_describe_row *r = &rows[i];
        int rc = 0;
        if (strcmp(r->name, "link") == 0) {
            if (!chain && (!(chain = PyList_New(0)) || PyDict_SetItemString(d, "chain", chain)))
                rc = -1;
            Py_XDECREF(link);
            link = rc ? NULL : PyDict_New();
            rc = !link || PyList_Append(chain, link) ? -1 : 0;
        } else if (strncmp(r->name, "link_", 5) == 0 && link) {
            PyObject *v = row_value(r);
            rc = !v || PyDict_SetItemString(link, r->name + 5, v) ? -1 : 0;
            Py_XDECREF(v);
        } else if (list_stem(r->name) < strlen(r->name)) {
            size_t stem = list_stem(r->name), j = i;
            PyObject *l = PyList_New(0);
            for (; l && j < n && list_stem(rows[j].name) == stem &&
                   strncmp(rows[j].name, r->name, stem) == 0; j++) {
                PyObject *v = row_value(&rows[j]);
                if (!v || PyList_Append(l, v))
                    Py_CLEAR(l);
                Py_XDECREF(v);
            }
            i = j - 1;
            PyObject *key = PyUnicode_FromStringAndSize(r->name, (Py_ssize_t)stem);
            rc = !l || !key || PyDict_SetItem(d, key, l) ? -1 : 0;
            Py_XDECREF(key);
            Py_XDECREF(l);
        } else {
            PyObject *v = row_value(r);
            rc = !v || PyDict_SetItemString(d, r->name, v) ? -1 : 0;
            Py_XDECREF(v);
        }
        if (rc)
            Py_CLEAR(d);
    }
    Py_XDECREF(link);
    Py_XDECREF(chain);
    return d;
}

PyObject *pyfk_describe(PyObject *o, PyObject *unused)
{
    (void)unused;
    pyfk_filter *self = (pyfk_filter *)o;
    pyfk_state *st = pyfk_state_of_type(Py_TYPE(o));
    int in = pyfk_enter(self, false);
    if (in < 0)
        return NULL;
    size_t n = 0;
    fk_describe_row *rows = NULL;
    fk_status s = fk_filter_describe(self->filter, NULL, 0, &n);
    if (s == FK_ELIMIT) {
        rows = PyMem_Malloc(n * sizeof *rows);
        s = rows ? fk_filter_describe(self->filter, rows, n, &n) : FK_ENOMEM;
    }
    pyfk_leave(self, in);
    PyObject *d = s == FK_OK ? rows_dict(rows, n) : pyfk_raise(st, s, "describe");
    PyMem_Free(rows);
    return d;
}

PyDoc_STRVAR(advance_doc, "advance($self, now=None, /)\n--\n\n"
"Moves a time window's clock to now, an int in the unit of its span. On the\n"
"default clock, clock=\"unix_ns\" (Unix time in nanoseconds, the clock of\n"
"`filterkit dedup --window-seconds` and of Redis keys, so their files go on\n"
"here), advance() with no argument reads time.time_ns() (and holds the clock\n"
"where it is if that is behind it: a wall clock stepped back); advance(now) takes\n"
"an explicit time in ns (a replay, a test). On clock=\"caller\" (your own unit:\n"
"whole seconds, a log's timestamps) now is required: advance() raises TypeError.\n"
"Every key added from then on is stamped with this time; a key added at time t\n"
"answers present while now - t < span, and is gone (answers present only at the\n"
"fpr) once now - t passes span + span/7 (the slack). The first call sets the\n"
"origin: keys added before it count as added then. now equal to the clock is a\n"
"no-op. ValueError when an explicit now is before the clock (it never goes back)\n"
"or past 2**62 (times stop there, so no boundary wraps: year 2116 in Unix ns),\n"
"nothing changed either way; UnsupportedError on a count window (no span).\n"
"Cost: O(1), plus one pass over the table (the sweep) for each generation\n"
"(span/7) passed, at most one pass for a long jump; a writer.");
const char pyfk_describe_doc[] = "describe($self)\n--\n\n"
"The filter's own figures as a dict, for every kind (what `filterkit info` prints\n"
"beyond stats()): its rows from the library's describe call, each under its name\n"
"(an int, a float, a bool, a str or None); rows x_0, x_1, ... as one list x; a\n"
"growing kind's links as \"chain\", a list of dicts (capacity, items, memory_bytes,\n"
"target_fpr, expected_fpr), oldest first. A window: mode (\"count\" or \"time\"),\n"
"clock (a time window's: \"unix_ns\" or \"caller\"; None), window (N inserts or span\n"
"ticks), generation_length (N/7 or span/7, rounded up), generation (the current\n"
"one's number), oldest_age (inserts or ticks since the oldest live generation\n"
"began), live and live_budget (slots in use and the most there may be),\n"
"generation_slots and generation_inserts ([0] the current generation, [7] the\n"
"oldest), swept_last, swept_total, refreshed, stashed, kicks, slots, buckets,\n"
"fingerprint_bits, slot_bits, seed; a time window's also refused, clock_set,\n"
"clock_id, timed, now, next_boundary. Cost: O(1) for most kinds, O(links) for a\n"
"growing one.";

PyMethodDef pyfk_timed_methods[] = {
    { "advance", window_advance, METH_VARARGS, advance_doc },
    { NULL, NULL, 0, NULL },
};

/* ---------------------------------------------------------- attributes */
static PyObject *get_span(PyObject *o, void *unused)
{
    (void)unused;
    win_clock d;
    if (describe_of((pyfk_filter *)o, &d))
        return NULL;
    if (!d.timed)
        Py_RETURN_NONE;
    return PyLong_FromUnsignedLongLong(d.window);
}

static PyObject *get_now(PyObject *o, void *unused)
{
    (void)unused;
    win_clock d;
    if (describe_of((pyfk_filter *)o, &d))
        return NULL;
    if (!d.timed || !d.clock_set)
        Py_RETURN_NONE;
    return PyLong_FromUnsignedLongLong(d.now);
}

static PyObject *get_clock(PyObject *o, void *unused)
{
    (void)unused;
    win_clock d;
    if (describe_of((pyfk_filter *)o, &d))
        return NULL;
    const char *name = d.timed && d.clock_id <= FK_CLOCK_MAX ? fk_clock_name((uint32_t)d.clock_id) : NULL;
    if (!name)
        Py_RETURN_NONE;
    return PyUnicode_FromString(name);
}

PyGetSetDef pyfk_timed_getset[] = {
    { "span", get_span, NULL, "a time window's length in ticks (the unit of advance(now)); None for a "
      "count window (the last `capacity` adds)", NULL },
    { "clock", get_clock, NULL, "a time window's clock: \"unix_ns\" (Unix time in ns, time.time_ns(): "
      "advance() reads it) or \"caller\" (the caller's own ticks: advance(now) only); None for a "
      "count window", NULL },
    { "now", get_now, NULL, "a time window's clock: the last advance(now); None before the first one "
      "and for a count window", NULL },
    { NULL, NULL, NULL, NULL, NULL },
};
