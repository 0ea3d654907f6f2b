/* bench/keys/lineset.c: see lineset.h. Open addressing with linear probing over
 * a table of any size (the multiply-high range reduction picks the first
 * slot, so no power-of-two rounding doubles its memory). */
#include <stdlib.h>
#include <string.h>
#include "lineset.h"
#include "../../common/hash.h"

/* Not the filters' seed: the set must not depend on --seed. */
#define LINESET_SEED UINT64_C(0x6c696e6573657431)
#define MIN_SLOTS 1024u

/* Slots for `lines` entries at most 3/4 full; 0 when that overflows. */
static size_t slots_for(uint64_t lines)
{
    if (lines > SIZE_MAX / 4 / (2 * sizeof(uint64_t)))
        return 0;
    size_t n = (size_t)lines / 3 * 4 + 4;
    return n < MIN_SLOTS ? MIN_SLOTS : n;
}

static size_t first_slot(uint64_t lo, size_t nslots)
{
    return (size_t)(((unsigned __int128)lo * nslots) >> 64);
}

/* Puts a hash known to be absent into the table (no resize). */
static void place(uint64_t *slot, size_t nslots, uint64_t lo, uint64_t hi)
{
    size_t i = first_slot(lo, nslots);
    while (slot[2 * i] | slot[2 * i + 1])
        i = i + 1 == nslots ? 0 : i + 1;
    slot[2 * i] = lo;
    slot[2 * i + 1] = hi;
}

static int alloc_slots(fkc_lineset *s, size_t nslots)
{
    uint64_t *slot = nslots ? calloc(nslots, 2 * sizeof *slot) : NULL;
    if (!slot)
        return -1;
    for (size_t i = 0; i < s->nslots; i++)
        if (s->slot[2 * i] | s->slot[2 * i + 1])
            place(slot, nslots, s->slot[2 * i], s->slot[2 * i + 1]);
    free(s->slot);
    s->slot = slot;
    s->nslots = nslots;
    return 0;
}

int fkc_lineset_init(fkc_lineset *s, uint64_t expected)
{
    memset(s, 0, sizeof *s);
    return alloc_slots(s, slots_for(expected));
}

int fkc_lineset_add(fkc_lineset *s, const void *line, size_t len)
{
    fk_hash128 h = fk_hash_key(line, len, LINESET_SEED);
    if (!(h.lo | h.hi)) {
        int fresh = !s->has_zero;
        s->has_zero = 1;
        s->count += (size_t)fresh;
        return fresh;
    }
    size_t i = first_slot(h.lo, s->nslots);
    for (;;) {
        uint64_t lo = s->slot[2 * i], hi = s->slot[2 * i + 1];
        if (lo == h.lo && hi == h.hi)
            return 0;
        if (!(lo | hi))
            break;
        i = i + 1 == s->nslots ? 0 : i + 1;
    }
    if ((s->count + 1) > s->nslots / 4 * 3) {
        size_t grown = s->nslots <= SIZE_MAX / 8 / sizeof(uint64_t) ? s->nslots * 2 : 0;
        if (alloc_slots(s, grown) != 0)
            return -1;
        place(s->slot, s->nslots, h.lo, h.hi);
    } else {
        s->slot[2 * i] = h.lo;
        s->slot[2 * i + 1] = h.hi;
    }
    s->count++;
    return 1;
}

void fkc_lineset_free(fkc_lineset *s)
{
    free(s->slot);
    memset(s, 0, sizeof *s);
}
