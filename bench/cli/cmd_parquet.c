/* bench/cli/cmd_parquet.c: `filterkit parquet info|probe|extract`: the
 * split-block Bloom filters in Parquet files (parquet/parquet.h), listed
 * with how full they are, probed with values of the column's type, or
 * written out as a filterkit file. */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "args.h"
#include "cmd.h"
#include "operands.h"
#include "../keys/keylines.h"
#include "../../blocked/blocked.h"
#include "../../common/serial.h"
#include "../../parquet/parquet.h"
#include "../../parquet/parquet_value.h"

/* Exit statuses: as grep's for probe (0 a value may be somewhere, 1 none
 * may be anywhere), 2 on any error for every subcommand. */
enum { PQ_OK = 0, PQ_NONE = 1, PQ_ERROR = 2 };

#define PQ_MAX_FILES 64

/* ------------------------------------------------------- opening files */

typedef struct {
    int fd;
    const char *path;
    fk_parquet_file *pf;
} pq_input;

/* The library's read callback over a descriptor: pread until len bytes. */
static int read_fd(void *ctx, uint64_t offset, void *buf, size_t len)
{
    const pq_input *in = ctx;
    uint8_t *p = buf;
    while (len) {
        ssize_t got = pread(in->fd, p, len, (off_t)offset);
        if (got < 0 && errno == EINTR)
            continue;
        if (got <= 0)
            return -1;
        p += got;
        len -= (size_t)got;
        offset += (uint64_t)got;
    }
    return 0;
}

/* Opens path and reads its footer. Returns 0, or -1 after printing why. */
static int pq_open(const char *cmd, const char *path, pq_input *in)
{
    struct stat st;
    in->path = path;
    in->pf = NULL;
    in->fd = open(path, O_RDONLY);
    if (in->fd < 0 || fstat(in->fd, &st) != 0) {
        fprintf(stderr, "filterkit %s: %s: %s\n", cmd, path, strerror(errno));
        if (in->fd >= 0)
            close(in->fd);
        in->fd = -1;
        return -1;
    }
    if (!S_ISREG(st.st_mode)) {
        fprintf(stderr, "filterkit %s: %s: not a regular file\n", cmd, path);
        close(in->fd);
        in->fd = -1;
        return -1;
    }
    fk_status s = fk_parquet_open(read_fd, in, (uint64_t)st.st_size, &in->pf);
    if (s != FK_OK) {
        fprintf(stderr, "filterkit %s: %s: not a Parquet file this reader takes: %s\n", cmd, path,
                fk_strerror(s));
        close(in->fd);
        in->fd = -1;
        return -1;
    }
    return 0;
}

static void pq_close(pq_input *in)
{
    fk_parquet_close(in->pf);
    if (in->fd >= 0)
        close(in->fd);
    in->fd = -1;
    in->pf = NULL;
}

/* The column named path in in's file. Returns 0, or -1 after printing why
 * (with the columns the file has). */
static int pq_column(const char *cmd, const pq_input *in, const char *path, uint64_t *col)
{
    fk_status s = fk_parquet_column_find(in->pf, path, col);
    if (s == FK_OK)
        return 0;
    uint64_t cols;
    fk_parquet_shape(in->pf, NULL, &cols);
    fprintf(stderr, "filterkit %s: %s: no column '%s'; its columns:", cmd, in->path, path);
    for (uint64_t c = 0; c < cols && c < 32; c++) {
        char name[256];
        fk_parquet_column_path(in->pf, c, name, sizeof name);
        fprintf(stderr, " %s", name);
    }
    fprintf(stderr, "%s\n", cols > 32 ? " ..." : "");
    return -1;
}

/* ---------------------------------------------------------------- info */

