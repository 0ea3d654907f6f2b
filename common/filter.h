/* common/filter.h: the one interface every filter kind implements.
 *
 * A kind (each folder of the library, or one a program registers with
 * fk_ops_register) fills in an fk_ops table; every filter object begins with an fk_filter header
 * that points at that table, and the fk_filter_* functions below dispatch
 * through it. Optional methods are NULL and the dispatcher answers
 * FK_EUNSUPPORTED for them, never crashes (the SQLite VFS habit).
 *
 * Keys are byte strings (pointer + length). A zero-length key is a valid key
 * (its pointer may be NULL); a NULL pointer with len > 0 is FK_EINVAL.
 *
 * A kind tells what it can do only through its table: whether it removes
 * or saves (the slots; fk_ops_caps), its sizing (fk_ops_size) and theory
 * (fk_ops_expected_fpr), and its extra verbs and figures through the
 * generic slots: a clock (fk_filter_advance, _contains_at, _stats_at) and
 * rows describing it (fk_filter_describe). Callers never compare kind names
 * or ops tables, and need no kind's typed call. Adding a kind:
 * CONTRIBUTING.md.
 *
 * Thread safety: the fk_ops_* calls read only the table and may run
 * concurrently. On one filter, which calls may run at the same time, from
 * any number of threads ("no": the caller must keep them apart):
 *
 *                          contains,       contains_     insert_/remove_  plain writers
 *                          contains_many   concurrent    concurrent       (insert, remove,
 *                                                                         the batches, ...)
 *   contains, contains_many    yes            yes          yes (1)(3)       no (2)
 *   contains_concurrent        yes            yes          yes (1)          no
 *   insert_/remove_concurrent  yes (1)(3)     yes (1)      yes (1)          no
 *   plain writers              no (2)         no           no               no
 *
 * (1) for kinds with the version-4 slots (bloom, blocked, counting, cuckoo,
 *     quotient, expandable, window, the growing chains;
 *     fk_filter_insert_concurrent answers FK_EUNSUPPORTED for the others;
 *     remove_concurrent where the kind removes);
 *     fk_filter_insert_many_concurrent and _u64_concurrent are concurrent
 *     inserts too, for the same kinds.
 * (2) a cuckoo filter also lets one plain writer run beside its lookups
 *     (cuckoo/cuckoo.h).
 * (3) bloom, blocked, counting and cuckoo only: quotient, expandable,
 *     window and the growing chains move keys across several words while
 *     they write, so their readers beside concurrent writers use
 *     fk_filter_contains_concurrent (which takes the region's lock), and
 *     their plain lookups stay lock-free for the times without writers.
 * stats, saving and the set operations need the writers done. Each kind's
 * header has its own table.
 */
#ifndef FK_FILTER_H
#define FK_FILTER_H

