/* bench/keys/keyfeed.h: feeding the lines of an input into a filter, or removing
 * them from it, once per distinct line (build, add, remove).
 *
 * Inserts: for a kind that can remove (FK_CAP_REMOVE), every distinct line
 * is inserted, found distinct by an exact set of line hashes (lineset.h),
 * never by the filter's answer: a false-positive line skipped at build time
 * would later be removed from under the key it collides with (a false
 * negative). For a kind that cannot remove, a key the filter already
 * answers "maybe present" to is skipped: it stays "maybe present" forever,
 * so skipping it changes no answer (a Bloom insert of it would set no new
 * bit) and costs no memory; only stats.items then counts it once less.
 * A forgetting kind (FK_CAP_EXPIRES, window) gets every line, repeats
 * included: a repeat refreshes its key, and a line skipped for a false
 * "maybe" would leave with the older key it collides with, inside its
 * window (a false negative).
 * Removes: each distinct line is removed once.
 * With unique_input the caller vouches that no line repeats (sort -u):
 * every line is inserted or removed, and no set is kept. */
#ifndef FKC_BENCH_KEYFEED_H
#define FKC_BENCH_KEYFEED_H

#include <stdint.h>
#include "keylines.h"
#include "../../common/filter.h"

typedef struct {
    uint64_t lines;    /* lines read */
    uint64_t done;     /* keys inserted, or removed */
    uint64_t repeats;  /* lines skipped: a repeat of an earlier line (or, for a
                          kind without removes, already "maybe present") */
    uint64_t absent;   /* removes that answered FK_ENOTFOUND (definitely absent) */
    int      read_err; /* errno of a failed read (status FK_EIO) */
} fkc_feed_counts;

typedef enum { FKC_FEED_INSERT, FKC_FEED_REMOVE } fkc_feed_op;

/* Reads every line of r and inserts (or removes) its key in f, as above.
 * expected sizes the set of seen lines up front: pass the input's line
 * count when it is known, never a capacity (a --capacity far above the
 * input would cost 21 bytes per item never read); 0: it grows from small
 * as lines arrive, so its memory follows the lines read (about 21 bytes
 * per distinct line, 1.5x that while it doubles).
 * progress names the work on the TTY progress line ("build"). Returns FK_OK;
 * FK_EIO when reading fails (c->read_err says why); FK_ENOMEM when the set
 * cannot grow; else the first failing insert's or remove's status
 * (FK_EFULL, FK_EUNSUPPORTED, ...), with c counting what was done before it. */
fk_status fkc_feed_lines(fk_filter *f, fkc_feed_op op, fkc_linereader *r, uint64_t expected,
                        int unique_input, const char *progress, fkc_feed_counts *c);

#endif