static int info_file(const char *path)
{
    pq_input in;
    if (pq_open("parquet info", path, &in) != 0)
        return -1;
    int failed = 0;
    uint64_t groups, cols;
    fk_parquet_shape(in.pf, &groups, &cols);
    for (uint64_t rg = 0; rg < groups && !ferror(stdout); rg++) {
        for (uint64_t c = 0; c < cols; c++) {
            char name[512];
            fk_parquet_chunk k;
            fk_parquet_column_path(in.pf, c, name, sizeof name);
            fk_status s = fk_parquet_chunk_info(in.pf, rg, c, &k);
            if (s != FK_OK) {
                fprintf(stderr, "filterkit parquet info: %s: %s\n", path, fk_strerror(s));
                failed = 1;
                break;
            }
            printf("%s\t%" PRIu64 "\t%s\t%s", path, rg, name, k.type_name);
            fk_filter *f = NULL;
            s = fk_parquet_chunk_filter(in.pf, rg, c, &f);
            if (s == FK_ENOTFOUND) {
                printf("\tno filter\n");
                continue;
            }
            if (s != FK_OK) {
                printf("\tunreadable filter: %s\n", fk_strerror(s));
                fprintf(stderr, "filterkit parquet info: %s: row group %" PRIu64 " column %s: %s\n", path, rg,
                        name, fk_strerror(s));
                failed = 1;
                continue;
            }
            /* the FPR the fill gives: the library's expected_fpr for a
             * Parquet filter (blocked/blocked.h) */
            fk_stats st;
            fk_filter_stats(f, &st);
            const void *bits;
            size_t bytes = 0;
            fk_blocked_sbbf(f, &bits, &bytes); /* the bitset's bytes */
            /* distinct values: the statistics', else the dictionary's size */
            uint64_t distinct = 0;
            const char *from = "";
            if (k.distinct_count >= 0) {
                distinct = (uint64_t)k.distinct_count;
                from = "stats";
            } else if (k.dictionary_entries >= 0) {
                distinct = (uint64_t)k.dictionary_entries;
                from = "dictionary";
            }
            printf("\t%zu\t%.4f\t%.3g", bytes, st.load_factor, st.expected_fpr);
            if (*from && distinct)
                printf("\t%" PRIu64 "\t%.2f\t%s\n", distinct, 8.0 * (double)bytes / (double)distinct, from);
            else if (*from)
                printf("\t0\t-\t%s\n", from);
            else
                printf("\t-\t-\t-\n");
            fk_filter_free(f);
        }
    }
    pq_close(&in);
    return failed ? -1 : 0;
}

static int parquet_info(int argc, char **argv)
{
    const fkc_opt opts[] = { { NULL, 0, NULL, NULL, NULL } };
    const fkc_cmd_spec spec = {
        "parquet info", "FILE...",
        "One tab-separated row per column chunk of each Parquet FILE, under a header\n"
        "line: file, row group, column path, physical type, then for a chunk with a\n"
        "split-block Bloom filter its bytes (the bitset), the share of its bits set,\n"
        "the false-positive rate that fill gives (the mean over blocks of the product\n"
        "over the 8 words of bits set / 32), the distinct values the footer's\n"
        "statistics or the dictionary page state, bits of filter per distinct value,\n"
        "and where the count came from ('-' where unknown); 'no filter' for a chunk\n"
        "without one.",
        opts,
    };
    const char *operand[PQ_MAX_FILES];
    int n = 0;
    int rc = fkc_args_parse_operands_range(&spec, NULL, argc, argv, operand, 1, PQ_MAX_FILES, &n,
                                          "FILE (a Parquet file)");
    if (rc)
        return rc == FKC_ARGS_HELP ? PQ_OK : PQ_ERROR;
    printf("file\trow_group\tcolumn\ttype\tfilter_bytes\tbits_set\tfpr\tdistinct\tbits_per_distinct\tdistinct_from\n");
    int failed = 0;
    for (int i = 0; i < n && !ferror(stdout); i++)
        failed |= info_file(operand[i]) != 0;
    return failed ? PQ_ERROR : PQ_OK;
}

/* --------------------------------------------------------------- probe */

/* One file's filters for the probed column: NULL for a row group without
 * one (it may hold any value). */
typedef struct {
    pq_input in;
    int type;
    const char *type_name;
    uint64_t groups;
    fk_filter **filters;
} pq_probe_file;

static int probe_load(const char *path, const char *column, pq_probe_file *pf)
{
    memset(pf, 0, sizeof *pf);
    if (pq_open("parquet probe", path, &pf->in) != 0)
        return -1;
    uint64_t col;
    if (pq_column("parquet probe", &pf->in, column, &col) != 0)
        return -1;
    fk_parquet_shape(pf->in.pf, &pf->groups, NULL);
    pf->filters = calloc(pf->groups ? (size_t)pf->groups : 1, sizeof *pf->filters);
    if (!pf->filters) {
        fprintf(stderr, "filterkit parquet probe: out of memory\n");
        return -1;
    }
    for (uint64_t rg = 0; rg < pf->groups; rg++) {
        fk_parquet_chunk k;
        fk_status s = fk_parquet_chunk_info(pf->in.pf, rg, col, &k);
        pf->type = k.type;
        pf->type_name = k.type_name;
        if (s == FK_OK)
            s = fk_parquet_chunk_filter(pf->in.pf, rg, col, &pf->filters[rg]);
        if (s != FK_OK && s != FK_ENOTFOUND) {
            fprintf(stderr, "filterkit parquet probe: %s: row group %" PRIu64 ": %s\n", path, rg, fk_strerror(s));
            return -1;
        }
    }
    return 0;
}

