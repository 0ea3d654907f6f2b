/* python/src/window.c: what the forgetting kinds (FK_CAP_EXPIRES: window)
 * add to their class: the span= and clock= keywords that make a time
 * window, the clock (advance), describe(), and the span, now and clock
 * attributes. The kind is reached through window/window.h's public calls
 * only. A time window's clock is "unix_ns" by default (FK_CLOCK_UNIX_NS:
 * the CLI's and Redis's, so their files advance here on schedule, and
 * advance() with no argument reads time.time_ns()), or "caller" (the
 * caller's own ticks, FK_CLOCK_CALLER: advance(now) only). */
#include "pyfk.h" /* first: Python.h sets the feature macros */
#include <stdio.h>
#include <string.h>
#include "window/window.h"

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
int pyfk_window_take_span(PyObject *kw, bool expires, uint64_t *span, uint32_t *clock_id)
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

fk_status pyfk_window_new(const fk_ops *ops, const fk_params *p, uint64_t span, fk_filter **out)
{
    if (!span)
        return fk_filter_new(ops, p, out);
    *out = NULL;
    if (ops != &fk_window_ops)
        return FK_EUNSUPPORTED;
    fk_window *w = NULL;
    fk_status s = fk_window_new_time(p, span, &w);
    *out = fk_window_as_filter(w);
    return s;
}

uint64_t pyfk_window_span_of(const fk_filter *f)
{
    if (fk_filter_ops(f) != &fk_window_ops)
        return 0;
    fk_window_description d;
    fk_window_describe((const fk_window *)f, &d);
    return d.timed ? d.window : 0;
}

uint32_t pyfk_window_clock_of(const fk_filter *f)
{
    if (fk_filter_ops(f) != &fk_window_ops)
        return FK_CLOCK_CALLER;
    fk_window_description d;
    fk_window_describe((const fk_window *)f, &d);
    return d.clock;
}

/* ------------------------------------------------------------ methods */

