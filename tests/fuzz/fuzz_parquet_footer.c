/* tests/fuzz/fuzz_parquet_footer.c: libFuzzer target: the Parquet reader
 * (parquet/parquet.h) on arbitrary bytes (`make fuzz`; seeds in
 * tests/fuzz/corpus/parquet_footer/: small files DuckDB wrote with Bloom
 * filters). An input whose first byte is odd is read as a whole file; an
 * even one has its other bytes wrapped as a footer ("PAR1", the bytes, their
 * length, "PAR1"), so mutations reach the Thrift parser without first
 * having to keep a footer length right. Properties: no crash, no leak, no
 * UB, no allocation past the caps (libFuzzer's -malloc_limit_mb); a failed
 * open is a named status with *out NULL; an opened file answers every
 * query: each chunk's info (its dictionary page's header read), its filter (then probed with a few values, and
 * its bitset read back the same size), its dictionary size, each column's
 * path, which fk_parquet_column_find finds again (the first column with
 * that path; a path holding a NUL byte cannot be asked for). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "../../parquet/parquet.h"
#include "../../blocked/blocked.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

typedef struct {
    const uint8_t *b;
    size_t n;
} mem;

static int read_mem(void *ctx, uint64_t off, void *buf, size_t len)
{
    const mem *m = ctx;
    if (off > m->n || len > m->n - off)
        __builtin_trap(); /* the reader asked past the size it was given */
    memcpy(buf, m->b + off, len);
    return 0;
}

static void probe_everything(const fk_parquet_file *pf)
{
    uint64_t groups, cols;
    fk_parquet_shape(pf, &groups, &cols);
    for (uint64_t c = 0; c < cols; c++) {
        char path[256];
        size_t len = fk_parquet_column_path(pf, c, path, sizeof path);
        uint64_t found = cols;
        /* (a name holding a NUL byte cannot be asked for as a C string) */
        int askable = len < sizeof path && strlen(path) == len;
        if (askable && fk_parquet_column_find(pf, path, &found) != FK_OK)
            __builtin_trap();
        if (askable && found > c)
            __builtin_trap();
    }
    for (uint64_t rg = 0; rg < groups && rg < 64; rg++) {
        for (uint64_t c = 0; c < cols && c < 64; c++) {
            fk_parquet_chunk k;
            if (fk_parquet_chunk_info(pf, rg, c, &k) != FK_OK || !k.type_name)
                __builtin_trap();
            fk_filter *f = NULL;
            fk_status s = fk_parquet_chunk_filter(pf, rg, c, &f);
            if ((s == FK_OK) != (f != NULL))
                __builtin_trap();
            if (f) {
                const void *bits;
                size_t bytes;
                if (fk_blocked_sbbf(f, &bits, &bytes) != FK_OK || bytes < 32 || (bytes & (bytes - 1)))
                    __builtin_trap();
                for (uint64_t v = 0; v < 8; v++)
                    (void)fk_filter_contains(f, &v, sizeof v);
                fk_filter_free(f);
            }
        }
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size == 0)
        return 0;
    uint8_t *file;
    size_t n;
    if (data[0] & 1) {
        n = size - 1;
        file = malloc(n ? n : 1);
        if (!file)
            return 0;
        memcpy(file, data + 1, n);
    } else {
        size_t body = size - 1;
        n = body + 12;
        file = malloc(n);
        if (!file)
            return 0;
        memcpy(file, "PAR1", 4);
        memcpy(file + 4, data + 1, body);
        for (int i = 0; i < 4; i++)
            file[4 + body + (size_t)i] = (uint8_t)((uint64_t)body >> (8 * i));
        memcpy(file + 8 + body, "PAR1", 4);
    }
    fk_parquet_file *pf = (fk_parquet_file *)(uintptr_t)1;
    mem m = { file, n };
    fk_status s = fk_parquet_open(read_mem, &m, n, &pf);
    if (s != FK_OK) {
        if (pf != NULL || (s != FK_ECORRUPT && s != FK_EUNSUPPORTED && s != FK_ELIMIT && s != FK_ENOMEM))
            __builtin_trap();
    } else {
        probe_everything(pf);
        fk_parquet_close(pf);
    }
    free(file);
    return 0;
}