static void probe_free(pq_probe_file *pf)
{
    for (uint64_t rg = 0; pf->filters && rg < pf->groups; rg++)
        fk_filter_free(pf->filters[rg]);
    free(pf->filters);
    pq_close(&pf->in);
}

static int parquet_probe(int argc, char **argv)
{
    const fkc_opt opts[] = { { NULL, 0, NULL, NULL, NULL } };
    const fkc_cmd_spec spec = {
        "parquet probe", "FILE COLUMN [FILE...]",
        "Reads one value per line from stdin, parsed by COLUMN's physical type\n"
        "(INT32, INT64: decimal integers; FLOAT, DOUBLE: decimal numbers; BYTE_ARRAY:\n"
        "the line's bytes), and prints 'VALUE<TAB>ROW_GROUPS' for each: the\n"
        "comma-separated ids of the row groups whose Bloom filter may contain it, in\n"
        "file order (empty when every filter excludes it). A row group whose chunk\n"
        "has no filter may contain any value and is always listed. With more FILEs\n"
        "(each with a column COLUMN) a row group is named FILE:ID.\n"
        "Exit status as grep's: 0 when some value may be somewhere, 1 when none may\n"
        "be anywhere, 2 on an error (a value that does not parse is reported and\n"
        "skipped; the exit status is then 2).",
        opts,
    };
    const char *operand[PQ_MAX_FILES + 1];
    int n = 0;
    int rc = fkc_args_parse_operands_range(&spec, NULL, argc, argv, operand, 2, PQ_MAX_FILES + 1, &n,
                                          "FILE COLUMN");
    if (rc)
        return rc == FKC_ARGS_HELP ? PQ_OK : PQ_ERROR;
    const char *column = operand[1];
    int nfiles = n - 1;
    const char *paths[PQ_MAX_FILES];
    paths[0] = operand[0];
    for (int i = 2; i < n; i++)
        paths[i - 1] = operand[i];
    pq_probe_file *files = calloc((size_t)nfiles, sizeof *files);
    if (!files) {
        fprintf(stderr, "filterkit parquet probe: out of memory\n");
        return PQ_ERROR;
    }
    int failed = 0;
    for (int i = 0; i < nfiles && !failed; i++)
        failed = probe_load(paths[i], column, &files[i]) != 0;
    fkc_linereader r;
    int got = 0;
    uint64_t maybe_any = 0, bad_values = 0;
    if (!failed && fkc_linereader_init(&r, stdin, 0) != 0) {
        fprintf(stderr, "filterkit parquet probe: out of memory\n");
        failed = 1;
    } else if (!failed) {
        const char *line;
        size_t len;
        uint8_t plain[FK_PARQUET_VALUE_FIXED_MAX];
        while (!ferror(stdout) && (got = fkc_linereader_next(&r, &line, &len)) > 0) {
            int printed_value = 0, listed = 0;
            for (int i = 0; i < nfiles; i++) {
                const void *key;
                size_t key_len;
                if (fk_parquet_value_encode(files[i].type, line, len, plain, &key, &key_len) != FK_OK) {
                    fprintf(stderr, "filterkit parquet probe: line %" PRIu64 ": '%.*s' is not a value of type %s\n",
                            r.lines, (int)(len > 80 ? 80 : len), line, files[i].type_name);
                    bad_values++;
                    break;
                }
                if (!printed_value) {
                    fwrite(line, 1, len, stdout);
                    putchar('\t');
                    printed_value = 1;
                }
                for (uint64_t rg = 0; rg < files[i].groups; rg++) {
                    const fk_filter *f = files[i].filters[rg];
                    if (f && !fk_filter_contains(f, key, key_len))
                        continue;
                    if (listed++)
                        putchar(',');
                    if (nfiles > 1)
                        printf("%s:", files[i].in.path);
                    printf("%" PRIu64, rg);
                }
            }
            if (printed_value)
                putchar('\n');
            maybe_any += listed != 0;
        }
        if (got < 0) {
            fprintf(stderr, "filterkit parquet probe: reading values from stdin: %s\n", fkc_linereader_error(errno));
            failed = 1;
        }
        fkc_linereader_free(&r);
    }
    for (int i = 0; i < nfiles; i++)
        probe_free(&files[i]);
    free(files);
    if (failed || bad_values)
        return PQ_ERROR;
    return maybe_any ? PQ_OK : PQ_NONE;
}