#ifdef __cplusplus
extern "C" {
#endif

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "status.h"
#include "params.h"
#include "version.h"

typedef struct fk_ops fk_ops;
typedef struct fk_filter fk_filter;
typedef struct fk_serial_head fk_serial_head; /* defined in serial.h */
typedef struct fk_serial_ops fk_serial_ops;   /* defined in serial.h */

/* Capability flags, as fk_ops_caps answers them. A kind stores in
 * fk_ops.caps only what no slot can tell (COUNT, BOUNDED, GROWS, EXPIRES); REMOVE
 * and SERIALIZE are derived from the slots, never stored twice. */
#define FK_CAP_REMOVE    (1u << 0) /* derived: the remove slot is set */
#define FK_CAP_COUNT     (1u << 1) /* the kind can estimate multiplicities */
#define FK_CAP_SERIALIZE (1u << 2) /* derived: the serial slot is set */
#define FK_CAP_BOUNDED   (1u << 3) /* insert can answer FK_EFULL: the kind has a
                                      hard capacity (without it, inserts past
                                      capacity succeed and the FPR rises) */
#define FK_CAP_GROWS     (1u << 4) /* the filter grows instead of answering
                                      FK_EFULL (the scalable kinds): it needs
                                      no capacity up front */
#define FK_CAP_STATIC    (1u << 5) /* derived: the kind is built from the whole
                                      set (a build slot, no insert slot); its
                                      insert and remove answer FK_EUNSUPPORTED */
#define FK_CAP_MERGE     (1u << 6) /* derived: the merge slot is set */
#define FK_CAP_INTERSECT (1u << 7) /* derived: the intersect slot is set */
#define FK_CAP_RESIZES   (1u << 8) /* derived: the grow slot is set
                                      (fk_filter_grow doubles a filter in
                                      place without its keys, each doubling
                                      doubling its FPR at a given number of
                                      keys: quotient) */
#define FK_CAP_EXPIRES   (1u << 9) /* the kind forgets: a key leaves after a window of
                                      later inserts (or of time), and inserting a
                                      key again refreshes it (window): a stream
                                      inserts every occurrence, seen or not */
#define FK_CAP_DERIVED                                                                  \
    (FK_CAP_REMOVE | FK_CAP_SERIALIZE | FK_CAP_STATIC | FK_CAP_MERGE | FK_CAP_INTERSECT | \
     FK_CAP_RESIZES)

/* What a kind would build for given params, without building it, and what
 * theory expects of it (RocksDB's CalculateSpace and EstimatedFpRate):
 * fk_ops_size fills it. */
typedef struct {
    uint64_t memory_bytes; /* fk_stats.memory_bytes of a new filter made from
                              these params, all of it (table and struct) */
    double   expected_fpr; /* theoretical false-positive rate once it holds
                              the asked number of distinct items, in [0, 1] */
    char     geometry[96]; /* the derived shape in words, NUL-terminated:
                              "m = 9585059 bits, k = 7 probes" */
} fk_sizing;

/* ------------------------------------------------- describing a filter
 *
 * What a filter is made of and where it stands, beyond fk_stats, as rows of
 * {name, type, value} that fk_filter_describe fills: one loop prints them
 * for every kind (`filterkit info`, Redis FK.INFO, Python describe()), so a
 * client needs no kind's typed call. Names are lower_snake_case ASCII,
 * static strings the caller never frees; a kind keeps its names and their
 * order from release to release (clients show them as they come).
 *
 * One row every kind of filterkit ends with (0.5.0): lookup_reads, u64,
 * the most places in memory a lookup reads at random (bloom and counting
 * k, cuckoo and window 2, fuse 3, blocked, quotient, expandable and ribbon
 * 1, a chain the sum over its links). Each is a cache line, or
 * two neighbouring ones where a read straddles a line's end; once the
 * table is out of the cache each is a miss, the cost that separates the
 * kinds at 10^8 keys. `filterkit pick` breaks a tie on time with it. */
typedef enum {
    FK_DESCRIBE_U64 = 1, /* value.u64 */
    FK_DESCRIBE_DOUBLE,  /* value.d (may be infinite or NaN where the figure is) */
    FK_DESCRIBE_BOOL,    /* value.b */
    FK_DESCRIBE_STRING   /* value.s: NUL-terminated, static or owned by the
                            filter and valid until it next changes; NULL
                            for "none" (a count window's clock) */
} fk_describe_type;

typedef struct {
    const char      *name; /* "fingerprint_bits" */
    const char      *unit; /* what a u64 counts when it is not plain items or
                              bits: "inserts", "ns" (Unix ns, FK_CLOCK_UNIX_NS),
                              "caller ticks" (FK_CLOCK_CALLER); NULL otherwise.
                              A client showing other units converts the
                              "ns" rows (Redis: ms) */
    fk_describe_type type;
    union {
        uint64_t    u64;
        double      d;
        bool        b;
        const char *s;
    } value;
} fk_describe_row;

/* For a kind's describe slot: appends one row at rows[*n] when *n < cap and
 * counts it either way, so a slot adds every row and *n ends as the number
 * it has (fk_filter_describe then tells a short array). Cost: O(1). */
static inline void fk_describe_add(fk_describe_row *rows, size_t cap, size_t *n,
                                   const char *name, fk_describe_type type)
{
    if (*n < cap) {
        rows[*n].name = name;
        rows[*n].unit = NULL;
        rows[*n].type = type;
        rows[*n].value.u64 = 0;
    }
    ++*n;
}
static inline void fk_describe_u64(fk_describe_row *rows, size_t cap, size_t *n,
                                   const char *name, uint64_t v)
{
    fk_describe_add(rows, cap, n, name, FK_DESCRIBE_U64);
    if (*n <= cap)
        rows[*n - 1].value.u64 = v;
}
static inline void fk_describe_double(fk_describe_row *rows, size_t cap, size_t *n,
                                      const char *name, double v)
{
    fk_describe_add(rows, cap, n, name, FK_DESCRIBE_DOUBLE);
    if (*n <= cap)
        rows[*n - 1].value.d = v;
}
static inline void fk_describe_bool(fk_describe_row *rows, size_t cap, size_t *n,
                                    const char *name, bool v)
{
    fk_describe_add(rows, cap, n, name, FK_DESCRIBE_BOOL);
    if (*n <= cap)
        rows[*n - 1].value.b = v;
}
static inline void fk_describe_string(fk_describe_row *rows, size_t cap, size_t *n,
                                      const char *name, const char *v)
{
    fk_describe_add(rows, cap, n, name, FK_DESCRIBE_STRING);
    if (*n <= cap)
        rows[*n - 1].value.s = v;
}

/* Sets the unit of the row added last (when it was written). */
static inline void fk_describe_set_unit(fk_describe_row *rows, size_t cap, size_t *n,
                                        const char *unit)
{
    if (*n > 0 && *n <= cap)
        rows[*n - 1].unit = unit;
}

/* The row named `name` among rows[0..n), or NULL. Cost: O(n). */
static inline const fk_describe_row *fk_describe_find(const fk_describe_row *rows, size_t n,
                                                      const char *name)
{
    for (size_t i = 0; i < n; i++) {
        const char *a = rows[i].name, *b = name;
        while (*a && *a == *b)
            a++, b++;
        if (*a == *b)
            return &rows[i];
    }
    return NULL;
}

/* The most rows any built-in kind fills (a caller's array of this many
 * always suffices for them; fk_filter_describe says when it does not). */
#define FK_DESCRIBE_MAX_ROWS 48u

/* ------------------------------------------------------------ the vtable
 *
 * Versioned for binary compatibility, as SQLite's sqlite3_io_methods
 * (iVersion): tables compiled into programs outlive the library they were
 * built against, so slots are only ever appended, each new group under a
 * new version number, and the library reads a slot only when
 * ops->version says the table has it (a shorter, older table simply ends
 * before it). Callers go through fk_filter_* / fk_ops_*, which check.
 *
 *   version 1 (FK_OPS_V1): name .. serial (the core every kind has)
 *   version 2 (FK_OPS_V2): size (the kind's own sizing and theory;
 *                          fk_ops_size answers FK_EUNSUPPORTED for a
 *                          version-1 table)
 *   version 3 (FK_OPS_V3): contains_many .. remove_many (batches; without
 *                          them fk_filter_*_many loop over the single-key
 *                          slots, same answers)
 *   version 4 (FK_OPS_V4): insert_concurrent, remove_concurrent (writers
 *                          that may run together; without them the
 *                          fk_filter_*_concurrent calls answer
 *                          FK_EUNSUPPORTED)
 *   version 5 (FK_OPS_V5): contains_u64 .. remove_u64 (single 64-bit keys;
 *                          without them the 8 little-endian bytes go
 *                          through the byte slots, same answers), build,
 *                          build_u64 (a filter from the whole set; without
 *                          them create plus insert_many), count, merge,
 *                          intersect and grow (without them
 *                          FK_EUNSUPPORTED). A static kind
 *                          sets build and leaves create and insert NULL.
 *   version 6 (FK_OPS_V6): set_max_bytes (the byte limit of a kind that
 *                          gets larger after it is made; without it
 *                          fk_filter_set_max_bytes answers FK_EUNSUPPORTED),
 *                          advance, contains_at, stats_at (a clock given
 *                          by the caller: kinds with FK_CAP_EXPIRES),
 *                          describe (the kind's own figures as rows; the
 *                          door through which every kind's extra verbs and
 *                          figures reach a client that knows no kind)
 *   version 7 (FK_OPS_V7): insert_many_concurrent, insert_many_u64_concurrent
 *                          (batches of concurrent inserts; without them
 *                          fk_filter_insert_many_concurrent loops over the
 *                          version-4 insert_concurrent slot, and answers
 *                          FK_EUNSUPPORTED where that is missing too),
 *                          contains_concurrent (the lookup beside
 *                          concurrent writers of the kinds whose writers
 *                          move keys across words; without it
 *                          fk_filter_contains_concurrent calls contains)
 *
 * Versions 5 and 6 are frozen with releases 0.3.0 and 0.4.0: their slots,
 * their order and their contracts stay as they are. Version 7 is open
 * until the next release; later features append below its slots.
 *
 * Tables are static const and built with designated initializers; a slot
 * left out is NULL = unsupported. New tables say .version = FK_OPS_VERSION.
 * Naming (SQLite's IOMETHODS habit): the function in slot `s` of kind
 * fk_<kind> is fk_<kind>_slot_<s> (FK_OPS_FORWARD makes those names).
 *
 * What an out-of-tree kind must set: a table with version, name, create
 * (or build, for a static kind), destroy, insert (unless static), contains
 * and stats; every object it makes begins with an fk_filter whose `ops` is
 * that table and whose `contains_u64` is its 64-bit lookup or NULL (see
 * struct fk_filter). Everything else is optional.
 */
#define FK_OPS_V1      1u
#define FK_OPS_V2      2u
#define FK_OPS_V3      3u
#define FK_OPS_V4      4u
#define FK_OPS_V5      5u
#define FK_OPS_V6      6u
#define FK_OPS_V7      7u
#define FK_OPS_VERSION FK_OPS_V7 /* the newest layout, declared below */

struct fk_ops {
    /* ---- version 1 */
    unsigned    version; /* FK_OPS_V1.., first so that every layout has it */
    const char *name;    /* "bloom", "counting", "cuckoo", "libbloom", ... */
    const char *summary; /* one line describing the kind, for --help */
    unsigned    caps;    /* FK_CAP_COUNT | FK_CAP_BOUNDED | FK_CAP_GROWS */

    /* Required (fk_ops_check refuses a table without them), except that a
     * static kind (version 5, with a build slot) leaves create and insert
     * NULL. Same contract as fk_filter_new / _free / _insert / _contains /
     * _stats. */
    fk_status (*create)(const fk_params *p, fk_filter **out);
    void      (*destroy)(fk_filter *f);
    fk_status (*insert)(fk_filter *f, const void *key, size_t len);
    bool      (*contains)(const fk_filter *f, const void *key, size_t len);
    void      (*stats)(const fk_filter *f, fk_stats *out);

    /* Optional (NULL when the kind cannot do it). */
    fk_status (*remove)(fk_filter *f, const void *key, size_t len);
    /* Saving and loading: the kind's file id and hooks (serial.h). */
    const fk_serial_ops *serial;

    /* ---- version 2 (optional) */
    /* Fills *out for a filter that create(p) would make, holding `items`
     * distinct keys (items >= 0; the caller checks). Returns FK_OK, or
     * FK_EINVAL exactly when create(p) would. O(1), allocates nothing. */
    fk_status (*size)(const fk_params *p, double items, fk_sizing *out);

    /* ---- version 3 (optional): batches, same contracts as
     * fk_filter_contains_many .. fk_filter_remove_many below, which have
     * already checked the arguments (f, and keys/lens/out when n > 0, are
     * valid; every key NULL with len > 0 was refused before the call; done
     * is never NULL). */
    void      (*contains_many)(const fk_filter *f, size_t n, const void *const keys[],
                               const size_t lens[], bool out[]);
    fk_status (*insert_many)(fk_filter *f, size_t n, const void *const keys[],
                             const size_t lens[], size_t *done);
    void      (*contains_many_u64)(const fk_filter *f, size_t n, const uint64_t keys[],
                                   bool out[]);
    fk_status (*insert_many_u64)(fk_filter *f, size_t n, const uint64_t keys[], size_t *done);
    fk_status (*remove_many)(fk_filter *f, size_t n, const void *const keys[],
                             const size_t lens[], size_t *done);

    /* ---- version 4 (optional): writers that may run together, same
     * contracts as fk_filter_insert_concurrent / _remove_concurrent, which
     * have already checked f and key. */
    fk_status (*insert_concurrent)(fk_filter *f, const void *key, size_t len);
    fk_status (*remove_concurrent)(fk_filter *f, const void *key, size_t len);

    /* ---- version 5 (optional): the same contracts as the fk_filter_*
     * calls of the same names below, which have already checked the
     * arguments (f, dst, src, count and out valid; keys/lens valid when
     * n > 0 and no key NULL with len > 0; p passed fk_params_check after
     * a capacity of 0 became n). */
    bool      (*contains_u64)(const fk_filter *f, uint64_t key);
    fk_status (*insert_u64)(fk_filter *f, uint64_t key);
    fk_status (*remove_u64)(fk_filter *f, uint64_t key);
    fk_status (*build)(const fk_params *p, size_t n, const void *const keys[],
                       const size_t lens[], fk_filter **out);
    fk_status (*build_u64)(const fk_params *p, size_t n, const uint64_t keys[], fk_filter **out);
    fk_status (*count)(const fk_filter *f, const void *key, size_t len, uint64_t *count);
    fk_status (*merge)(fk_filter *dst, const fk_filter *src);
    fk_status (*intersect)(fk_filter *dst, const fk_filter *src);
    fk_status (*grow)(fk_filter *f);

    /* ---- version 6 (optional): the same contract as
     * fk_filter_set_max_bytes, which has already checked f and resolved
     * max_bytes (never 0, never above FK_MEMORY_CAP). Set by the kinds
     * that get larger after they are made (FK_CAP_GROWS, FK_CAP_RESIZES). */
    fk_status (*set_max_bytes)(fk_filter *f, uint64_t max_bytes);
    /* The same contracts as fk_filter_advance, fk_filter_contains_at and
     * fk_filter_stats_at, which have already checked f (and the key);
     * set by the kinds with FK_CAP_EXPIRES. */
    fk_status (*advance)(fk_filter *f, uint64_t now);
    bool      (*contains_at)(const fk_filter *f, const void *key, size_t len, uint64_t now);
    void      (*stats_at)(const fk_filter *f, uint64_t now, fk_stats *out);
    /* The contract of fk_filter_describe (at NULL) and
     * fk_filter_describe_at (*at the time), which have already checked f
     * and n: adds its rows with fk_describe_add and friends (rows[0..cap)
     * written, *n = every row it has, from 0), answers FK_OK. Every
     * built-in kind sets it. */
    fk_status (*describe)(const fk_filter *f, const uint64_t *at, fk_describe_row *rows,
                          size_t cap, size_t *n);

    /* ---- version 7 (optional): the same contracts as
     * fk_filter_insert_many_concurrent / _u64_concurrent, which have
     * already checked the arguments as for insert_many (done never NULL).
     * A kind that sets them sets insert_concurrent too. */
    fk_status (*insert_many_concurrent)(fk_filter *f, size_t n, const void *const keys[],
                                        const size_t lens[], size_t *done);
    fk_status (*insert_many_u64_concurrent)(fk_filter *f, size_t n, const uint64_t keys[],
                                            size_t *done);
    /* (version 7) The contract of fk_filter_contains_concurrent, which has already
     * checked f and key: set by the kinds whose plain lookup may not run
     * beside their concurrent writers (their writers move keys across
     * several words: quotient, expandable, window, the growing chains);
     * NULL where contains already may (fk_filter_contains_concurrent then
     * calls contains). */
    bool      (*contains_concurrent)(const fk_filter *f, const void *key, size_t len);

    /* Slots appended later go below, under FK_OPS_V8 and so on. */
};

/* True when ops has slot `member` set and is new enough to have it. */
#define FK_OPS_HAS(ops, version_needed, member) \
    ((ops)->version >= (version_needed) && (ops)->member != NULL)

/* The header every filter object starts with. Kinds embed it as their first
 * member, so a pointer to the kind's struct is a pointer to its fk_filter. */
struct fk_filter {
    const fk_ops *ops;
    /* The filter's one 64-bit lookup: fk_filter_contains_u64 calls it
     * straight. The kind sets it when it makes or loads the object (and
     * again where it changes path, as a grow may), usually at a path
     * specialised for the filter's geometry, so a call tests neither the
     * table's version nor a slot per key. Every built-in kind sets it on
     * every object and keeps no second pointer to it; none sets the
     * contains_u64 slot. NULL (a zeroed object) means "ask ops": the
     * contains_u64 slot if set, else the key's 8 little-endian bytes
     * through contains, so a kind that allocates its object zeroed and
     * sets only `ops` stays correct. The slot is only for such a kind: one
     * lookup for all its objects, without touching each object. */
    bool (*contains_u64)(const fk_filter *f, uint64_t key);
};

/* For kind authors, SQLite's IOMETHODS habit: FK_OPS_FORWARD(T, prefix)
 * defines the static slot functions prefix_slot_create, _destroy, _insert,
 * _contains and _stats, which forward to the kind's direct API prefix_new,
 * _free, _insert, _contains and _stats on a struct T whose first member is
 * `fk_filter base`; FK_OPS_FORWARD_REMOVE adds prefix_slot_remove.
 * FK_OPS_FORWARD_SLOTS(prefix) names the first five in a table:
 *   FK_OPS_FORWARD(fk_bloom, fk_bloom)
 *   const fk_ops fk_bloom_ops = { .version = FK_OPS_VERSION, .name = "bloom",
 *                                 FK_OPS_FORWARD_SLOTS(fk_bloom), ... }; */
#define FK_OPS_FORWARD(T, prefix)                                                       \
    static fk_status prefix##_slot_create(const fk_params *p, fk_filter **out)          \
    {                                                                                   \
        T *made = NULL;                                                                 \
        fk_status s = prefix##_new(p, &made);                                           \
        *out = made ? &made->base : NULL;                                               \
        return s;                                                                       \
    }                                                                                   \
    static void prefix##_slot_destroy(fk_filter *f) { prefix##_free((T *)f); }          \
    static fk_status prefix##_slot_insert(fk_filter *f, const void *key, size_t len)    \
    {                                                                                   \
        return prefix##_insert((T *)f, key, len);                                       \
    }                                                                                   \
    static bool prefix##_slot_contains(const fk_filter *f, const void *key, size_t len) \
    {                                                                                   \
        return prefix##_contains((const T *)f, key, len);                               \
    }                                                                                   \
    static void prefix##_slot_stats(const fk_filter *f, fk_stats *out)                  \
    {                                                                                   \
        prefix##_stats((const T *)f, out);                                              \
    }
#define FK_OPS_FORWARD_REMOVE(T, prefix)                                                \
    static fk_status prefix##_slot_remove(fk_filter *f, const void *key, size_t len)    \
    {                                                                                   \
        return prefix##_remove((T *)f, key, len);                                       \
    }
#define FK_OPS_FORWARD_SLOTS(prefix)                                                    \
    .create = prefix##_slot_create, .destroy = prefix##_slot_destroy,                   \
    .insert = prefix##_slot_insert, .contains = prefix##_slot_contains,                 \
    .stats = prefix##_slot_stats

/* --------------------------------------------------- asking the kind */

/* Checks that ops can be used: version at least FK_OPS_V1, a nonempty name,
 * the required slots set (destroy, contains, stats, and create with insert
 * or, for a static kind of version 5, build), and a serial table, when
 * present, complete (see serial.h). Returns FK_OK or FK_EINVAL (also for
 * NULL). Cost: O(1). */
FK_API fk_status fk_ops_check(const fk_ops *ops);

/* Returns the kind's FK_CAP_* flags: its stored caps plus the derived
 * FK_CAP_REMOVE, FK_CAP_SERIALIZE, FK_CAP_STATIC, FK_CAP_MERGE and
 * FK_CAP_INTERSECT. 0 for NULL. Cost: O(1). */
FK_API unsigned fk_ops_caps(const fk_ops *ops);

/* Fills *out with what fk_filter_new(ops, p) would build, its theory taken
 * at p->capacity items. Returns FK_OK; FK_EINVAL for NULL arguments, a
 * table failing fk_ops_check, or params the kind rejects; FK_EUNSUPPORTED
 * when the kind cannot say (no size slot, or a table older than
 * FK_OPS_V2). *out is zeroed on error. Cost: O(1). */
FK_API fk_status fk_ops_size(const fk_ops *ops, const fk_params *p, fk_sizing *out);

/* Stores in *out the theoretical false-positive rate of a filter of kind
 * ops made from p holding `items` distinct keys. Returns FK_OK;
 * FK_EINVAL for NULL arguments, items negative or NaN, or params the kind
 * rejects; FK_EUNSUPPORTED as fk_ops_size. *out is 0 on error. Cost: O(1). */
FK_API fk_status fk_ops_expected_fpr(const fk_ops *ops, const fk_params *p, double items,
                                     double *out);

/* ------------------------------------------------------- dispatchers */

/* Creates a filter of the kind `ops` sized by p.
 * Returns FK_OK and stores a new filter in *out (the caller owns it and
 * releases it with fk_filter_free); FK_EINVAL for NULL ops/p/out, a table
 * that fails fk_ops_check (a required slot missing), or bad params (see
 * fk_params_check and each kind's header); FK_EUNSUPPORTED for a static
 * kind (FK_CAP_STATIC: use fk_filter_build); FK_ELIMIT when p->max_bytes
 * is nonzero and the kind's size slot says the filter would hold more
 * (checked before anything is allocated); FK_ENOMEM when the
 * allocation fails. On any error *out is set to NULL (when out is not NULL).
 * Cost: O(1) plus the allocation: bodies come as fresh zeroed pages, so
 * no page is touched before it is used. */
FK_API fk_status fk_filter_new(const fk_ops *ops, const fk_params *p, fk_filter **out);

/* Adds key. Returns FK_OK; FK_EINVAL for f NULL or key NULL with len > 0;
 * FK_EFULL when the kind has no room (nothing is lost, the filter answers as
 * before); FK_EUNSUPPORTED for a static kind (FK_CAP_STATIC). Cost: one
 * hash of the key plus the kind's probes. */
FK_API fk_status fk_filter_insert(fk_filter *f, const void *key, size_t len);

/* Returns true when key may be in the set, false when it is definitely not
 * (no false negatives for keys inserted with FK_OK and not removed).
 * f NULL, or key NULL with len > 0, answers false. Cost: one hash + probes. */
FK_API bool fk_filter_contains(const fk_filter *f, const void *key, size_t len);

/* Removes one earlier insertion of key. Returns FK_OK; FK_ENOTFOUND when the
 * key is definitely absent (nothing changed); FK_EUNSUPPORTED when the kind
 * cannot remove (plain Bloom); FK_EINVAL for f NULL or key NULL with len > 0.
 * Removing a key that was never inserted may cause false negatives for
 * other keys (see the kind's header). Cost: one hash + probes. */
FK_API fk_status fk_filter_remove(fk_filter *f, const void *key, size_t len);

/* Fills *out with the filter's current figures (see fk_stats). f or out
 * NULL: no-op (out, if given, is zeroed). Cost: O(1) for kinds that keep
 * counts, O(size) for those that must scan (documented per kind). */
FK_API void fk_filter_stats(const fk_filter *f, fk_stats *out);

/* Releases f and everything it owns. NULL is a no-op. Cost: O(1). */
FK_API void fk_filter_free(fk_filter *f);

/* ---------------------------------------------------- 64-bit keys
 *
 * A uint64_t key is its 8 little-endian bytes: each call answers exactly
 * as the byte call on those bytes (fk_filter_contains(f, le, 8)), on any
 * host, so files and every other call agree. A kind with the version-5
 * slots runs a path specialised for 8 bytes (no length dispatch, the
 * seed's constants computed when the filter was made); the others are
 * served through the byte slots. Thread safety and cost: as the byte
 * call of the same name. */

/* Returns as fk_filter_contains on the key's 8 little-endian bytes; false
 * for f NULL. */
FK_API bool fk_filter_contains_u64(const fk_filter *f, uint64_t key);

/* Returns as fk_filter_insert on the key's 8 little-endian bytes
 * (FK_EINVAL for f NULL, FK_EFULL, FK_EUNSUPPORTED for a static kind). */
FK_API fk_status fk_filter_insert_u64(fk_filter *f, uint64_t key);

/* Returns as fk_filter_remove on the key's 8 little-endian bytes
 * (FK_ENOTFOUND, FK_EUNSUPPORTED when the kind cannot remove, FK_EINVAL
 * for f NULL). */
FK_API fk_status fk_filter_remove_u64(fk_filter *f, uint64_t key);

/* For a kind's header (T its object type, whose first member is its
 * fk_filter): FK_U64_CALLS(T) defines the static inline
 *     bool      T_contains_u64(const T *x, uint64_t key);
 *     fk_status T_insert_u64(T *x, uint64_t key);
 * (FK_U64_CONTAINS(T) the first alone, for a kind built whole), and
 * FK_U64_REMOVE(T)
 *     fk_status T_remove_u64(T *x, uint64_t key);
 * the calls above on x's filter, so a program that links that module alone
 * has the integer calls under the kind's own names and the library
 * exports nothing more. Statuses, thread rules and cost: as above. */
#define FK_U64_CONTAINS(T)                                                   \
    static inline bool T##_contains_u64(const T *x, uint64_t key)            \
    {                                                                        \
        return fk_filter_contains_u64((const fk_filter *)(const void *)x, key); \
    }
#define FK_U64_CALLS(T)                                                      \
    FK_U64_CONTAINS(T)                                                       \
    static inline fk_status T##_insert_u64(T *x, uint64_t key)               \
    {                                                                        \
        return fk_filter_insert_u64((fk_filter *)(void *)x, key);            \
    }
#define FK_U64_REMOVE(T)                                                     \
    static inline fk_status T##_remove_u64(T *x, uint64_t key)               \
    {                                                                        \
        return fk_filter_remove_u64((fk_filter *)(void *)x, key);            \
    }

/* ------------------------------------------- building from a whole set */

/* Builds a filter of kind ops holding keys[0..n) (byte keys, NULL-or-len
 * rule as above; duplicates allowed). p->capacity may be 0, meaning n
 * (at least 1); the other fields are the kind's usual params. A kind with
 * a build slot (every static kind, FK_CAP_STATIC) builds from the whole
 * set at once; for the others this is fk_filter_new then
 * fk_filter_insert_many, with the same answers. Returns FK_OK and stores
 * the new filter in *out (the caller owns it: fk_filter_free); FK_EINVAL
 * for NULL ops/p/out, keys or lens NULL with n > 0, a key NULL with
 * len > 0, a table failing fk_ops_check or params the kind refuses;
 * FK_EFULL when a bounded kind cannot take n keys; FK_ENOMEM. On error
 * *out is NULL and nothing is left allocated. Cost: the kind's build
 * (static kinds: O(n) time plus their documented temporary memory), else
 * n inserts. May run beside any call on other filters. */
FK_API fk_status fk_filter_build(const fk_ops *ops, const fk_params *p, size_t n,
                                 const void *const keys[], const size_t lens[], fk_filter **out);

/* The same for 64-bit integer keys, each its 8 little-endian bytes: the
 * filter answers exactly as one fk_filter_build made from those bytes.
 * keys NULL with n > 0 is FK_EINVAL. */
FK_API fk_status fk_filter_build_u64(const fk_ops *ops, const fk_params *p, size_t n,
                                     const uint64_t keys[], fk_filter **out);

/* ------------------------------------------------ counts and merges */

/* Stores in *count how many times key may have been inserted (minus the
 * removes): never fewer than the truth for keys inserted with FK_OK, and
 * possibly more (false positives, shared counters). What each kind
 * answers: a counting Bloom filter its smallest counter, a cuckoo filter
 * the stored copies of the key's fingerprint, a quotient filter its
 * counter, a growing kind the sum over its links. Counts saturate, never
 * wrap: a quotient filter's stops at UINT64_MAX, as does its
 * fk_stats.items. Returns FK_OK;
 * FK_EINVAL for f or count NULL, or key NULL with len > 0 (*count = 0);
 * FK_EUNSUPPORTED when the kind cannot count (plain Bloom filters, static
 * kinds). Thread safety and cost: as fk_filter_contains. */
FK_API fk_status fk_filter_count(const fk_filter *f, const void *key, size_t len,
                                 uint64_t *count);

/* Makes dst the union of dst and src: afterwards dst answers true for
 * every key either answered true for (counting kinds add the counts).
 * src is unchanged. Returns FK_OK; FK_EINVAL for NULL, dst == src,
 * filters of different kinds, or filters whose shapes differ (size,
 * seed, fingerprint or counter width: each kind's header says which must
 * match), with nothing changed; FK_EUNSUPPORTED when the kind cannot merge;
 * FK_EFULL when a bounded kind has no room for the union (each kind's
 * header says what it holds then). Cost: one pass over both filters. Needs
 * every other call on dst done; src may be read by lookups meanwhile. */
FK_API fk_status fk_filter_merge(fk_filter *dst, const fk_filter *src);

/* Makes dst the intersection of dst and src: afterwards dst answers true
 * for every key both answered true for (never a false negative for a key
 * inserted into both), and possibly for more keys than a filter built from
 * the common keys alone would (the usual bitwise intersection of Bloom
 * filters). src is unchanged. Returns FK_OK; FK_EINVAL for NULL, dst ==
 * src, filters of different kinds or of different shapes (as
 * fk_filter_merge), with nothing changed; FK_EUNSUPPORTED when the kind
 * cannot intersect (today: every kind but bloom and blocked). Cost: one
 * pass over both filters. Needs every other call on dst done; src may be
 * read by lookups meanwhile. */
FK_API fk_status fk_filter_intersect(fk_filter *dst, const fk_filter *src);

/* Doubles f in place without its keys, for the kinds that resize
 * (FK_CAP_RESIZES; today quotient, whose header says how): afterwards f
 * holds every key it held, with its counts, and room for twice as many;
 * its FPR at a given number of keys doubles, its stats' capacity doubles,
 * and the target fpr its file records doubles (while the double stays
 * below 1). Growing kinds (FK_CAP_GROWS) grow by
 * themselves and do not resize. Returns FK_OK; FK_EINVAL for f NULL or a
 * filter that cannot double again (the kind's header says when);
 * FK_ELIMIT when the doubled filter would pass the fk_params.max_bytes f
 * was made with; FK_ENOMEM; FK_EUNSUPPORTED when the kind cannot resize.
 * On any error f is unchanged. Cost: one pass over f writing a table of
 * twice its size (both held while it runs). Needs every other call on f
 * done. */
FK_API fk_status fk_filter_grow(fk_filter *f);

/* Sets the byte limit of f, as fk_params.max_bytes does when a filter is
 * made (0: the default, FK_MEMORY_CAP; a larger value is held at
 * FK_MEMORY_CAP): for a loaded filter, whose file does not keep the limit,
 * or to raise or lower it later. Afterwards a growing kind's insert that
 * would need more (a new link, a doubling) and fk_filter_grow past it
 * answer FK_ELIMIT with nothing changed; a filter already over the new
 * limit keeps everything it holds and only stops getting larger. Returns
 * FK_OK; FK_EINVAL for f NULL; FK_EUNSUPPORTED for the kinds whose size
 * is fixed when they are made (every kind without FK_CAP_GROWS or
 * FK_CAP_RESIZES, and tables older than FK_OPS_V6): they have no limit to
 * move, and nothing changes. Cost: O(1), allocates nothing. Needs every
 * other call on f done (it is a writer). */
FK_API fk_status fk_filter_set_max_bytes(fk_filter *f, uint64_t max_bytes);

/* --------------------------------------------- clocks and descriptions
 *
 * A kind's own verbs and figures, reached without knowing the kind: a
 * client calls these on any filter, and a kind that has no clock (no
 * FK_CAP_EXPIRES) answers FK_EUNSUPPORTED to the advance and as now to the
 * reads "at" a time. Times are in the unit of the filter's span
 * (fk_params.span, in the clock fk_params.clock names); the library reads
 * no clock. */

/* Moves the filter's clock to `now`: a time window starts a generation at
 * each boundary passed, forgetting its oldest (window/window.h). The first
 * call sets the origin. Returns FK_OK; FK_EINVAL for f NULL, `now` before
 * the filter's clock (it never goes back) or past the kind's last time
 * (window: FK_WINDOW_MAX_TIME), nothing changed; FK_EUNSUPPORTED for a
 * filter without a clock: a kind without FK_CAP_EXPIRES, a count window
 * (made with span 0), a table older than FK_OPS_V6. Cost: the kind's
 * (window: O(1), a sweep per boundary crossed, at most one table pass).
 * A writer: needs every other call on f done. */
FK_API fk_status fk_filter_advance(fk_filter *f, uint64_t now);

/* What fk_filter_contains(f, key, len) would answer after
 * fk_filter_advance(f, now), read without changing f (a const read that
 * may run beside other lookups: a server answers its reads as of its clock
 * and leaves the advance to its writes). A filter without a clock, a clock
 * not yet set, or a `now` the advance would refuse answer as
 * fk_filter_contains. f NULL, or key NULL with len > 0, answers false.
 * Cost: a lookup, plus the kind's reading of what would retire (window:
 * O(1)). */
FK_API bool fk_filter_contains_at(const fk_filter *f, const void *key, size_t len,
                                  uint64_t now);

/* Fills *out as fk_filter_stats would after fk_filter_advance(f, now),
 * without changing f; without a clock (as fk_filter_contains_at), as
 * fk_filter_stats. f or out NULL: as fk_filter_stats. Cost: the kind's
 * stats, plus (window, past a boundary) one pass over the table. */
FK_API void fk_filter_stats_at(const fk_filter *f, uint64_t now, fk_stats *out);

/* Describes f as rows of {name, type, value} (fk_describe_row above): its
 * shape (fingerprint bits, probes, links...), its knobs and where its stream
 * stands, the kind's own figures beyond fk_stats, in the kind's fixed order.
 * Writes rows[0..min(cap, count)) and sets *n to the count. Returns FK_OK
 * when all fit (*n <= cap); FK_ELIMIT when cap is too small (the first cap
 * rows are written, *n says how many there are: call again with that many;
 * cap 0 and rows NULL asks only the count); FK_EINVAL for f or n NULL, or
 * rows NULL with cap > 0 (*n = 0 when n is not NULL); FK_EUNSUPPORTED for
 * a table without the slot (older than FK_OPS_V6, or an out-of-tree kind
 * that does not describe itself; *n = 0). Built-in kinds have at most
 * FK_DESCRIBE_MAX_ROWS rows. String values are static or owned by f and
 * valid until f next changes. The owner of rows is the caller; nothing is
 * allocated. Cost: O(1) for most kinds, O(links) for growing ones, O(size)
 * for kinds whose figures need a scan (each kind's header). A reader: may
 * run beside lookups. */
FK_API fk_status fk_filter_describe(const fk_filter *f, fk_describe_row *rows, size_t cap,
                                    size_t *n);

/* fk_filter_describe as fk_filter_advance(f, now) would leave it, read
 * without changing f (as fk_filter_contains_at); a filter without a clock
 * is described as now. Returns and costs as fk_filter_describe, plus the
 * window's pass over its table when a boundary lies before `now`. */
FK_API fk_status fk_filter_describe_at(const fk_filter *f, uint64_t now, fk_describe_row *rows,
                                       size_t cap, size_t *n);

/* ------------------------------------------------------------ batches
 *
 * Many keys per call: a kind with the version-3 slots hashes a window of
 * keys, prefetches every cache line they will touch, then probes, so the
 * memory latencies overlap; a kind without them (or a table older than
 * FK_OPS_V3) is served by a loop over its single-key slots. Either way the
 * answers are exactly those of the single-key calls, key by key, in order.
 * n == 0 is a no-op. Thread safety: as the single-key call each one
 * repeats (contains_many may run with other lookups; the writers need the
 * caller's lock, as insert does). */

/* out[i] = fk_filter_contains(f, keys[i], lens[i]) for i < n. f NULL, or
 * keys/lens NULL with n > 0, answers false for every key (out[] is filled
 * when out is not NULL); a key NULL with lens[i] > 0 answers false. Cost:
 * n hashes + probes, the memory accesses of a window overlapped. */
FK_API void fk_filter_contains_many(const fk_filter *f, size_t n, const void *const keys[],
                                    const size_t lens[], bool out[]);

/* Inserts keys[0..n) in order; stops at the first status other than FK_OK
 * and returns it; *done (if not NULL) = how many were inserted. Nothing is
 * lost: keys before *done are in, the failing key and those after it are
 * not. Returns FK_OK; FK_EINVAL for f NULL, keys/lens NULL with n > 0, or a
 * key NULL with len > 0 (*done = its index); FK_EFULL as fk_filter_insert.
 * Cost: as n inserts, memory accesses overlapped. */
FK_API fk_status fk_filter_insert_many(fk_filter *f, size_t n, const void *const keys[],
                                       const size_t lens[], size_t *done);

/* The same for 64-bit integer keys, each hashed as its 8 little-endian
 * bytes: answers are identical to fk_filter_contains(f, &le_bytes, 8) and
 * fk_filter_insert(f, &le_bytes, 8). NULL rules as above (keys NULL with
 * n > 0: all false / FK_EINVAL). */
FK_API void fk_filter_contains_many_u64(const fk_filter *f, size_t n, const uint64_t keys[],
                                        bool out[]);
FK_API fk_status fk_filter_insert_many_u64(fk_filter *f, size_t n, const uint64_t keys[],
                                           size_t *done);

/* Removes keys[0..n) in order, as fk_filter_remove each; stops at the first
 * status other than FK_OK (FK_ENOTFOUND included) and returns it; *done (if
 * not NULL) = how many were removed. FK_EUNSUPPORTED (nothing done) when
 * the kind cannot remove; FK_EINVAL as fk_filter_insert_many. */
FK_API fk_status fk_filter_remove_many(fk_filter *f, size_t n, const void *const keys[],
                                       const size_t lens[], size_t *done);

/* ------------------------------------------------- concurrent writers
 *
 * Safe to call from many threads at once on the same filter, together with
 * any number of fk_filter_contains_concurrent calls (and, for bloom,
 * blocked, counting and cuckoo, of fk_filter_contains /
 * fk_filter_contains_many calls: the table at the top of this file). A key
 * whose concurrent insert has returned FK_OK is found by every such lookup
 * that starts later, in any thread. Never mix these with the plain writers
 * (insert, remove, the batches) on one filter at the same time: the plain
 * writers stay the fastest single-writer path. What each kind does (atomic
 * OR of words, compare-and-swap of counters or of bucket words, striped
 * locks beside lock-free lookups, region locks, a new link opened once) is
 * in its header; the table at the top of this file
 * says which calls may overlap. Item counts: every successful call counts,
 * so a key inserted by two threads counts twice, as two plain inserts
 * would; stats and saving read the counts once the writers are done.
 * Cost: the kind's insert plus its atomic read-modify-writes (see its
 * header); `filterkit bench --threads T` measures both. */

/* Returns as fk_filter_insert; FK_EUNSUPPORTED when the kind has no
 * concurrent insert (a table older than FK_OPS_V4 included). */
FK_API fk_status fk_filter_insert_concurrent(fk_filter *f, const void *key, size_t len);

/* Returns as fk_filter_remove; FK_EUNSUPPORTED when the kind has no
 * concurrent remove. */
FK_API fk_status fk_filter_remove_concurrent(fk_filter *f, const void *key, size_t len);

/* Concurrent inserts of keys[0..n), in order, as fk_filter_insert_concurrent
 * each: may run with the other concurrent writers and the lookups (the
 * table at the top of this file). Stops at the first status other than
 * FK_OK and returns it; *done (if not NULL) = how many were inserted (each
 * of them is found by every lookup that starts after this call returns).
 * Returns FK_OK; FK_EINVAL as fk_filter_insert_many (f NULL, keys/lens
 * NULL with n > 0, a key NULL with len > 0: *done = its index);
 * FK_EUNSUPPORTED (nothing done) when the kind has no concurrent insert;
 * FK_EFULL, FK_ENOMEM as fk_filter_insert_concurrent. A kind with the
 * version-7 slot (cuckoo) hashes a window of keys and prefetches their
 * buckets before it writes them, and counts the batch's items once; the
 * others loop over insert_concurrent. Cost: as n concurrent inserts,
 * memory accesses overlapped. */
FK_API fk_status fk_filter_insert_many_concurrent(fk_filter *f, size_t n,
                                                  const void *const keys[],
                                                  const size_t lens[], size_t *done);

/* The same for 64-bit integer keys, each hashed as its 8 little-endian
 * bytes (answers as fk_filter_insert_concurrent(f, &le_bytes, 8)); keys
 * NULL with n > 0: FK_EINVAL. */
FK_API fk_status fk_filter_insert_many_u64_concurrent(fk_filter *f, size_t n,
                                                      const uint64_t keys[], size_t *done);

/* The lookup to use beside concurrent writers: answers as
 * fk_filter_contains, and may run together with any number of
 * fk_filter_insert_concurrent / _remove_concurrent and lookups on f. A key
 * whose concurrent insert has returned FK_OK (and that no remove has
 * taken since) is found by every fk_filter_contains_concurrent that starts
 * later, in any thread. For the kinds whose plain lookups already may run
 * beside their concurrent writers (bloom, blocked, counting, cuckoo) this
 * is fk_filter_contains itself; the kinds whose writers move keys across
 * several words (quotient, expandable, window, the growing chains) take
 * the lock of the region the key's lookup reads (each kind's header), so
 * their plain fk_filter_contains stays lock-free and as fast as before,
 * but must not run beside a writer. f NULL, or key NULL with len > 0,
 * answers false. Cost: the kind's lookup, plus its lock where it takes
 * one. */
FK_API bool fk_filter_contains_concurrent(const fk_filter *f, const void *key, size_t len);

/* Returns the kind's vtable (never NULL for a valid filter; NULL for f NULL). */
FK_API const fk_ops *fk_filter_ops(const fk_filter *f);

#ifdef __cplusplus
}
#endif

#endif
