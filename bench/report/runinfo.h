/* bench/report/runinfo.h: what a result file records about how it was made:
 * commit, compiler and flags, native or portable build (all passed in by
 * the Makefile as FK_BUILD_* defines), CPU model and cache sizes, seed,
 * command line, date. */
#ifndef FKC_BENCH_RUNINFO_H
#define FKC_BENCH_RUNINFO_H

#include <stdint.h>

typedef struct {
    const char *commit;    /* git commit of the build ("-dirty" when modified) */
    const char *cc;        /* compiler command and version */
    const char *cflags;    /* flags the CLI was compiled with */
    const char *build;     /* "native" (-march=native) or "portable" */
    const char *libbloom;  /* baseline version, or "not built" */
    char        cpu[160];  /* /proc/cpuinfo model name, and core count */
    char        caches[160]; /* data cache sizes in bytes, from sysfs:
                                "L1d=49152 L2=2097152 L3=33554432" (plots mark them) */
    char        date[40];  /* UTC, ISO 8601 */
    char        loadavg[96]; /* /proc/loadavg's 1, 5 and 15 minute figures when
                                the program started, and the CPUs online:
                                "0.52 0.60 0.70 on 2 CPUs" (plots warn when high) */
    char        suiteload[32]; /* what a suite's own earlier steps add to the
                                   1-minute load average when the program
                                   started (FK_SUITE_STARTED, see
                                   fkc_runinfo_set_argv); "" outside a suite */
    char        otherload[160]; /* the CPU time other processes (and the
                                   hypervisor: steal) took while this run
                                   measured, from /proc/stat at start and at
                                   fkc_runinfo_fill, less this process's own:
                                   "0.85 of 2 CPUs over 42.1 s (steal 0.00,
                                   load average at end 1.10)"; "" where
                                   /proc/stat is unreadable. The plots warn
                                   on this, not on the load average at
                                   start (which lags by a minute) */
    char        command[2048];
    uint64_t    seed;
} fkc_runinfo;

/* Remembers the whole command line, the load average and the machine's
 * CPU times at start (called
 * once by main, before any work). Where the environment has
 * FK_SUITE_STARTED (the Unix time a suite of runs such as make bench
 * began), it also records the share of the 1-minute load average that the
 * suite's own earlier steps explain: one busy process for t seconds adds
 * up to 1 - exp(-t/60) (the kernel's exponential average), so a plot
 * warns only of load beyond it. */
void fkc_runinfo_set_argv(int argc, char **argv);
/* argv[0] as fkc_runinfo_set_argv saw it ("build/filterkit", "filterkit");
 * "" before it ran (or when it did not fit 1023 bytes). */
const char *fkc_runinfo_invoked_as(void);

/* Fills *ri for a run with this seed. */
void fkc_runinfo_fill(fkc_runinfo *ri, uint64_t seed);

/* A name/value view of *ri, for the writers: returns the i-th field's
 * name and value, or 0 past the end. */
int fkc_runinfo_field(const fkc_runinfo *ri, int i, const char **name, char *value, unsigned len);

#endif
