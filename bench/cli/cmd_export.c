/* bench/cli/cmd_export.c: `filterkit export --sbbf F.fk > F.sbbf`: a saved
 * blocked filter with Parquet's hashing scheme written as a Parquet file
 * stores it in a column chunk: a Thrift compact-protocol BloomFilterHeader
 * (numBytes, algorithm BLOCK, hash XXHASH, compression UNCOMPRESSED), then
 * the bitset (blocked/blocked.h, fk_blocked_sbbf). A Parquet writer embeds
 * these bytes and points the chunk's bloom_filter_offset (and
 * bloom_filter_length) at them. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "args.h"
#include "cmd.h"
#include "filterfile.h"
#include "operands.h"
#include "../../blocked/blocked.h"

/* ------------------------------------------ the Thrift compact header
 *
 * parquet-format's BloomFilterHeader is
 *   struct { 1: required i32 numBytes;
 *            2: required BloomFilterAlgorithm algorithm;     union { 1: SplitBlockAlgorithm BLOCK }
 *            3: required BloomFilterHash hash;               union { 1: XxHash XXHASH }
 *            4: required BloomFilterCompression compression; union { 1: Uncompressed UNCOMPRESSED } }
 * the three unions each holding field 1, an empty struct. In Thrift's
 * compact protocol a field is one byte (id delta << 4 | type) when the id
 * is 1 to 15 past the last one, an i32 (type 5) a zigzag varint, a struct
 * (type 12) its fields then a stop byte (0). */

#define THRIFT_I32    5u
#define THRIFT_STRUCT 12u
#define FIELD_NEXT(type) ((uint8_t)(1u << 4 | (type))) /* the field one id past the last */

/* The header for a bitset of `bytes` bytes into out (at least
 * SBBF_HEADER_MAX); its length. */
#define SBBF_HEADER_MAX 20u
static size_t sbbf_header(uint32_t bytes, uint8_t out[SBBF_HEADER_MAX])
{
    size_t n = 0;
    out[n++] = FIELD_NEXT(THRIFT_I32); /* 1: numBytes */
    uint32_t zigzag = bytes << 1;      /* numBytes >= 0: (v << 1) ^ (v >> 31) */
    do {
        uint8_t b = (uint8_t)(zigzag & 0x7f);
        zigzag >>= 7;
        out[n++] = zigzag ? (uint8_t)(b | 0x80) : b;
    } while (zigzag);
    for (int field = 2; field <= 4; field++) { /* algorithm, hash, compression */
        out[n++] = FIELD_NEXT(THRIFT_STRUCT);  /* the union */
        out[n++] = FIELD_NEXT(THRIFT_STRUCT);  /* its field 1: BLOCK, XXHASH, UNCOMPRESSED */
        out[n++] = 0;                          /* that empty struct's stop */
        out[n++] = 0;                          /* the union's stop */
    }
    out[n++] = 0; /* the header's stop */
    return n;
}

/* The filter's bitset in the file's byte order into *bits (a borrowed
 * pointer, or *owned, to free, on a host whose words are not in that
 * order: the saved record's payload is the bitset on every host). */
static fk_status bitset_of(const fk_filter *f, const void **bits, size_t *bytes, uint8_t **owned)
{
    *owned = NULL;
    fk_status s = fk_blocked_sbbf(f, bits, bytes);
    if (s != FK_EUNSUPPORTED)
        return s;
    uint64_t size = 0;
    if ((s = fk_filter_serialized_size(f, &size)) != FK_OK)
        return s;
    if (!(*owned = malloc((size_t)size)))
        return FK_ENOMEM;
    if ((s = fk_filter_save(f, *owned, (size_t)size, NULL)) != FK_OK)
        return s;
    *bits = *owned + FK_SERIAL_HEADER_BYTES;
    *bytes = (size_t)(size - FK_SERIAL_HEADER_BYTES - FK_SERIAL_TRAILER_BYTES);
    return FK_OK;
}

int fkc_cmd_export(int argc, char **argv)
{
    int sbbf = 0;
    const fkc_opt opts[] = {
        { "sbbf", FKC_OPT_FLAG, &sbbf, NULL, "Parquet's split-block Bloom filter: its header and bitset (the one format)" },
        { NULL, 0, NULL, NULL, NULL },
    };
    const fkc_cmd_spec spec = {
        "export", "--sbbf FILTER > F.sbbf",
        "Writes a saved filter to stdout in another program's format. --sbbf: a\n"
        "blocked filter with Parquet's hashing scheme (built with 'filterkit build\n"
        "--kind blocked --hash parquet --type T', or taken from a Parquet file with\n"
        "'filterkit parquet extract') as a Parquet file stores it in a column\n"
        "chunk: the Thrift compact-protocol BloomFilterHeader (numBytes,\n"
        "algorithm BLOCK, hash XXHASH, compression UNCOMPRESSED: 15 to 19\n"
        "bytes) followed by the bitset, byte for byte what Arrow,\n"
        "parquet-java or DuckDB write. A Parquet writer embeds these bytes and\n"
        "points the chunk's bloom_filter_offset and bloom_filter_length at them.\n"
        "FILTER '-' reads stdin. Another kind, or a blocked filter hashed with XXH3,\n"
        "exits 1.",
        opts,
    };
    const char *path = NULL;
    int rc = fkc_args_parse_operands(&spec, NULL, argc, argv, &path, 1, "FILTER (a saved filter)");
    if (rc)
        return rc == FKC_ARGS_HELP ? 0 : 2;
    if (!sbbf)
        return fkc_args_fail(&spec, "missing --sbbf (the format to write)");
    if (isatty(STDOUT_FILENO))
        return fkc_args_fail(&spec, "refusing to write a binary filter to a terminal; redirect stdout");
    fk_filter *f = NULL;
    if (fkc_filterfile_load(spec.name, path, &f, NULL, NULL) != 0)
        return 1;
    const void *bits = NULL;
    size_t bytes = 0;
    uint8_t *owned = NULL;
    fk_status s = bitset_of(f, &bits, &bytes, &owned);
    rc = 1;
    if (s == FK_EINVAL) {
        fprintf(stderr, "filterkit export: %s: a %s filter, not a blocked filter with Parquet's hashing "
                "scheme: build one with 'filterkit build --kind blocked --hash parquet --type T'\n",
                path, fk_filter_ops(f)->name);
    } else if (s != FK_OK) {
        fprintf(stderr, "filterkit export: %s: %s\n", path, fk_strerror(s));
    } else {
        uint8_t head[SBBF_HEADER_MAX];
        size_t n = sbbf_header((uint32_t)bytes, head);
        if (fwrite(head, 1, n, stdout) != n || fwrite(bits, 1, bytes, stdout) != bytes ||
            fflush(stdout) != 0)
            fprintf(stderr, "filterkit export: writing to stdout: %s\n", strerror(errno));
        else
            rc = 0;
    }
    free(owned);
    fk_filter_free(f);
    return rc;
}
