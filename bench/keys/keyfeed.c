/* bench/keys/keyfeed.c: see keyfeed.h. */
#include <errno.h>
#include <string.h>
#include "keyfeed.h"
#include "lineset.h"
#include "../clock/progress.h"

/* The set of seen lines is sized for the expected count up front (no
 * doubling, whose old and new tables would briefly coexist), but for no
 * more lines than this (1.4 GB), and grows past it as lines arrive. */
#define PRESIZE_MAX (UINT64_C(1) << 26)
/* Lines between two looks at the progress clock. */
#define PROGRESS_EVERY 0xffffu

fk_status fkc_feed_lines(fk_filter *f, fkc_feed_op op, fkc_linereader *r, uint64_t expected,
                        int unique_input, const char *progress, fkc_feed_counts *c)
{
    memset(c, 0, sizeof *c);
    const fk_ops *ops = fk_filter_ops(f);
    int exact = !unique_input && (op == FKC_FEED_REMOVE || (fk_ops_caps(ops) & FK_CAP_REMOVE));
    fkc_lineset seen;
    if (exact && fkc_lineset_init(&seen, expected < PRESIZE_MAX ? expected : PRESIZE_MAX) != 0)
        return FK_ENOMEM;
    fkc_progress_begin();
    fk_status s = FK_OK;
    const char *key;
    size_t len;
    int got;
    while ((got = fkc_linereader_next(r, &key, &len)) == 1) {
        c->lines++;
        if ((c->lines & PROGRESS_EVERY) == 0) {
            char at[64];
            fkc_linereader_progress(r, at, sizeof at);
            fkc_progress("%s: %s", progress, at);
        }
        int fresh = exact ? fkc_lineset_add(&seen, key, len)
                  : unique_input || !fk_filter_contains(f, key, len);
        if (fresh < 0) {
            s = FK_ENOMEM;
            break;
        }
        if (!fresh) {
            c->repeats++;
            continue;
        }
        s = op == FKC_FEED_INSERT ? fk_filter_insert(f, key, len) : fk_filter_remove(f, key, len);
        if (s == FK_ENOTFOUND && op == FKC_FEED_REMOVE) {
            c->absent++;
            s = FK_OK;
            continue;
        }
        if (s != FK_OK)
            break;
        c->done++;
    }
    if (got < 0) {
        c->read_err = errno;
        s = FK_EIO;
    }
    fkc_progress_end();
    if (exact)
        fkc_lineset_free(&seen);
    return s;
}
