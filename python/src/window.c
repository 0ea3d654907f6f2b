/* python/src/window.c: what the forgetting kinds (FK_CAP_EXPIRES: window)
 * add to their class: the span= keyword that makes a time window, the
 * clock (advance), describe(), and the span and now attributes. The kind
 * is reached through window/window.h's public calls only. */
#include "pyfk.h" /* first: Python.h sets the feature macros */
#include <stdio.h>
#include "window/window.h"

/* ------------------------------------------------------------ making */

/* Reads and deletes "span" from kw (a dict the caller owns). */
int pyfk_window_take_span(PyObject *kw, bool expires, uint64_t *span)
{
    *span = 0;
    PyObject *v = kw ? PyDict_GetItemString(kw, "span") : NULL; /* borrowed */
    if (!v)
        return 0;
    Py_INCREF(v);
    int rc = PyDict_DelItemString(kw, "span");
    if (rc == 0 && v != Py_None) {
        if (!expires) {
            PyErr_SetString(PyExc_TypeError, "unexpected keyword argument 'span' (only a window "
                                             "kind takes it: filterkit.Window)");
            rc = -1;
        } else if (PyBool_Check(v) || !PyLong_Check(v)) {
            PyErr_Format(PyExc_TypeError, "span must be an int (ticks, the unit of advance(now), "
                         "e.g. nanoseconds of time.monotonic_ns()), not %.200s", Py_TYPE(v)->tp_name);
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
    return rc;
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

static PyObject *window_advance(PyObject *o, PyObject *arg)
{
    pyfk_filter *self = (pyfk_filter *)o;
    pyfk_state *st = pyfk_state_of_type(Py_TYPE(o));
    if (PyBool_Check(arg) || !PyLong_Check(arg)) {
        PyErr_Format(PyExc_TypeError, "advance(now): now must be an int in the unit of span "
                     "(e.g. time.monotonic_ns()), not %.200s", Py_TYPE(arg)->tp_name);
        return NULL;
    }
    unsigned long long now = PyLong_AsUnsignedLongLong(arg);
    if (now == (unsigned long long)-1 && PyErr_Occurred()) {
        PyErr_Clear();
        PyErr_SetString(PyExc_ValueError, "advance(now): now must be in 0 .. 2**64-1");
        return NULL;
    }
    int in = pyfk_enter(self, true); /* a writer: it may sweep */
    if (in < 0)
        return NULL;
    fk_window_description d = { 0 };
    if (fk_filter_ops(self->filter) == &fk_window_ops)
        fk_window_describe((const fk_window *)self->filter, &d);
    fk_status s = fk_window_advance(self->filter, (uint64_t)now);
    pyfk_leave(self, in);
    if (s == FK_OK)
        Py_RETURN_NONE;
    char what[200];
    if (s == FK_EINVAL)
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
    return Py_BuildValue("{s:s,s:K,s:O,s:O,s:K,s:K,s:K,s:K,s:K,s:K,s:K,s:K,s:N,s:N,s:K,s:K,s:K,s:K,s:K,"
                         "s:I,s:I,s:K,s:K}",
                         "mode", d.timed ? "time" : "count",
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

PyDoc_STRVAR(advance_doc, "advance($self, now, /)\n--\n\n"
"Moves a time window's clock to now: an int in the unit of its span (the caller\n"
"picks it and keeps to it: ticks of time.monotonic_ns() with span in nanoseconds,\n"
"whole seconds with span in seconds; the library reads no clock). Every key added\n"
"from then on is stamped with this time; a key added at time t answers present\n"
"while now - t < span, and is gone (answers present only at the fpr) once now - t\n"
"passes span + span/7 (the slack). The first call sets the origin: keys added\n"
"before it count as added then. now equal to the clock is a no-op.\n"
"ValueError when now is before the clock (it never goes back; nothing changes),\n"
"UnsupportedError on a count window (made without span). Cost: O(1), plus one\n"
"pass over the table (the sweep) for each generation (span/7) passed, at most one\n"
"pass for a long jump; a writer.");
PyDoc_STRVAR(describe_doc, "describe($self)\n--\n\n"
"The window's state as a dict (what `filterkit info` prints): mode (\"count\" or\n"
"\"time\"), window (N inserts or span ticks), generation_length (N/7 or span/7,\n"
"rounded up), generation (the current one's number), oldest_age (inserts or ticks\n"
"since the oldest live generation began), live and live_budget (slots in use and\n"
"the most there may be), generation_slots and generation_inserts ([0] the current\n"
"generation, [7] the oldest), swept_last (slots the last sweep freed), swept_total,\n"
"refreshed (adds of a key already there), refused (adds refused for a time window\n"
"fed past its capacity), kicks, clock_set, timed, now, next_boundary, slots,\n"
"buckets, fingerprint_bits, slot_bits, seed. Cost: O(1).");

PyMethodDef pyfk_window_methods[] = {
    { "advance", window_advance, METH_O, advance_doc },
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

PyGetSetDef pyfk_window_getset[] = {
    { "span", get_span, NULL, "a time window's length in ticks (the unit of advance(now)); None for a "
      "count window (the last `capacity` adds)", NULL },
    { "now", get_now, NULL, "a time window's clock: the last advance(now); None before the first one "
      "and for a count window", NULL },
    { NULL, NULL, NULL, NULL, NULL },
};
