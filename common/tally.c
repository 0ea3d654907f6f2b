/* common/tally.c: per-thread striped counters (see tally.h). */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include "tally.h"
#include "alloc.h"

/* One counter per 64-byte line, so two threads never share a line. */
struct fk_tally_stripes {
    struct {
        _Atomic uint64_t n;
        char pad[FK_TALLY_LINE - sizeof(uint64_t)];
    } s[FK_TALLY_STRIPES];
};

_Static_assert(sizeof(((fk_tally_stripes *)0)->s[0]) == FK_TALLY_LINE,
               "fk_tally_add (tally.h) finds stripe i at i * FK_TALLY_LINE");

/* Each stripe index is owned by at most one living thread at a time, in
 * every tally at once: the owner adds with a plain load and store (no
 * locked instruction), since no other thread writes its stripe. A thread
 * claims a free index at its first add and gives it back when it exits
 * (the key's destructor); a thread that finds none free adds to the
 * tally's shared atomic. */
static atomic_uint stripes_taken;     /* bit i: index i has an owner */
static pthread_key_t owner_key;       /* value: index + 1, for the release */
static pthread_once_t owner_once = PTHREAD_ONCE_INIT;
static int owner_key_ok;
_Thread_local int fk_tally_thread_stripe = -2; /* -2: not claimed yet; -1: none free */

static void release_stripe(void *value)
{
    unsigned i = (unsigned)((uintptr_t)value - 1);
    atomic_fetch_and_explicit(&stripes_taken, ~(1u << i), memory_order_release);
}

static void make_owner_key(void)
{
    owner_key_ok = pthread_key_create(&owner_key, release_stripe) == 0;
}

static int claim_stripe(void)
{
    pthread_once(&owner_once, make_owner_key);
    if (!owner_key_ok)
        return -1;
    unsigned taken = atomic_load_explicit(&stripes_taken, memory_order_relaxed);
    for (;;) {
        unsigned free_bits = ~taken & ((1u << FK_TALLY_STRIPES) - 1);
        if (!free_bits)
            return -1;
        unsigned i = (unsigned)__builtin_ctz(free_bits);
        if (atomic_compare_exchange_weak_explicit(&stripes_taken, &taken, taken | (1u << i),
                                                  memory_order_acquire, memory_order_relaxed)) {
            if (pthread_setspecific(owner_key, (void *)(uintptr_t)(i + 1)) != 0) {
                release_stripe((void *)(uintptr_t)(i + 1));
                return -1;
            }
            return (int)i;
        }
    }
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

void fk_tally_add_slow(fk_tally *t, uint64_t delta)
{
    if (fk_tally_thread_stripe == -2)
        fk_tally_thread_stripe = claim_stripe();
    fk_tally_stripes *s = fk_tally_thread_stripe >= 0 ? stripes_of(t) : NULL;
    if (s) { /* this thread's own stripe: nobody else writes it */
        _Atomic uint64_t *n = &s->s[fk_tally_thread_stripe].n;
        atomic_store_explicit(n, atomic_load_explicit(n, memory_order_relaxed) + delta,
                              memory_order_relaxed);
    } else {
        atomic_fetch_add_explicit(&t->shared, delta, memory_order_relaxed);
    }
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

/* ------------------------------------------------------- fk_tallies */

static size_t row_words(unsigned fields)
{
    return FK_TALLY_ROW_WORDS(fields);
}

static size_t rows_bytes(unsigned fields)
{
    return (FK_TALLY_STRIPES + 1) * row_words(fields) * sizeof(uint64_t);
}

fk_status fk_tallies_prepare_slow(fk_tallies *t, unsigned fields)
{
    if (atomic_load_explicit(&t->rows, memory_order_acquire))
        return FK_OK;
    void *mem = aligned_alloc(64, rows_bytes(fields)); /* whole lines: no row shares one */
    if (!mem)
        return FK_ENOMEM;
    memset(mem, 0, rows_bytes(fields));
    uint64_t *expected = NULL;
    if (!atomic_compare_exchange_strong_explicit(&t->rows, &expected, mem, memory_order_acq_rel,
                                                 memory_order_acquire))
        free(mem);
    return FK_OK;
}

fk_tally_row fk_tallies_row_slow(fk_tallies *t, unsigned fields)
{
    if (fk_tally_thread_stripe == -2)
        fk_tally_thread_stripe = claim_stripe();
    uint64_t *rows = atomic_load_explicit(&t->rows, memory_order_acquire);
    unsigned i = fk_tally_thread_stripe >= 0 ? (unsigned)fk_tally_thread_stripe : FK_TALLY_STRIPES;
    return (fk_tally_row){ rows + i * row_words(fields), fk_tally_thread_stripe < 0 };
}

uint64_t fk_tallies_sum(const fk_tallies *t, unsigned fields, unsigned field)
{
    uint64_t *rows = atomic_load_explicit(&t->rows, memory_order_acquire);
    uint64_t sum = 0;
    if (rows)
        for (unsigned i = 0; i <= FK_TALLY_STRIPES; i++)
            sum += atomic_load_explicit((_Atomic uint64_t *)&rows[i * row_words(fields) + field],
                                        memory_order_relaxed);
    return sum;
}

void fk_tallies_reset(fk_tallies *t, unsigned fields)
{
    uint64_t *rows = atomic_load_explicit(&t->rows, memory_order_relaxed);
    if (rows)
        for (size_t i = 0; i < (FK_TALLY_STRIPES + 1) * row_words(fields); i++)
            atomic_store_explicit((_Atomic uint64_t *)&rows[i], 0, memory_order_relaxed);
}

uint64_t fk_tallies_bytes(const fk_tallies *t, unsigned fields)
{
    return atomic_load_explicit(&t->rows, memory_order_relaxed) ? rows_bytes(fields) : 0;
}

void fk_tallies_release(fk_tallies *t)
{
    if (!t)
        return;
    free(atomic_load_explicit(&t->rows, memory_order_relaxed));
    atomic_store_explicit(&t->rows, NULL, memory_order_relaxed);
}
