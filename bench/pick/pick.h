/* bench/pick/pick.h: `pick` as a component: a query in (the workload: n,
 * fpr, what the filter must do, the budget, a window or a growth, the read
 * ratio, the keys to time with), a result out (every candidate kind with its
 * sizing, its measured figures, its verdict and the reason; the winner and
 * the rule that decided; the build / dedup, C and Python lines). It prints
 * nothing (but the progress note every long bench task shares on stderr,
 * bench/clock/progress.h): a refused query or a failed measurement is a
 * status and a message in the result. The CLI (`filterkit pick`,
 * bench/cli/cmd_pick.c) maps its options to a query and the result to text,
 * JSON and CSV; Python's filterkit.pick (python/src/pick.c) calls the same
 * fkc_pick and builds its dict from fkc_pick_doc. The only bench/ header outside bench/ may include
 * (tests/cli_layout.sh). */
#ifndef FKC_BENCH_PICK_H
#define FKC_BENCH_PICK_H

#include <stddef.h>
#include <stdint.h>
#include "../../common/filter.h"
#include "../baselines/runnable_kinds.h"
#include "../keys/workload.h"
#include "../measure/memory_limit.h"
#include "../measure/window_stream.h"
#include "../report/doc.h"
#include "../report/result.h"

/* The most items n, a window or --grow-to may name (the CLI's counts). */
#define FKC_PICK_COUNT_MAX (UINT64_C(1) << 48)
/* The most timed runs per figure. */
#define FKC_PICK_REPEAT_MAX UINT64_C(1000)
/* The decision (pick_rule.c): another kind is slower than the fastest when
 * its cost, paired round by round with the fastest's, is more than this
 * many times it in the median round and it was the slower in at least 7
 * rounds of 8; else the two are tied, and between tied kinds the fewest
 * random reads per lookup (the kind's describe row lookup_reads), then the
 * least memory, then the fixed (registry) order decide. */
#define FKC_PICK_MARGIN 1.25
/* The paired rounds a set or a growth is raced in (pick_race.c). */
#define FKC_PICK_ROUNDS 32u
/* The most rounds fkc_pick_rank weighs (a window's rounds are its runs). */
#define FKC_PICK_ROUNDS_MAX FKC_PICK_REPEAT_MAX
/* --n-uncertain without --grow-to: the growth the kinds are weighed over. */
#define FKC_PICK_UNCERTAIN_GROWTH 1024u

typedef struct {
    uint64_t n;              /* items (a set); with window_seconds: per window at the peak; 0: none */
    double   fpr;            /* the largest acceptable false-positive rate, in (0, 1) */
    int      deletes, is_static, counts, merges; /* what the filter must do */
    uint64_t memory;         /* budget in bytes; 0: none */
    double   headroom;       /* share of n added later; < 0: the default (25%) */
    int      uncertain;      /* n is a guess: weigh the kinds that grow */
    uint64_t grow_to;        /* the set grows to this without the keys; 0: no */
    uint64_t window;         /* a count window: the last N inserts; 0: none */
    uint64_t window_seconds; /* a time window of T s (with n or rate); 0: none */
    uint64_t rate;           /* items per second at the peak (time window) */
    double   read_ratio;     /* share of operations that are lookups, [0, 1] */
    fkc_keyspec keys;        /* the keys timed with (u64 for a window) */
    uint64_t seed, repeat;   /* keys and hash seed; timed runs per figure */
    int      no_timing;      /* time nothing: the sizing formulas decide */
    int      time_all;       /* time the kinds over the budget too (plot 8, CLI --out) */
} fkc_pick_query;

/* A query with the CLI's defaults: read ratio 0.9, u64 keys, seed 1, 3
 * runs, headroom by default; n and fpr still to give. */
void fkc_pick_query_init(fkc_pick_query *q);

typedef enum {
    FKC_PICK_OK = 0,      /* a kind was chosen */
    FKC_PICK_NONE,        /* nothing meets the constraints (each reason says why) */
    FKC_PICK_EINVAL,      /* the query is refused (message says why) */
    FKC_PICK_EFAIL        /* the measurement could not run (message says why) */
} fkc_pick_status;

typedef enum {
    FKC_PICK_CHOSEN,      /* the recommendation */
    FKC_PICK_LOST,        /* qualifies, lost to the chosen (reason says why) */
    FKC_PICK_RULED_OUT    /* does not qualify (reason says why) */
} fkc_pick_verdict;

