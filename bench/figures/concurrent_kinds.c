/* bench/figures/concurrent_kinds.c: inserts per second into one filter
 * through fk_filter_insert_concurrent, 1 thread against T, in one run,
 * for the kinds given (issue 51's quotient, expandable, window and growing
 * chains; any registered kind with the slot works). `make` builds it with
 * the other figure programs (`filterkit bench --threads` is the bench):
 *
 *   build/bench/figures/concurrent_kinds N T KIND...   (e.g. 2000000 2 quotient window)
 *
 * KIND window-time is the window kind made as a time window (its clock
 * left at 0, so the N keys land in one generation): its writers share no
 * ticket, where a count window's take one each.
 *
 * Each kind: a filter sized for N (a growing kind: for N / 64, so that it
 * grows), N distinct 8-byte keys inserted by 1 thread, then by T threads
 * (N / T each) into a fresh filter; best of 3 of each, interleaved so that
 * both see the same machine load. Prints the rates and their ratio, and
 * the CPU time per insert of each (the process's, all threads): on a
 * machine shared with other work the wall-clock ratio says little, while
 * the CPU ratio (1 thread's CPU time per insert over T threads') says
 * what the writers lose to each other (locks waited for, lines moved
 * between cores): 1.0 is none, and T cores to itself would then give
 * about T times the rate. */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "../../common/filter.h"
#include "../../registry/registry.h"

typedef struct {
    fk_filter *f;
    uint64_t   lo, hi;
    uint64_t   failed;
} job;

static uint64_t key_at(uint64_t i)
{
    uint64_t z = i + UINT64_C(0x9E3779B97F4A7C15);
    z = (z ^ (z >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94D049BB133111EB);
    return z ^ (z >> 31);
}

/* The failures are counted in a local and stored once: the jobs lie side
 * by side in one array, and a count written back after each insert (the
 * call may alias *j, so the compiler must) moved that line between the
 * threads on every insert, the program's own false share (it halved
 * bloom's and blocked's CPU per insert at 2 threads). */
static void *run(void *arg)
{
    job *j = arg;
    fk_filter *f = j->f;
    uint64_t failed = 0;
    for (uint64_t i = j->lo, hi = j->hi; i < hi; i++) {
        uint64_t k = key_at(i);
        failed += fk_filter_insert_concurrent(f, &k, sizeof k) != FK_OK;
    }
    j->failed = failed;
    return NULL;
}

static double clock_s(clockid_t id)
{
    struct timespec t;
    clock_gettime(id, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static double now_s(void)
{
    return clock_s(CLOCK_MONOTONIC);
}

/* Seconds for n inserts by `threads` threads into a new filter; -1 on
 * failure. *cpu: the process's CPU seconds meanwhile. */
static double timed(const fk_ops *ops, uint64_t span, uint64_t n, unsigned threads, double *cpu)
{
    fk_params p = fk_params_make((fk_ops_caps(ops) & FK_CAP_GROWS) ? n / 64 : n, 0.01);
    p.span = span; /* a time window of this many ticks (its clock never moves: n fit in it) */
    fk_filter *f = NULL;
    if (fk_filter_new(ops, &p, &f) != FK_OK)
        return -1;
    pthread_t id[64];
    job jobs[64];
    double t0 = now_s(), c0 = clock_s(CLOCK_PROCESS_CPUTIME_ID);
    for (unsigned t = 0; t < threads; t++) {
        jobs[t] = (job){ f, n * t / threads, n * (t + 1) / threads, 0 };
        pthread_create(&id[t], NULL, run, &jobs[t]);
    }
    uint64_t failed = 0;
    for (unsigned t = 0; t < threads; t++) {
        pthread_join(id[t], NULL);
        failed += jobs[t].failed;
    }
    double dt = now_s() - t0;
    *cpu = clock_s(CLOCK_PROCESS_CPUTIME_ID) - c0;
    fk_filter_free(f);
    return failed ? -1 : dt;
}

int main(int argc, char **argv)
{
    if (argc < 4) {
        fprintf(stderr, "usage: %s N T KIND...\n", argv[0]);
        return 2;
    }
    uint64_t n = strtoull(argv[1], NULL, 10);
    unsigned threads = (unsigned)strtoul(argv[2], NULL, 10);
    if (threads < 1 || threads > 64)
        return 2;
    for (int a = 3; a < argc; a++) {
        /* "window-time": a time window, whose writers share no ticket
         * (a count window's inserts take one each, its exact count) */
        uint64_t span = strcmp(argv[a], "window-time") == 0 ? UINT64_C(1) << 40 : 0;
        const fk_ops *ops = fk_ops_find(span ? "window" : argv[a]);
        if (!ops) {
            fprintf(stderr, "no kind %s\n", argv[a]);
            return 2;
        }
        double best1 = 1e30, bestT = 1e30, cpu1 = 1e30, cpuT = 1e30;
        for (int r = 0; r < 3; r++) {
            double c1, cT;
            double t1 = timed(ops, span, n, 1, &c1), tT = timed(ops, span, n, threads, &cT);
            cpu1 = c1 < cpu1 ? c1 : cpu1;
            cpuT = cT < cpuT ? cT : cpuT;
            if (t1 < 0 || tT < 0) {
                fprintf(stderr, "%s: an insert failed\n", argv[a]);
                return 1;
            }
            best1 = t1 < best1 ? t1 : best1;
            bestT = tT < bestT ? tT : bestT;
        }
        printf("%-16s n=%llu  1 thread %.2f M/s  %u threads %.2f M/s  ratio %.2fx  "
               "CPU ns/insert %.0f vs %.0f (%.2f)\n",
               argv[a], (unsigned long long)n, n / best1 / 1e6, threads, n / bestT / 1e6,
               best1 / bestT, 1e9 * cpu1 / n, 1e9 * cpuT / n, cpu1 / cpuT);
    }
    return 0;
}
