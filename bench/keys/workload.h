/* bench/keys/workload.h: the keys a benchmark uses, generated before any clock
 * starts and stored back to back so the timed loops only walk arrays.
 *
 * Three key sources: 8-byte random integers (u64), random byte strings of
 * 8..64 bytes (str), or the lines of a file. Positive keys (the ones
 * inserted) and negative keys (the ones probed for false positives) are
 * disjoint by construction: generated key j is built from splitmix64's
 * bijective output on a counter, positives use even j and negatives odd j,
 * and a string key starts with that unique 8-byte word. For a file, the
 * negatives are the file's other lines plus generated strings, each checked
 * against the positives.
 */
#ifndef FKC_BENCH_WORKLOAD_H
#define FKC_BENCH_WORKLOAD_H

#include <stddef.h>
#include <stdint.h>
#include "keygen.h"
#include "keyset.h"

typedef enum { FKC_KEYS_U64, FKC_KEYS_STR, FKC_KEYS_FILE } fkc_key_type;

typedef struct {
    fkc_key_type type;
    const char *path;  /* FKC_KEYS_FILE: the file, one key per line */
    uint64_t    seed;  /* picks every generated key and every mix */
    int         binary_lines; /* FKC_KEYS_FILE: keep a '\r' before '\n' (keylines.h) */
} fkc_keyspec;

/* Parses "u64", "str" or a file path into spec->type/path (a name that is
 * neither is taken as a path). Returns 0, or -1 for an empty string. */
int fkc_keyspec_parse(const char *text, fkc_keyspec *spec);

/* "u64", "str" or "file". */
const char *fkc_key_type_name(fkc_key_type t);

typedef struct {
    fkc_keyspec spec;
    fkc_keyset  pos;   /* keys to insert, distinct */
    fkc_keyset  neg;   /* keys never inserted, distinct, disjoint from pos */
} fkc_workload;

/* Builds npos positives and nneg negatives. For a file, pos holds the first
 * npos distinct lines (fewer if the file has fewer; check pos.count). On
 * failure returns -1 and writes a one-line reason into err. */
int fkc_workload_make(const fkc_keyspec *spec, size_t npos, size_t nneg,
                     fkc_workload *w, char *err, size_t errlen);

void fkc_workload_free(fkc_workload *w);

/* Writes positive key i into buf (FKC_STR_MAX bytes) and returns its length:
 * for i < pos.count the stored key, beyond that further generated keys that
 * continue the positive sequence (distinct from each other and from neg for
 * u64 and str). Used to fill a filter past n without storing the keys. */
size_t fkc_workload_pos_key(const fkc_workload *w, size_t i, uint8_t *buf);

/* Builds `count` lookup keys of which round(count * pct / 100) are drawn
 * from the first `avail` positives and the rest from the negatives, in a
 * random order picked by seed. Returns 0, or -1 when out of memory or a
 * source is empty. The number of positives is stored in *npos_out. */
int fkc_workload_mix(const fkc_workload *w, size_t avail, unsigned pct, size_t count,
                    uint64_t seed, fkc_keyset *out, size_t *npos_out);

#endif