/* ------------------------------------------------------------- extract */

static int parquet_extract(int argc, char **argv)
{
    const fkc_opt opts[] = { { NULL, 0, NULL, NULL, NULL } };
    const fkc_cmd_spec spec = {
        "parquet extract", "FILE COLUMN ROW_GROUP > f.fk",
        "Writes the Bloom filter of COLUMN in row group ROW_GROUP (0 is the first)\n"
        "of the Parquet FILE to stdout as a filterkit file: a blocked filter with\n"
        "the Parquet hashing scheme, holding the file's bitset byte for byte, that\n"
        "'filterkit query', 'info' and the library answer as the file's readers do\n"
        "(keys are the values' plain encodings). Fails when the chunk has no filter.",
        opts,
    };
    const char *operand[3];
    int rc = fkc_args_parse_operands(&spec, NULL, argc, argv, operand, 3, "FILE COLUMN ROW_GROUP");
    if (rc)
        return rc == FKC_ARGS_HELP ? PQ_OK : PQ_ERROR;
    uint64_t rg;
    if (fkc_parse_u64(operand[2], &rg) != 0)
        return fkc_args_fail(&spec, "ROW_GROUP '%s' is not a number", operand[2]);
    pq_input in;
    if (pq_open(spec.name, operand[0], &in) != 0)
        return PQ_ERROR;
    uint64_t col;
    int rcode = PQ_ERROR;
    fk_filter *f = NULL;
    if (pq_column(spec.name, &in, operand[1], &col) != 0)
        goto done;
    uint64_t groups;
    fk_parquet_shape(in.pf, &groups, NULL);
    if (rg >= groups) {
        fprintf(stderr, "filterkit %s: %s: no row group %" PRIu64 " (it has %" PRIu64 ")\n", spec.name,
                operand[0], rg, groups);
        goto done;
    }
    fk_status s = fk_parquet_chunk_filter(in.pf, rg, col, &f);
    if (s != FK_OK) {
        fprintf(stderr, "filterkit %s: %s: row group %" PRIu64 " column %s: %s\n", spec.name, operand[0], rg,
                operand[1], s == FK_ENOTFOUND ? "the chunk has no Bloom filter" : fk_strerror(s));
        goto done;
    }
    s = fk_filter_save_file(f, stdout);
    if (s != FK_OK) {
        fprintf(stderr, "filterkit %s: writing to stdout: %s\n", spec.name, fk_strerror(s));
        goto done;
    }
    rcode = PQ_OK;
done:
    fk_filter_free(f);
    pq_close(&in);
    return rcode;
}

/* ---------------------------------------------------------- dispatcher */

static const struct {
    const char *name;
    int (*run)(int argc, char **argv);
} subcommands[] = {
    { "info", parquet_info },
    { "probe", parquet_probe },
    { "extract", parquet_extract },
};

int fkc_cmd_parquet(int argc, char **argv)
{
    const fkc_opt opts[] = { { NULL, 0, NULL, NULL, NULL } };
    const fkc_cmd_spec spec = {
        "parquet", "info FILE... | probe FILE COLUMN [FILE...] | extract FILE COLUMN ROW_GROUP",
        "The split-block Bloom filters Parquet writers (Arrow, parquet-java, DuckDB,\n"
        "Spark, ...) store per column chunk:\n"
        "  parquet info FILE...                   each chunk's filter: bytes, fill, FPR\n"
        "  parquet probe FILE COLUMN [FILE...]    which row groups may hold each value of stdin\n"
        "  parquet extract FILE COLUMN ROW_GROUP  one chunk's filter as a filterkit file\n"
        "'filterkit parquet SUBCOMMAND --help' says more.",
        opts,
    };
    if (argc >= 2 && argv[1][0] != '-') {
        for (size_t i = 0; i < sizeof subcommands / sizeof subcommands[0]; i++)
            if (strcmp(argv[1], subcommands[i].name) == 0)
                return subcommands[i].run(argc - 1, argv + 1);
        return fkc_args_fail(&spec, "unknown subcommand '%s' (info, probe or extract)", argv[1]);
    }
    int rc = fkc_args_parse(&spec, argc, argv);
    if (rc)
        return rc == FKC_ARGS_HELP ? PQ_OK : PQ_ERROR;
    return fkc_args_fail(&spec, "missing subcommand (info, probe or extract)");
}