typedef struct {
    const fk_ops *ops;
    fkc_pick_verdict verdict;
    int      baseline;    /* the benchmark's (a window baseline), never chosen */
    int      sized;       /* memory and theory are known */
    int      measured;    /* timed (r / the window figures and cost are set) */
    int      untimed;     /* ruled out by its sizing before any timing */
    int      tied;        /* tied on time with the fastest (the fastest too, when others are) */
    int      raced;       /* timed in the paired rounds (cost, ratio, rounds set) */
    double   ratio;       /* median over the paired rounds of its cost / the fastest's */
    size_t   slower_rounds, paired_rounds; /* rounds it was slower than the fastest in, of those paired */
    int      exact;       /* memory is exact, not extrapolated */
    uint64_t memory;      /* bytes at the capacity (growth: at the end); FKC_MODEL_TOO_BIG */
    uint64_t lookup_reads;/* random reads per lookup (describe's lookup_reads) of the raced filter; 0: none */
    double   fpr;         /* the rate it is made with (less for a kind doubling in place) */
    unsigned doublings;   /* --grow-to: fk_filter_grow calls to reach it */
    double   theory;      /* theoretical FPR holding `capacity` items */
    double   best_fpr;    /* the lowest theoretical FPR within the budget; NaN: none */
    double   cost, cost_low, cost_high; /* ns per operation at the read ratio: median, min, max over the
                                           paired rounds (res->rounds) */
    char     ruled_out[400]; /* why it does not qualify; "" when it does */
    char     reason[600];    /* JSON "reason": ruled_out, or why it lost; "" for the chosen */
    char     params[160];    /* its geometry in words */
    /* a set: the bench figures (growth mode: read at the end of the growth) */
    fkc_result r;
    int      grown;       /* the growth run took place */
    double   grow_bits, grow_fpr; /* at the end; the worst over the doublings (the same in every run) */
    double   grow_absent_ns, grow_absent_batch_ns, grow_insert_ns; /* medians over the q.repeat growth runs */
    fkc_summary grow_absent, grow_absent_batch, grow_insert;        /* median, min, max of those runs */
    uint64_t static_bytes; /* no pick: a static kind that fits n with --static; 0: none */
    /* a window */
    uint64_t lifetime;    /* inserts a key may answer present for, at most; 0: unknown */
    fkc_fpr_count band[FKC_BANDS];
    uint64_t window_checked, window_misses;
    double   outside, outside_low, outside_high; /* the worst band past the slack */
    int      worst_band;  /* -1: none */
    fkc_summary insert, absent, found;
} fkc_pick_candidate;

typedef struct {
    fkc_pick_status status;
    char     message[512];   /* EINVAL / EFAIL: why */
    fkc_pick_query q;        /* the query, with its defaults filled in */
    int      window_mode;    /* a window (count or time) was weighed */
    int      grows;          /* growth mode: --n-uncertain or --grow-to */
    uint64_t capacity;       /* what every kind is sized for */
    uint64_t window_items;   /* a window: N, the inserts (count) or items per T at the peak */
    double   headroom;       /* the headroom used */
    uint64_t end;            /* growth mode: the size weighed at */
    uint64_t run_n0;         /* growth mode: the run's start and doublings */
    unsigned run_doublings, doublings_wanted;
    uint64_t n_meas;         /* timed at this many items (0: nothing timed) */
    uint64_t stream;         /* a window: the stream's length (0: nothing timed) */
    size_t   nmeas;          /* candidates timed */
    fkc_pick_candidate c[FKC_KINDS_MAX];
    size_t   nc;
    int      best;           /* the chosen's index; -1: none */
    int      fastest;        /* the fastest qualifying; -1: none timed */
    size_t   ties;           /* kinds tied with the fastest */
    size_t   rounds;         /* the paired rounds the decision weighed (0: untimed) */
    int      smallest;       /* no pick: the smallest with the capabilities asked; -1 */
    uint64_t budget_for_best;/* the bytes best_fpr is reached within */
    double   floor_bits;     /* a window: log2(1/fpr) + log2(e) bits per window item */
    char     decided[800];   /* the rule that decided */
    char     fpr_text[40];   /* the target, shortest decimal */
    char     made_text[40];  /* the rate the chosen is made with */
    char     build[4600];    /* `filterkit build ...` (a window: `filterkit dedup ...`) */
    char     c_line[400], py_line[240], grow_line[300];
} fkc_pick_result;

/* Runs the pick: checks the query (FKC_PICK_EINVAL), sizes every kind,
 * rules out what the formulas and capabilities rule out, times the rest
 * briefly (seconds; at most 2M items, a window 1M), decides and writes the
 * lines that build the winner. Fills *res (caller-owned, about 36 KiB) and
 * returns res->status. Prints nothing but the shared progress note on
 * stderr (bench/clock/progress.h; FILTERKIT_PROGRESS=0 silences it); one
 * call at a time (the note is process-wide). */
fkc_pick_status fkc_pick(const fkc_pick_query *q, fkc_pick_result *res);

/* The whole decision as data (`filterkit pick --format json`, Python's
 * filterkit.pick): query, recommendation, candidates, run. Returns 0, or
 * -1 when out of memory (d->failed). The doc is d's (fkc_doc_free). */
int fkc_pick_doc(const fkc_pick_result *res, fkc_doc *d);

