/* common/tally.c: per-thread striped counters (see tally.h). */
#include <stdlib.h>
#include "tally.h"
#include "alloc.h"

/* One counter per 64-byte line, so two threads never share a line. */
struct fk_tally_stripes {
    struct {
        _Atomic uint64_t n;
        char pad[64 - sizeof(uint64_t)];
    } s[FK_TALLY_STRIPES];
};

/* The calling thread's stripe: handed out round-robin at its first add. */
static atomic_uint next_stripe;
static _Thread_local unsigned my_stripe_plus1; /* 0: not chosen yet */

static unsigned thread_stripe(void)
{
    if (!my_stripe_plus1)
        my_stripe_plus1 =
            1 + (atomic_fetch_add_explicit(&next_stripe, 1, memory_order_relaxed) &
                 (FK_TALLY_STRIPES - 1));
    return my_stripe_plus1 - 1;
}

/* The stripes, allocated on first use; the thread that loses the race to
 * install them frees its own. NULL when memory ran out. */
static fk_tally_stripes *stripes_of(fk_tally *t)
{
    fk_tally_stripes *s = atomic_load_explicit(&t->stripes, memory_order_acquire);
    if (s)
        return s;
    void *mem;
    if (fk_alloc_zeroed(sizeof *s, &mem) != FK_OK)
        return NULL;
    fk_tally_stripes *expected = NULL;
    if (atomic_compare_exchange_strong_explicit(&t->stripes, &expected, mem,
                                                memory_order_acq_rel, memory_order_acquire))
        return mem;
    free(mem);
    return expected;
}

void fk_tally_add(fk_tally *t, uint64_t delta)
{
    fk_tally_stripes *s = stripes_of(t);
    if (s)
        atomic_fetch_add_explicit(&s->s[thread_stripe()].n, delta, memory_order_relaxed);
    else
        atomic_fetch_add_explicit(&t->shared, delta, memory_order_relaxed);
}

uint64_t fk_tally_sum(const fk_tally *t)
{
    uint64_t sum = atomic_load_explicit(&t->shared, memory_order_relaxed);
    fk_tally_stripes *s = atomic_load_explicit(&t->stripes, memory_order_acquire);
    if (s)
        for (unsigned i = 0; i < FK_TALLY_STRIPES; i++)
            sum += atomic_load_explicit(&s->s[i].n, memory_order_relaxed);
    return sum;
}

void fk_tally_reset(fk_tally *t)
{
    atomic_store_explicit(&t->shared, 0, memory_order_relaxed);
    fk_tally_stripes *s = atomic_load_explicit(&t->stripes, memory_order_relaxed);
    if (s)
        for (unsigned i = 0; i < FK_TALLY_STRIPES; i++)
            atomic_store_explicit(&s->s[i].n, 0, memory_order_relaxed);
}

uint64_t fk_tally_bytes(const fk_tally *t)
{
    return atomic_load_explicit(&t->stripes, memory_order_relaxed) ? sizeof(fk_tally_stripes) : 0;
}

void fk_tally_release(fk_tally *t)
{
    if (!t)
        return;
    free(atomic_load_explicit(&t->stripes, memory_order_relaxed));
    atomic_store_explicit(&t->stripes, NULL, memory_order_relaxed);
    atomic_store_explicit(&t->shared, 0, memory_order_relaxed);
}
