/* bench/keys/keyfeed.c: see keyfeed.h. */
#include <stdbool.h>
#include <string.h>
#include "keybatch.h"
#include "keyfeed.h"
#include "lineset.h"
#include "../clock/progress.h"
#include "../clock/timing.h"

/* The set of seen lines is sized for a known line count up front (no
 * doubling, whose old and new tables would briefly coexist), but for no
 * more lines than this (1.4 GB), and grows past it as lines arrive. */
#define PRESIZE_MAX (UINT64_C(1) << 26)
/* Lines between two looks at the progress clock. */
#define PROGRESS_EVERY 0xffffu

/* Writes the batch's keys whose fresh[i] is set: insert_many / remove_many
 * over each run between skipped keys; an absent key stops a remove batch,
 * which goes on after it. */
static fk_status write_fresh(fk_filter *f, fkc_feed_op op, const fkc_keybatch *b,
                             const bool fresh[], fkc_feed_counts *c)
{
    for (size_t i = 0; i < b->n;) {
        if (!fresh[i]) {
            i++;
            continue;
        }
        size_t run = 1;
        while (i + run < b->n && fresh[i + run])
            run++;
        size_t did = 0;
        fk_status s = op == FKC_FEED_INSERT
                          ? fk_filter_insert_many(f, run, b->keys + i, b->lens + i, &did)
                          : fk_filter_remove_many(f, run, b->keys + i, b->lens + i, &did);
        c->done += did;
        i += did;
        if (s == FK_ENOTFOUND && op == FKC_FEED_REMOVE) {
            c->absent++;
            i++;
            continue;
        }
        if (s != FK_OK)
            return s;
    }
    return FK_OK;
}

/* A kind without removes skips a key the filter already answers "maybe
 * present" to, as the filter stands when the key's turn comes: one batched
 * lookup for the whole batch (its lines are now in cache), then, once a
 * key of the batch went in, a single lookup again for each later key
 * (an insert only ever turns answers to "maybe"). */
static fk_status insert_unseen(fk_filter *f, const fkc_keybatch *b, fkc_feed_counts *c)
{
    bool maybe[FKC_KEYBATCH_KEYS];
    fk_filter_contains_many(f, b->n, b->keys, b->lens, maybe);
    bool changed = false;
    for (size_t i = 0; i < b->n; i++) {
        if (maybe[i] || (changed && fk_filter_contains(f, b->keys[i], b->lens[i]))) {
            c->repeats++;
            continue;
        }
        fk_status s = fk_filter_insert(f, b->keys[i], b->lens[i]);
        if (s != FK_OK)
            return s;
        c->done++;
        changed = true;
    }
    return FK_OK;
}

fk_status fkc_feed_lines(fk_filter *f, fkc_feed_op op, fkc_linereader *r, uint64_t expected,
                        int unique_input, const char *progress, fkc_feed_counts *c)
{
    memset(c, 0, sizeof *c);
    const fk_ops *ops = fk_filter_ops(f);
    /* a forgetting kind takes every occurrence: a repeat refreshes its key
     * (skipping one that answers "maybe" would let it expire too early, a
     * false negative inside the window) */
    if (op == FKC_FEED_INSERT && (fk_ops_caps(ops) & FK_CAP_EXPIRES))
        unique_input = 1;
    int exact = !unique_input && (op == FKC_FEED_REMOVE || (fk_ops_caps(ops) & FK_CAP_REMOVE));
    fkc_lineset seen;
    if (exact && fkc_lineset_init(&seen, expected < PRESIZE_MAX ? expected : PRESIZE_MAX) != 0)
        return FK_ENOMEM;
    fkc_keybatch b;
    fkc_keybatch_init(&b);
    fkc_progress_begin(progress, 0);
    uint64_t started = fkc_now_ns();
    fk_status s = FK_OK;
    int got;
    while (s == FK_OK && (got = fkc_keybatch_read(&b, r)) != 0) {
        uint64_t before = c->lines;
        c->lines += b.n;
        if ((before ^ c->lines) & ~(uint64_t)PROGRESS_EVERY) {
            char at[64], left[48] = "";
            fkc_linereader_progress(r, at, sizeof at);
            double secs = fkc_seconds(started, fkc_now_ns());
            if (r->total && r->bytes && secs > 0)
                snprintf(left, sizeof left, ", about %.0f s left",
                         secs * (double)(r->total - r->bytes) / (double)r->bytes);
            fkc_progress("%s, %.2fM lines/s%s", at, secs > 0 ? (double)c->lines / secs / 1e6 : 0.0, left);
        }
        if (exact || unique_input) {
            bool fresh[FKC_KEYBATCH_KEYS];
            for (size_t i = 0; i < b.n && s == FK_OK; i++) {
                int added = unique_input ? 1 : fkc_lineset_add(&seen, b.keys[i], b.lens[i]);
                if (added < 0)
                    s = FK_ENOMEM;
                fresh[i] = added > 0;
                c->repeats += added == 0;
            }
            if (s == FK_OK)
                s = write_fresh(f, op, &b, fresh, c);
        } else {
            s = insert_unseen(f, &b, c);
        }
        if (got < 0 && s == FK_OK) {
            c->read_err = b.err;
            s = FK_EIO;
        }
    }
    fkc_progress_end();
    fkc_keybatch_free(&b);
    if (exact)
        fkc_lineset_free(&seen);
    return s;
}
