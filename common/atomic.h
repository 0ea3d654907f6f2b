/* common/atomic.h: relaxed atomic access to plain arrays (internal header).
 *
 * The filters keep their tables as plain uint8_t / uint32_t / uint64_t
 * arrays (the single-writer paths, serialization and set operations use
 * them as such). Where a lookup may run beside concurrent writers, or a
 * concurrent writer updates a word, the access goes through these helpers,
 * which view the element as its _Atomic type: in C11 a plain read racing
 * with a write is a data race, an atomic one is not, and ThreadSanitizer
 * agrees. Relaxed order suffices: a filter's bits and counters carry no
 * other data, and a key's insert has returned before the lookup that must
 * find it starts (the caller's synchronisation orders the two). On x86 a
 * relaxed load is the same mov as a plain one, and fetch_or a lock or. The
 * _Atomic types have the size and alignment of the plain ones on every
 * target gcc and clang support lock-free (checked below).
 */
#ifndef FK_ATOMIC_H
#define FK_ATOMIC_H

#include <stdatomic.h>
#include <stdint.h>

#if ATOMIC_LLONG_LOCK_FREE != 2 || ATOMIC_INT_LOCK_FREE != 2 || ATOMIC_CHAR_LOCK_FREE != 2
#error "filterkit's concurrent paths need lock-free 8-, 32- and 64-bit atomics"
#endif

/* True in ThreadSanitizer builds, where every access a concurrent
 * writer can race with must be an atomic one (vector paths step aside). */
#if defined(__SANITIZE_THREAD__)
#define FK_TSAN 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define FK_TSAN 1
#endif
#endif
#ifndef FK_TSAN
#define FK_TSAN 0
#endif

#define FK_RELAXED memory_order_relaxed

static inline uint64_t fk_load64(const uint64_t *p)
{
    return atomic_load_explicit((const _Atomic uint64_t *)p, FK_RELAXED);
}

static inline uint32_t fk_load32(const uint32_t *p)
{
    return atomic_load_explicit((const _Atomic uint32_t *)p, FK_RELAXED);
}

static inline uint8_t fk_load8(const uint8_t *p)
{
    return atomic_load_explicit((const _Atomic uint8_t *)p, FK_RELAXED);
}

static inline void fk_store8(uint8_t *p, uint8_t v)
{
    atomic_store_explicit((_Atomic uint8_t *)p, v, FK_RELAXED);
}

/* Sets the bits of mask in *p (one atomic read-modify-write). */
static inline void fk_or64(uint64_t *p, uint64_t mask)
{
    atomic_fetch_or_explicit((_Atomic uint64_t *)p, mask, FK_RELAXED);
}

static inline void fk_or32(uint32_t *p, uint32_t mask)
{
    atomic_fetch_or_explicit((_Atomic uint32_t *)p, mask, FK_RELAXED);
}

/* *p = desired when *p == *expected (true); else *expected = *p (false). */
static inline _Bool fk_cas8(uint8_t *p, uint8_t *expected, uint8_t desired)
{
    return atomic_compare_exchange_weak_explicit((_Atomic uint8_t *)p, expected, desired,
                                                 FK_RELAXED, FK_RELAXED);
}

#endif
