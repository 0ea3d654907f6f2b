/* bench/cli/build_threads.h: `filterkit build --threads T`: the keys held
 * in memory, then inserted by T threads at once through
 * fk_filter_insert_concurrent. */
#ifndef FKC_BENCH_BUILD_THREADS_H
#define FKC_BENCH_BUILD_THREADS_H

#include <stddef.h>
#include <stdint.h>
#include "../../common/filter.h"
#include "../keys/keylines.h"

/* Keys read whole: key i is bytes[off[i] .. off[i+1]). */
typedef struct {
    char     *bytes;
    uint64_t *off;   /* count + 1 offsets */
    uint64_t  count;
} fkc_keylist;

/* Reads every key of r into *out, each distinct key once unless
 * unique_input (then every line). Returns 0, or -1 with errno (a read
 * error, or ENOMEM). */
int fkc_keylist_read(fkc_linereader *r, int unique_input, fkc_keylist *out);

void fkc_keylist_free(fkc_keylist *k);

/* Inserts every key of k into f with `threads` threads, each a contiguous
 * share, through fk_filter_insert_concurrent. Returns FK_OK, or the first
 * failing status one thread met (that thread stops; the others finish
 * their share); *done = successful inserts. */
fk_status fkc_insert_threads(fk_filter *f, const fkc_keylist *k, unsigned threads,
                             uint64_t *done);

#endif
