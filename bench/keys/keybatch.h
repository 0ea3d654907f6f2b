/* bench/keys/keybatch.h: lines collected into a batch for the fk_filter_*_many
 * calls (build, add, remove, query, dedup). The line reader's key is valid
 * only until its next line, so a batch copies the keys it holds. */
#ifndef FKC_BENCH_KEYBATCH_H
#define FKC_BENCH_KEYBATCH_H

#include <stddef.h>
#include <stdint.h>
#include "keylines.h"

/* Keys per batch: enough windows of the kinds' pipelines (common/
 * pipeline.h) that the start and end of a batch, where fewer misses
 * overlap, cost little. */
#define FKC_KEYBATCH_KEYS 256u
/* A batch also ends once its keys hold this many bytes (a longer single
 * line still makes a batch of one). */
#define FKC_KEYBATCH_BYTES ((size_t)1 << 20)

typedef struct {
    size_t      n;                         /* keys held */
    const void *keys[FKC_KEYBATCH_KEYS];    /* valid after fkc_keybatch_read */
    size_t      lens[FKC_KEYBATCH_KEYS];
    size_t      offset[FKC_KEYBATCH_KEYS];  /* key i is bytes + offset[i] */
    char       *bytes;
    size_t      used, cap;
    int         err;                       /* errno of the last -1 */
} fkc_keybatch;

void fkc_keybatch_init(fkc_keybatch *b);
void fkc_keybatch_free(fkc_keybatch *b);

/* Empties b and reads up to FKC_KEYBATCH_KEYS lines of r into it (fewer at
 * the end of the input or past FKC_KEYBATCH_BYTES). Returns 1 when b holds
 * at least one key, 0 at the end of the input (b empty), -1 on a read
 * error or ENOMEM (b->err says which; b still holds the keys read before
 * it, for the caller to finish with before it stops). */
int fkc_keybatch_read(fkc_keybatch *b, fkc_linereader *r);

#endif