/* The description of self's window, the writers done: 0, or -1. */
static int describe_of(pyfk_filter *self, fk_window_description *d)
{
    if (fk_filter_ops(self->filter) != &fk_window_ops) {
        PyErr_Format(pyfk_state_of_type(Py_TYPE(self))->UnsupportedError,
                     "a %s filter has no window to describe", fk_filter_ops(self->filter)->name);
        return -1;
    }
    int in = pyfk_enter(self, false);
    if (in < 0)
        return -1;
    fk_window_describe((const fk_window *)self->filter, d);
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
        fk_window_description c;
        if (describe_of(self, &c))
            return NULL;
        if (!c.timed)
            return pyfk_raise(st, FK_EUNSUPPORTED, "advance: a count window has no clock (a time "
                              "window is made with span=T)");
        if (c.clock != FK_CLOCK_UNIX_NS) {
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
    fk_window_description d = { 0 };
    if (fk_filter_ops(self->filter) == &fk_window_ops)
        fk_window_describe((const fk_window *)self->filter, &d);
    if (wall && d.clock_set && now < d.now)
        now = d.now; /* the wall clock behind the window's (stepped back): hold its time */
    fk_status s = fk_window_advance(self->filter, (uint64_t)now);
    pyfk_leave(self, in);
    if (s == FK_OK)
        Py_RETURN_NONE;
    char what[200];
    if (s == FK_EINVAL && now > FK_WINDOW_MAX_TIME)
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

static PyObject *u64_list(const uint64_t *v, size_t n)
{
    PyObject *l = PyList_New((Py_ssize_t)n);
    for (size_t i = 0; l && i < n; i++) {
        PyObject *x = PyLong_FromUnsignedLongLong(v[i]);
        if (!x) {
            Py_CLEAR(l);
            break;
        }
        PyList_SET_ITEM(l, (Py_ssize_t)i, x);
    }
    return l;
}

static PyObject *window_describe(PyObject *o, PyObject *unused)
{
    (void)unused;
    fk_window_description d;
    if (describe_of((pyfk_filter *)o, &d))
        return NULL;
    PyObject *slots = u64_list(d.generation_slots, FK_WINDOW_GENERATIONS);
    PyObject *inserts = slots ? u64_list(d.generation_inserts, FK_WINDOW_GENERATIONS) : NULL;
    if (!inserts) {
        Py_XDECREF(slots);
        return NULL;
    }
#define U(x) (unsigned long long)(x)
    return Py_BuildValue("{s:s,s:z,s:K,s:O,s:O,s:K,s:K,s:K,s:K,s:K,s:K,s:K,s:K,s:N,s:N,s:K,s:K,s:K,s:K,"
                         "s:K,s:I,s:I,s:K,s:K}",
                         "mode", d.timed ? "time" : "count",
                         "clock", d.timed ? fk_clock_name(d.clock) : NULL,
                         "window", U(d.window),
                         "clock_set", d.clock_set ? Py_True : Py_False,
                         "timed", d.timed ? Py_True : Py_False,
                         "now", U(d.now),
                         "next_boundary", U(d.next_boundary),
                         "generation_length", U(d.generation_length),
                         "generation", U(d.generation),
                         "oldest_age", U(d.oldest_age),
                         "live", U(d.live),
                         "live_budget", U(d.live_budget),
                         "slots", U(d.slots),
                         "generation_slots", slots,
                         "generation_inserts", inserts,
                         "swept_last", U(d.swept_last),
                         "swept_total", U(d.swept_total),
                         "refreshed", U(d.refreshed),
                         "refused", U(d.refused),
                         "kicks", U(d.kicks),
                         "fingerprint_bits", (unsigned)d.fingerprint_bits,
                         "slot_bits", (unsigned)d.slot_bits,
                         "buckets", U(d.buckets),
                         "seed", U(d.seed));
#undef U
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
PyDoc_STRVAR(describe_doc, "describe($self)\n--\n\n"
"The window's state as a dict (what `filterkit info` prints): mode (\"count\" or\n"
"\"time\"), clock (a time window's: \"unix_ns\" or \"caller\"; None), window (N inserts or span ticks), generation_length (N/7 or span/7,\n"
"rounded up), generation (the current one's number), oldest_age (inserts or ticks\n"
"since the oldest live generation began), live and live_budget (slots in use and\n"
"the most there may be), generation_slots and generation_inserts ([0] the current\n"
"generation, [7] the oldest), swept_last (slots the last sweep freed), swept_total,\n"
"refreshed (adds of a key already there), refused (adds refused for a time window\n"
"fed past its capacity), kicks, clock_set, timed, now, next_boundary, slots,\n"
"buckets, fingerprint_bits, slot_bits, seed. Cost: O(1).");

PyMethodDef pyfk_window_methods[] = {
    { "advance", window_advance, METH_VARARGS, advance_doc },
    { "describe", window_describe, METH_NOARGS, describe_doc },
    { NULL, NULL, 0, NULL },
};

/* ---------------------------------------------------------- attributes */
static PyObject *get_span(PyObject *o, void *unused)
{
    (void)unused;
    fk_window_description d;
    if (describe_of((pyfk_filter *)o, &d))
        return NULL;
    if (!d.timed)
        Py_RETURN_NONE;
    return PyLong_FromUnsignedLongLong(d.window);
}

static PyObject *get_now(PyObject *o, void *unused)
{
    (void)unused;
    fk_window_description d;
    if (describe_of((pyfk_filter *)o, &d))
        return NULL;
    if (!d.timed || !d.clock_set)
        Py_RETURN_NONE;
    return PyLong_FromUnsignedLongLong(d.now);
}

static PyObject *get_clock(PyObject *o, void *unused)
{
    (void)unused;
    fk_window_description d;
    if (describe_of((pyfk_filter *)o, &d))
        return NULL;
    const char *name = d.timed ? fk_clock_name(d.clock) : NULL;
    if (!name)
        Py_RETURN_NONE;
    return PyUnicode_FromString(name);
}

PyGetSetDef pyfk_window_getset[] = {
    { "span", get_span, NULL, "a time window's length in ticks (the unit of advance(now)); None for a "
      "count window (the last `capacity` adds)", NULL },
    { "clock", get_clock, NULL, "a time window's clock: \"unix_ns\" (Unix time in ns, time.time_ns(): "
      "advance() reads it) or \"caller\" (the caller's own ticks: advance(now) only); None for a "
      "count window", NULL },
    { "now", get_now, NULL, "a time window's clock: the last advance(now); None before the first one "
      "and for a count window", NULL },
    { NULL, NULL, NULL, NULL, NULL },
};
