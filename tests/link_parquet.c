/* tests/link_parquet.c: built with only parquet/parquet.h, libfk_parquet.a,
 * libfk_blocked.a and libfk_common.a (the Makefile's link_% rule and
 * LINK_WITH_parquet): proves the Parquet reader links without the other
 * kinds. Reads a tiny file written here: one INT32 column "x" whose only
 * chunk has no filter, so the footer path runs end to end. */
#include <stdio.h>
#include <string.h>
#include "../parquet/parquet.h"

static int read_mem(void *ctx, uint64_t off, void *buf, size_t len)
{
    memcpy(buf, (const unsigned char *)ctx + off, len);
    return 0;
}

int main(void)
{
    /* FileMetaData { 2: schema [ {4: "r", 5: 1}, {1: INT32, 4: "x"} ],
     *                4: row_groups [ {1: [ {2: 4, 3: {1: INT32}} ], 3: 1} ] } */
    static const unsigned char footer[] = {
        0x29, 0x2c, 0x48, 0x01, 'r', 0x15, 0x02, 0x00, 0x15, 0x02, 0x38, 0x01, 'x', 0x00,
        0x29, 0x1c, 0x19, 0x1c, 0x26, 0x08, 0x1c, 0x15, 0x02, 0x00, 0x00, 0x26, 0x02, 0x00,
        0x00,
    };
    unsigned char file[4 + sizeof footer + 8];
    memcpy(file, "PAR1", 4);
    memcpy(file + 4, footer, sizeof footer);
    file[4 + sizeof footer] = (unsigned char)sizeof footer;
    memset(file + 5 + sizeof footer, 0, 3);
    memcpy(file + 8 + sizeof footer, "PAR1", 4);
    fk_parquet_file *pf = NULL;
    uint64_t groups = 0, cols = 0, col = 9;
    fk_parquet_chunk k;
    fk_filter *f = NULL;
    char path[8];
    int ok = fk_parquet_open(read_mem, file, sizeof file, &pf) == FK_OK;
    fk_parquet_shape(pf, &groups, &cols);
    ok = ok && groups == 1 && cols == 1 && fk_parquet_column_path(pf, 0, path, sizeof path) == 1 &&
         strcmp(path, "x") == 0 && fk_parquet_column_find(pf, "x", &col) == FK_OK && col == 0 &&
         fk_parquet_chunk_info(pf, 0, 0, &k) == FK_OK && k.type == FK_PARQUET_INT32 && k.num_rows == 1 &&
         fk_parquet_chunk_filter(pf, 0, 0, &f) == FK_ENOTFOUND && f == NULL;
    fk_parquet_close(pf);
    printf("%d passed, %d failed\n", ok, !ok);
    return !ok;
}
