/* python/src/lock.c: the per-filter lock that GIL-free sections and
 * writers meet at (pyfk.h says how it is used).
 *
 * One PyThread lock per filter, `room`, held while the filter has a
 * holder: a writer alone, or a group of readers (the first in takes it,
 * the last out releases it, from whatever thread: a PyThread lock may be
 * released by another thread than the one that took it). The counts are
 * changed with the GIL held, so a reader joins a running group with no
 * lock call, and a GIL-held call checks them with no lock call. Every wait
 * blocks in PyThread_acquire_lock_timed with the GIL released, never with
 * it held (the holder may need the GIL to finish); a thread blocked on a
 * filter's room holds only filters of lower address. */
#include "pyfk.h" /* first: Python.h sets the feature macros */

/* Blocks until this thread has f's room: the GIL is released meanwhile and
 * held again on return. 0, or -1 when a signal handler raised. */
static int take_room(pyfk_filter *f)
{
    for (;;) {
        PyLockStatus got;
        Py_BEGIN_ALLOW_THREADS
        got = PyThread_acquire_lock_timed(f->room, -1, 1); /* 1: a signal ends the wait */
        Py_END_ALLOW_THREADS
        if (got == PY_LOCK_ACQUIRED)
            return 0;
        if (PyErr_CheckSignals() < 0)
            return -1;
    }
}

static int hold_one(pyfk_filter *f, bool write)
{
    if (!f->writer) {
        if (!write && f->readers > 0 && f->writers_waiting == 0) {
            f->readers++; /* a group reads: join it */
            return 0;
        }
        if (f->readers == 0 && PyThread_acquire_lock(f->room, NOWAIT_LOCK)) {
            if (write)
                f->writer = true;
            else
                f->readers = 1;
            return 0;
        }
    }
    /* a holder is there (or one about to start): wait for the room */
    if (write)
        f->writers_waiting++;
    int rc = take_room(f);
    if (write)
        f->writers_waiting--;
    if (rc)
        return -1;
    /* the room is ours: nobody else holds f */
    if (write)
        f->writer = true;
    else
        f->readers = 1;
    return 0;
}

static void unhold_one(pyfk_filter *f, bool write)
{
    if (write)
        f->writer = false;
    else if (--f->readers > 0)
        return; /* the group goes on: its last reader releases the room */
    PyThread_release_lock(f->room);
}

int pyfk_hold(pyfk_filter *w, pyfk_filter *r)
{
    if (w == r)
        r = NULL;
    /* address order: every thread takes two filters the same way round */
    pyfk_filter *first = w, *second = r;
    bool first_writes = true;
    if (!w || (r && (uintptr_t)r < (uintptr_t)w)) {
        first = r;
        second = w;
        first_writes = false;
    }
    if (first && hold_one(first, first_writes))
        return -1;
    if (second && hold_one(second, !first_writes)) {
        unhold_one(first, first_writes);
        return -1;
    }
    return 0;
}

void pyfk_unhold(pyfk_filter *w, pyfk_filter *r)
{
    if (w == r)
        r = NULL;
    if (r)
        unhold_one(r, false);
    if (w)
        unhold_one(w, true);
}

int pyfk_enter_slow(pyfk_filter *f, bool write)
{
    /* A writer counts as waiting, so no batch joins the readers it waits
     * for. Once the room is ours nobody holds f, and none can start until
     * pyfk_leave (a holder needs the room). */
    if (write)
        f->writers_waiting++;
    int rc = take_room(f);
    if (write)
        f->writers_waiting--;
    return rc ? -1 : 1;
}
