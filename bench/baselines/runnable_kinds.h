/* bench/baselines/runnable_kinds.h: the filters a benchmark can run: every
 * built-in kind of the library's registry (fk_ops_at), then the external
 * baselines compiled into this CLI (libbloom when libbloom-dev was present
 * at build time, and the sliding-window baselines of window_baselines.h).
 * All of them are driven through the same fk_ops vtable. */
#ifndef FKC_BENCH_RUNNABLE_KINDS_H
#define FKC_BENCH_RUNNABLE_KINDS_H

#include <stddef.h>
#include "../../common/filter.h"
#include "../../registry/registry.h"

#ifdef FK_HAVE_LIBBLOOM
/* libbloom 1.6 behind the vtable (bench/baselines/libbloom.c), loaded with
 * dlopen when first needed. */
extern const fk_ops fkc_libbloom_ops;
/* Loads libbloom.so.1 once; returns 1 when it is usable. */
int fkc_libbloom_load(void);
/* NULL when libbloom loaded, else why not (for messages). */
const char *fkc_libbloom_unavailable(void);
/* libbloom's own version string ("1.6"), or "not loaded". */
const char *fkc_libbloom_version(void);
#endif

/* The i-th runnable kind (built-ins first, then the baselines this build
 * has and can load: asking for one past the built-ins loads libbloom),
 * NULL past the end. */
const fk_ops *fkc_kind_at(size_t i);

/* The kind called name, or NULL. */
const fk_ops *fkc_kind_find(const char *name);

/* True for external baselines (not part of libfilterkit). */
int fkc_kind_is_baseline(const fk_ops *ops);

/* True for the sliding-window baselines (window_baselines.h: rotating-bloom,
 * apbf, apbf-best), which `--filters all` leaves to `bench --workload window`. */
int fkc_kind_is_window_baseline(const fk_ops *ops);

/* True when the kind with this name is a baseline this build left out or
 * cannot load (fkc_kind_missing_why says which). */
int fkc_kind_known_missing(const char *name);
const char *fkc_kind_missing_why(const char *name);

/* Parses a comma-separated list of names ("bloom,cuckoo", or "all") into
 * out[0..*n). Returns 0, or -1 with a one-line reason in err. */
#define FKC_KINDS_MAX 16
int fkc_kinds_parse(const char *list, const fk_ops **out, size_t *n, char *err, size_t errlen);

/* Writes the names of every runnable kind, comma-separated, into buf. */
void fkc_kinds_names(char *buf, size_t len);

#endif