/* ------------------------------------------ Parquet's question (pick_parquet.c)
 *
 * What a Parquet writer asks for a column chunk of ndv distinct values at
 * false-positive probability fpp: the bitset size its rule gives
 * (fk_blocked_parquet_bytes), the split-block filter's FPR at that size by
 * the blocked Bloom formula with k = 8 (fk_ops_expected_fpr of the blocked
 * kind) and measured, and the memory that filter takes in filterkit (the
 * budget `filterkit pick --parquet` then weighs every kind at). */
typedef struct {
    uint64_t ndv;           /* distinct values asked */
    double   fpp;           /* the fpp asked */
    uint64_t bytes;         /* the bitset Parquet writers write */
    uint64_t memory;        /* bytes the filter takes in filterkit (bitset + header) */
    double   bits_per_value;/* 8 bytes / ndv */
    double   rule_bits_per_value; /* the rule's bits per value before rounding: -8 / ln(1 - fpp^(1/8)) */
    double   formula;       /* the blocked Bloom formula (k = 8) at ndv / blocks keys per block */
    double   rule_formula;  /* the same at the rule's bits before rounding (ndv x rule_bits_per_value) */
    double   fill_fpr;      /* the FPR the measured filter's bits give (its stats' expected_fpr) */
    double   measured;      /* absent values passing / probes */
    uint64_t measured_ndv, measured_bytes; /* what was measured: the same keys per block as
                                              (ndv, bytes), scaled down past FKC_PICK_PARQUET_KEYS */
    uint64_t probes, passed;
} fkc_pick_parquet_result;

/* The most values the measurement inserts: past it ndv and the bitset are
 * halved together (the keys per block, hence the FPR, stay the same). */
#define FKC_PICK_PARQUET_KEYS (UINT64_C(1) << 22)
/* Absent values probed: enough for about 1000 false positives, in [2^20, 2^24]. */
#define FKC_PICK_PARQUET_PROBES_MIN (UINT64_C(1) << 20)
#define FKC_PICK_PARQUET_PROBES_MAX (UINT64_C(1) << 24)

/* Answers Parquet's question for (ndv, fpp), measuring with keys drawn from
 * seed (the same seed, the same figures). Returns 0; -1 with message (len
 * bytes) set when fpp is not in (0, 1), ndv is 0 or memory runs out.
 * Prints nothing. Cost: inserting up to FKC_PICK_PARQUET_KEYS values and
 * probing up to FKC_PICK_PARQUET_PROBES_MAX (about a second). */
int fkc_pick_parquet(uint64_t ndv, double fpp, uint64_t seed, fkc_pick_parquet_result *out,
                     char *message, size_t len);

/* The decision rule alone (pick_rule.c), on figures paired by round:
 * cost[k * rounds + r] is candidate k's cost in round r (ns per operation;
 * NaN or <= 0 where it was not timed), reads[k] the random reads its
 * lookup makes (the first tie-break; 0 where the kind gives none: it ranks
 * after every kind that does; reads NULL: none given), memory[k] its exact
 * memory (the second), eligible[k] whether it may be chosen (a baseline is
 * ranked but never chosen). Candidates are in the fixed order that breaks
 * the rest. Pure: the same figures give the same answer. */
typedef struct {
    size_t nk, rounds;        /* nk <= FKC_KINDS_MAX, rounds <= FKC_PICK_ROUNDS_MAX */
    const double *cost;
    const uint64_t *memory;
    const int *eligible;
    const uint64_t *reads;
} fkc_pick_rank_in;

typedef struct {
    int    fastest, winner;   /* indexes into the input; -1: none eligible was timed */
    size_t ties;              /* eligible kinds tied with the fastest, not counting it */
    int    tied[FKC_KINDS_MAX];      /* too close to the fastest to separate (the fastest too, when ties) */
    int    separated[FKC_KINDS_MAX]; /* slower than the fastest beyond the margin */
    double ratio[FKC_KINDS_MAX];     /* median of cost / the fastest's, round by round */
    size_t slower_rounds[FKC_KINDS_MAX], paired_rounds[FKC_KINDS_MAX];
    double cost[FKC_KINDS_MAX], cost_low[FKC_KINDS_MAX], cost_high[FKC_KINDS_MAX]; /* median, min, max */
} fkc_pick_ranking;

/* Ranks in->nk candidates (see FKC_PICK_MARGIN): the fastest is the one
 * whose highest median ratio to any other eligible timed one is lowest; a candidate
 * is tied with it unless its median ratio to it is above FKC_PICK_MARGIN
 * and it was the slower in at least 7 of 8 paired rounds; the winner is,
 * among the fastest and its ties, the fewest reads, then the least memory,
 * then the first. Fills
 * *out; returns 0, or -1 when rounds is over FKC_PICK_ROUNDS_MAX. */
int fkc_pick_rank(const fkc_pick_rank_in *in, fkc_pick_ranking *out);

/* The program's name as the user runs it again, for the build line:
 * "filterkit" when that is it on PATH, else argv[0] as typed (an absolute
 * path below the working folder made relative to it: "build/filterkit";
 * a bare name as "./name"), quoted for a shell where it needs to be. */
void fkc_pick_runnable_name(char *buf, size_t len);

#endif
