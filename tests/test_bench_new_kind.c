/* tests/test_bench_new_kind.c: a new kind is its own files plus one
 * registration. The test-only kind of tests/fpset/, once passed to
 * fk_ops_register, is run by the CLI's own subcommands, unchanged:
 * `bench`, `pick` (whose memory model sizes it through its fk_ops), and `build` /
 * `query` / `info` (saving and loading it by its file kind id). Each
 * subcommand runs in this process with stdin and stdout redirected to
 * files. Links libfk_bench.a. */
#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>
#include "check.h"
#include "../bench/cli/cmd.h"
#include "../bench/measure/memory_model.h"
#include "../registry/registry.h"
#include "fpset/fpset.h"
#include "../common/endian.h"

static char dir[] = "/tmp/fk_new_kind_XXXXXX";
static char path_keys[64], path_other[64], path_filter[64], path_out[64];

/* Runs cmd(argv) with stdin from in (or untouched when NULL) and stdout
 * into out; returns the subcommand's exit status. */
static int run(int (*cmd)(int, char **), const char *in, const char *out, char **argv)
{
    int argc = 0;
    while (argv[argc])
        argc++;
    fflush(stdout);
    int saved_out = dup(STDOUT_FILENO), saved_in = dup(STDIN_FILENO);
    int fd_out = open(out, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    int fd_in = in ? open(in, O_RDONLY) : -1;
    if (saved_out < 0 || saved_in < 0 || fd_out < 0 || (in && fd_in < 0)) {
        CHECK_MSG(0, "cannot redirect for %s", argv[0]);
        return -1;
    }
    dup2(fd_out, STDOUT_FILENO);
    if (in)
        dup2(fd_in, STDIN_FILENO);
    clearerr(stdin);
    int rc = cmd(argc, argv);
    fflush(stdout);
    dup2(saved_out, STDOUT_FILENO);
    dup2(saved_in, STDIN_FILENO);
    clearerr(stdin);
    close(saved_out);
    close(saved_in);
    close(fd_out);
    if (fd_in >= 0)
        close(fd_in);
    return rc;
}

/* The whole of a small file, NUL-terminated (caller frees), or NULL. */
static char *slurp(const char *path)
{
    FILE *fp = fopen(path, "rb");
    if (!fp)
        return NULL;
    char *buf = calloc(1, 1 << 20);
    size_t n = buf ? fread(buf, 1, (1 << 20) - 1, fp) : 0;
    (void)n;
    fclose(fp);
    return buf;
}

static bool output_has(const char *text)
{
    char *out = slurp(path_out);
    bool has = out && strstr(out, text) != NULL;
    CHECK_MSG(has, "output lacks '%s':\n%s", text, out ? out : "(none)");
    free(out);
    return has;
}

static void write_keys(const char *path, const char *prefix, int n)
{
    FILE *fp = fopen(path, "w");
    for (int i = 0; fp && i < n; i++)
        fprintf(fp, "%s-%d\n", prefix, i);
    if (fp)
        fclose(fp);
}

TEST(bench_runs_the_new_kind)
{
    char *argv[] = { "bench", "--filters", "fpset,bloom", "--n", "20000", "--repeat", "1",
                     "--lookups", "20000", "--out", "-", NULL };
    CHECK_EQ_U64(run(fkc_cmd_bench, NULL, path_out, argv), 0);
    output_has("fpset");
}

TEST(pick_sizes_the_new_kind_through_its_ops)
{
    char *argv[] = { "pick", "--n", "20000", "--fpr", "0.01", "--repeat", "1", NULL };
    int rc = run(fkc_cmd_pick, NULL, path_out, argv);
    CHECK(rc == 0 || rc == 1);
    output_has("fpset");
    /* pick's memory model asks the kind (fk_ops_size): exact at any n */
    char desc[160];
    fk_params p = fk_params_make(UINT64_C(1000000000), 0.01);
    fk_sizing sz;
    CHECK_STATUS(fk_ops_size(&fk_test_fpset_ops, &p, &sz), FK_OK);
    CHECK_EQ_U64(fkc_model_bytes(&fk_test_fpset_ops, p.capacity, 0.01, desc, sizeof desc),
                 sz.memory_bytes);
    CHECK(strstr(desc, "fingerprints in") != NULL);
    fk_filter *f = NULL;
    p.capacity = 20000;
    CHECK_STATUS(fk_filter_new(&fk_test_fpset_ops, &p, &f), FK_OK);
    fk_stats st;
    fk_filter_stats(f, &st);
    int exact = 0;
    uint64_t at_1e9 = fkc_model_extrapolate(&fk_test_fpset_ops, 0.01, 20000, st.memory_bytes,
                                           UINT64_C(1000000000), &exact);
    CHECK(exact == 1);
    CHECK_EQ_U64(at_1e9, sz.memory_bytes);
    fk_filter_free(f);
}

TEST(build_query_info_save_and_load_the_new_kind)
{
    char *build[] = { "build", "--kind", "fpset", "--fpr", "0.001", NULL };
    CHECK_EQ_U64(run(fkc_cmd_build, path_keys, path_filter, build), 0);
    char *count[] = { "query", "-c", path_filter, NULL };
    CHECK_EQ_U64(run(fkc_cmd_query, path_keys, path_out, count), 0);
    output_has("1000"); /* every key it was built from */
    FILE *fp = fopen(path_filter, "rb");
    fk_filter *f = NULL;
    CHECK_STATUS(fp ? fk_filter_load_file_any(fp, &f) : FK_EIO, FK_OK);
    if (fp)
        fclose(fp);
    CHECK(fk_filter_ops(f) == &fk_test_fpset_ops);
    CHECK(fk_filter_contains(f, "key-999", 7));
    fk_filter_free(f);
    char *info[] = { "info", path_filter, NULL };
    CHECK_EQ_U64(run(fkc_cmd_info, NULL, path_out, info), 0);
    output_has("fpset");
    output_has("fingerprint bits:"); /* its own names for its header parameters */
    char *absent[] = { "query", "-c", path_filter, NULL };
    CHECK_EQ_U64(run(fkc_cmd_query, path_other, path_out, absent), 0);
    char *out = slurp(path_out);
    CHECK_MSG(out && atoi(out) < 20, "absent keys matched: %s", out ? out : "(none)");
    free(out);
}

int main(void)
{
    if (!mkdtemp(dir)) {
        perror("mkdtemp");
        return 1;
    }
    snprintf(path_keys, sizeof path_keys, "%s/keys", dir);
    snprintf(path_other, sizeof path_other, "%s/other", dir);
    snprintf(path_filter, sizeof path_filter, "%s/filter", dir);
    snprintf(path_out, sizeof path_out, "%s/out", dir);
    write_keys(path_keys, "key", 1000);
    write_keys(path_other, "other", 1000);
    CHECK_STATUS(fk_ops_register(&fk_test_fpset_ops), FK_OK); /* the one registration */
    RUN(bench_runs_the_new_kind);
    RUN(pick_sizes_the_new_kind_through_its_ops);
    RUN(build_query_info_save_and_load_the_new_kind);
    remove(path_keys);
    remove(path_other);
    remove(path_filter);
    remove(path_out);
    rmdir(dir);
    return check_report();
}
