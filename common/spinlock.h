/* common/spinlock.h: a one-byte lock for the concurrent writers (internal
 * header).
 *
 * A test-and-test-and-set lock: the owner's hold is short (a run's shift,
 * a bucket's write), so waiters spin on a plain load (their cache line
 * stays shared until the owner's release), then yield the CPU after a
 * while: more threads than cores (the tests run 4 on 2) must not spin
 * through the owner's time slice. A byte, so a filter may keep one per
 * region of its table, or one in its struct, zero meaning unlocked (a
 * zeroed allocation is an array of unlocked locks).
 */
#ifndef FK_SPINLOCK_H
#define FK_SPINLOCK_H

#include <sched.h>
#include <stdatomic.h>

#if defined(__x86_64__) || defined(__i386__)
#define FK_SPIN_PAUSE() __builtin_ia32_pause()
#else
#define FK_SPIN_PAUSE() ((void)0)
#endif

static inline void fk_spin_lock(_Atomic unsigned char *l)
{
    for (unsigned spins = 0;; spins++) {
        if (!atomic_load_explicit(l, memory_order_relaxed) &&
            !atomic_exchange_explicit(l, 1, memory_order_acquire))
            return;
        if (spins >= 64) {
            sched_yield();
            spins = 0;
        }
        FK_SPIN_PAUSE();
    }
}

static inline void fk_spin_unlock(_Atomic unsigned char *l)
{
    atomic_store_explicit(l, 0, memory_order_release);
}

/* Lock i of an array of lock bytes (allocated zeroed, used only through
 * these calls). */
static inline _Atomic unsigned char *fk_spin_at(unsigned char *locks, unsigned long long i)
{
    return (_Atomic unsigned char *)&locks[i];
}

#endif
