/* common/status.h: the status codes every filterkit call returns.
 *
 * FK_OK is 0 and every error is nonzero, so `if (s) ...` tests for failure.
 * The names are the contract; the numeric values may change between versions.
 */
#ifndef FK_STATUS_H
#define FK_STATUS_H

#ifdef __cplusplus
extern "C" {
#endif

/* Symbols meant for users carry FK_API so the shared library exports them
 * while everything else stays hidden (-fvisibility=hidden). */
#if defined(__GNUC__) || defined(__clang__)
#define FK_API __attribute__((visibility("default")))
#else
#define FK_API
#endif

typedef enum {
    FK_OK = 0,
    FK_EINVAL,       /* bad argument: NULL where not allowed, capacity 0,
                        fpr not in (0,1), NaN, size overflow, over the memory cap */
    FK_ENOMEM,       /* an allocation failed; nothing changed */
    FK_EFULL,        /* no room (cuckoo: kick limit hit); nothing was lost */
    FK_ENOTFOUND,    /* remove of a key that is definitely absent; nothing changed */
    FK_EUNSUPPORTED, /* the kind cannot do this (e.g. remove on a Bloom filter),
                        or a serialized format version newer than this library */
    FK_ECORRUPT,     /* deserialization of bad bytes */
    FK_EIO,          /* reading or writing the caller's FILE * failed */
    FK_ELIMIT        /* the filter would grow past its byte limit (fk_params
                        max_bytes, else FK_MEMORY_CAP); nothing changed;
                        parquet/: a file over one of the reader's caps */
} fk_status;

/* Returns a static, human-readable English sentence for s ("not enough
 * memory", ...); an unknown value gives "unknown status". Never NULL.
 * Cost: O(1). */
FK_API const char *fk_strerror(fk_status s);

/* Returns the constant's own name ("FK_EFULL"), or "FK_UNKNOWN". Never NULL.
 * Cost: O(1). */
FK_API const char *fk_status_name(fk_status s);

#ifdef __cplusplus
}
#endif

#endif
