/* bench/cli/cmd_build.c: `filterkit build --kind K --fpr P [--capacity N]
 * [--seed S] < keys > f.fk`: builds a filter from the lines of stdin and
 * writes it, saved (common/serial.h), to stdout. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "args.h"
#include "build_threads.h"
#include "cmd.h"
#include "filterfile.h"
#include "hints.h"
#include "memlimit.h"
#include "../keys/keyfeed.h"
#include "../keys/keylines.h"
#include "../../registry/registry.h"
#include "../../blocked/blocked.h"
#include "../../common/hash.h"
#include "../../parquet/parquet_value.h"

/* The first sub-filter's capacity of a growing kind built without
 * --capacity. */
#define GROWING_START_CAPACITY (UINT64_C(1) << 16)
/* A kind with a hard capacity (cuckoo) built without --capacity is sized
 * for the line count plus this share: sized for exactly the lines it would
 * be 94% full at birth, and 'filterkit add' would fail within a few
 * thousand keys. */
#define BOUNDED_HEADROOM 0.25

/* The capacity a build without --capacity gives `lines` lines. */
static uint64_t default_capacity(const fk_ops *ops, uint64_t lines)
{
    if (!lines)
        return 1;
    if (fk_ops_caps(ops) & FK_CAP_BOUNDED)
        return (uint64_t)ceil((double)lines * (1 + BOUNDED_HEADROOM));
    return lines;
}

/* The over-capacity warning: counted in lines read, which is what the user
 * knows of the input (a Bloom filter skips the lines it already answers
 * "maybe present" to, so its inserts undercount a saturated filter). */
static void warn_over(uint64_t lines, uint64_t inserted, uint64_t capacity, double fpr)
{
    fprintf(stderr, "filterkit build: warning: %llu lines read (%llu inserted as new keys) for a capacity of "
            "%llu (more than 10%% over): the false-positive rate is above %g; 'filterkit info' shows the "
            "expected rate; give --capacity N, or a growing kind (scalable-*)\n",
            (unsigned long long)lines, (unsigned long long)inserted, (unsigned long long)capacity, fpr);
}

/* Without --capacity: counts the lines of stdin, then starts the reader at
 * its beginning again -- by seeking back when stdin is a regular file
 * (nothing held in memory), else by holding the whole input. Returns 0, or
 * -1 with errno. */
static int count_then_rewind(fkc_linereader *r, int binary_lines, uint64_t *lines)
{
    int fd = fileno(stdin);
    struct stat st;
    off_t start = lseek(fd, 0, SEEK_CUR);
    const char *key;
    size_t len;
    int got;
    if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && start >= 0) {
        if (fkc_linereader_init(r, stdin, binary_lines) != 0)
            return -1;
        while ((got = fkc_linereader_next(r, &key, &len)) == 1)
            ;
        *lines = r->lines;
        fkc_linereader_free(r);
        if (got < 0 || lseek(fd, start, SEEK_SET) != start)
            return -1;
        return fkc_linereader_init(r, stdin, binary_lines);
    }
    char *data;
    size_t size;
    if (fkc_read_all(stdin, &data, &size) != 0)
        return -1;
    fkc_linereader_init_mem(r, data, size, binary_lines);
    *lines = 0;
    for (const char *p = data, *end = data + size; p < end; ++*lines) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        p = nl ? nl + 1 : end;
    }
    return 0;
}

/* build --threads: the keys read whole, then inserted by `threads`
 * threads (build_threads.c). Returns the command's exit status. */
static int build_threaded(const fk_ops *ops, double fpr, uint64_t capacity, uint64_t seed,
                          uint64_t max_bytes, int binary_lines, int unique_input, unsigned threads)
{
    if (!FK_OPS_HAS(ops, FK_OPS_V4, insert_concurrent)) {
        fprintf(stderr, "filterkit build: --threads: a %s filter has no concurrent insert\n",
                ops->name);
        return 2;
    }
    fkc_linereader r;
    fkc_keylist keys;
    if (fkc_linereader_init(&r, stdin, binary_lines) != 0 ||
        fkc_keylist_read(&r, unique_input, &keys) != 0) {
        fprintf(stderr, "filterkit build: reading keys from stdin: %s\n",
                fkc_linereader_error(errno));
        fkc_linereader_free(&r);
        return 1;
    }
    uint64_t lines = r.lines;
    fkc_linereader_free(&r);
    fk_params p = fk_params_make(capacity ? capacity : default_capacity(ops, keys.count), fpr);
    p.seed = seed;
    p.max_bytes = max_bytes ? max_bytes : fkc_memlimit_default();
    fk_filter *f = NULL;
    fk_status s = fk_filter_new(ops, &p, &f);
    if (s != FK_OK) {
        fprintf(stderr, "filterkit build: cannot create a %s filter for %llu items at fpr %g: %s%s\n",
                ops->name, (unsigned long long)p.capacity, fpr, fk_strerror(s), fkc_memlimit_hint(s));
        fkc_keylist_free(&keys);
        return 1;
    }
    uint64_t done = 0;
    s = fkc_insert_threads(f, &keys, threads, &done);
    if (s == FK_EFULL) {
        fprintf(stderr, "filterkit build: the %s filter is full after %llu keys\n", ops->name,
                (unsigned long long)done);
        fkc_hint_full(stderr, "build", ops, (unsigned long long)p.capacity);
    } else if (s != FK_OK) {
        fprintf(stderr, "filterkit build: insert failed after %llu keys: %s%s\n",
                (unsigned long long)done, fk_strerror(s), fkc_memlimit_hint(s));
    }
    if (s == FK_OK && (double)keys.count > 1.1 * (double)p.capacity)
        warn_over(lines, done, p.capacity, fpr);
    if (s == FK_OK && (s = fk_filter_save_file(f, stdout)) != FK_OK)
        fprintf(stderr, "filterkit build: writing the filter to stdout: %s\n",
                s == FK_EIO ? strerror(errno) : fk_strerror(s));
    fk_filter_free(f);
    fkc_keylist_free(&keys);
    return s == FK_OK ? 0 : 1;
}

/* A static kind (FK_CAP_STATIC: built from the whole set, fuse): the
 * lines are read once into memory (no line set: the kind drops repeats
 * itself), then built in one call, by `threads` threads where the kind
 * can. Memory: the input's bytes plus 8 bytes of offset and 16 of pointer
 * and length per line, the kind's build (fuse: about 18 bytes a key at its
 * peak, freed before the filter is written), and the filter. Returns the
 * command's exit status. */
static int build_static(const fk_ops *ops, double fpr, uint64_t capacity, uint64_t seed,
                        uint64_t max_bytes, int binary_lines, unsigned threads)
{
    fkc_linereader r;
    fkc_keylist keys;
    if (fkc_linereader_init(&r, stdin, binary_lines) != 0 ||
        fkc_keylist_read(&r, 1, &keys) != 0) {
        fprintf(stderr, "filterkit build: reading keys from stdin: %s\n",
                fkc_linereader_error(errno));
        fkc_linereader_free(&r);
        return 1;
    }
    fkc_linereader_free(&r);
    size_t n = (size_t)keys.count;
    const void **ptrs = malloc((n ? n : 1) * sizeof *ptrs);
    size_t *lens = malloc((n ? n : 1) * sizeof *lens);
    if (!ptrs || !lens) {
        fprintf(stderr, "filterkit build: %llu keys: %s\n", (unsigned long long)n,
                fk_strerror(FK_ENOMEM));
        free(ptrs);
        free(lens);
        fkc_keylist_free(&keys);
        return 1;
    }
    for (size_t i = 0; i < n; i++) {
        ptrs[i] = keys.bytes ? keys.bytes + keys.off[i] : "";
        lens[i] = (size_t)(keys.off[i + 1] - keys.off[i]);
    }
    fk_params p = fk_params_make(capacity, fpr); /* capacity 0: the keys */
    p.seed = seed;
    p.max_bytes = max_bytes ? max_bytes : fkc_memlimit_default();
    p.threads = threads;
    fk_filter *f = NULL;
    fk_status s = fk_filter_build(ops, &p, n, ptrs, lens, &f);
    free(ptrs);
    free(lens);
    fkc_keylist_free(&keys);
    if (s != FK_OK) {
        fprintf(stderr, "filterkit build: cannot build a %s filter from %llu keys at fpr %g: %s%s\n",
                ops->name, (unsigned long long)n, fpr, fk_strerror(s),
                s == FK_EFULL ? " (the set would not peel under any seed tried: give another --seed)"
                              : "");
        return 1;
    }
    if ((s = fk_filter_save_file(f, stdout)) != FK_OK)
        fprintf(stderr, "filterkit build: writing the filter to stdout: %s\n",
                s == FK_EIO ? strerror(errno) : fk_strerror(s));
    fk_filter_free(f);
    return s == FK_OK ? 0 : 1;
}

/* build --hash parquet: a blocked filter with Parquet's hashing scheme
 * (blocked/blocked.h) of `bytes` bytes, or of the size Parquet writers
 * give ndv distinct values at fpr (ndv 0: the line count), the lines
 * parsed as values of the physical type `type` (parquet/parquet_value.h).
 * Returns the command's exit status. */
static int build_parquet(int type, uint64_t bytes, uint64_t ndv, double fpr, int binary_lines)
{
    fkc_linereader r;
    int ok;
    if (!bytes && !ndv) {
        ok = count_then_rewind(&r, binary_lines, &ndv) == 0;
    } else {
        ok = fkc_linereader_init(&r, stdin, binary_lines) == 0;
    }
    if (!ok) {
        fprintf(stderr, "filterkit build: reading values from stdin: %s\n", fkc_linereader_error(errno));
        return 1;
    }
    if (!bytes)
        bytes = fk_blocked_parquet_bytes(ndv, fpr);
    fk_filter *f = NULL;
    fk_status s = fk_blocked_new_parquet(bytes, &f);
    if (s != FK_OK) {
        fprintf(stderr, "filterkit build: cannot create a Parquet filter of %llu bytes: %s%s\n",
                (unsigned long long)bytes, fk_strerror(s),
                s == FK_EINVAL ? " (a power of two from 32 bytes to 128 MiB)" : "");
        fkc_linereader_free(&r);
        return 1;
    }
    const char *line;
    size_t len;
    int got;
    while (s == FK_OK && (got = fkc_linereader_next(&r, &line, &len)) == 1) {
        uint8_t plain[FK_PARQUET_VALUE_FIXED_MAX];
        const void *key;
        size_t key_len;
        s = fk_parquet_value_encode(type, line, len, plain, &key, &key_len);
        if (s != FK_OK)
            fprintf(stderr, "filterkit build: line %llu: '%.*s' is not a value of the --type\n",
                    (unsigned long long)r.lines, (int)(len > 80 ? 80 : len), line);
        else
            s = fk_filter_insert(f, key, key_len);
    }
    if (s == FK_OK && got < 0) {
        fprintf(stderr, "filterkit build: reading values from stdin: %s\n", fkc_linereader_error(errno));
        s = FK_EIO;
    }
    uint64_t lines = r.lines;
    fkc_linereader_free(&r);
    if (s == FK_OK && ndv && (double)lines > 1.1 * (double)ndv) {
        fk_stats st;
        fk_filter_stats(f, &st);
        fprintf(stderr, "filterkit build: warning: %llu lines for %llu distinct values (--n): the "
                "false-positive rate its bits give is %.3g\n", (unsigned long long)lines,
                (unsigned long long)ndv, st.expected_fpr);
    }
    if (s == FK_OK && (s = fk_filter_save_file(f, stdout)) != FK_OK)
        fprintf(stderr, "filterkit build: writing the filter to stdout: %s\n",
                s == FK_EIO ? strerror(errno) : fk_strerror(s));
    fk_filter_free(f);
    return s == FK_OK ? 0 : 1;
}

/* --hash parquet, --type and --bytes (others: an option that does not go
 * with them was given): -1 when none of the three is (the ordinary build
 * follows), else the command's exit status. */
static int build_parquet_opts(const fkc_cmd_spec *spec, const fk_ops *ops, const char *hash,
                              const char *type_name, uint64_t bytes, uint64_t ndv, double fpr,
                              int binary_lines, int others)
{
    if (!hash || strcmp(hash, "parquet") != 0) {
        if (type_name || bytes)
            return fkc_args_fail(spec, "--type and --bytes go with --hash parquet");
        return -1;
    }
    /* the kinds whose files take Parquet's scheme (blocked) */
    if (!ops->serial || ops->serial->second_hash_scheme != FK_HASH_SCHEME_PARQUET_XXH64)
        return fkc_args_fail(spec, "--hash parquet: a %s filter cannot hash as Parquet (--kind blocked)",
                             ops->name);
    int type = 0;
    if (!type_name || fk_parquet_value_type(type_name, &type) != FK_OK)
        return fkc_args_fail(spec, "--hash parquet: missing --type T (int32, int64, float, double or bytes)");
    if (!bytes && fpr == 0)
        return fkc_args_fail(spec, "--hash parquet: give --fpr P (with --n, or the line count) or --bytes B");
    if (bytes && (ndv || fpr != 0))
        return fkc_args_fail(spec, "--hash parquet: --bytes B sets the size: no --n or --fpr beside it");
    if (others)
        return fkc_args_fail(spec, "--hash parquet: no --seed (Parquet's is 0), --threads, --growth, "
                             "--tightening, --unique-input or --max-bytes");
    if (isatty(STDOUT_FILENO))
        return fkc_args_fail(spec, "refusing to write a binary filter to a terminal; redirect stdout");
    return build_parquet(type, bytes, ndv, fpr, binary_lines);
}

/* build's --help text into about (len bytes): the kinds it names come from
 * the registry, by capability. */
static void build_about(char *about, size_t len)
{
    char removers[256], bounded[256], statics[256];
    fkc_kinds_with(FK_CAP_REMOVE, removers, sizeof removers);
    fkc_kinds_with(FK_CAP_BOUNDED, bounded, sizeof bounded);
    fkc_kinds_with(FK_CAP_STATIC, statics, sizeof statics);
    snprintf(about, len,
        "Reads one key per line from stdin and writes a new filter holding every\n"
        "distinct line, saved, to stdout, e.g.\n"
        "  filterkit build --kind bloom --fpr 0.001 < seen.txt > seen.fk\n"
        "A key is the line's bytes without its '\\n' and without one '\\r' before it\n"
        "(CRLF and LF files give the same keys; --binary-lines keeps the '\\r').\n"
        "Duplicate lines are inserted once: for kinds that can remove (%s)\n"
        "repeats are found exactly by a set of 128-bit line hashes (16-21\n"
        "bytes of memory per distinct line while building), so removing each key\n"
        "once later leaves no false negatives; for other kinds a line the filter\n"
        "already answers 'maybe present' to is skipped (it would set no new bit).\n"
        "--unique-input vouches that no line repeats (sort -u output): no line set is\n"
        "kept, and a repeated line would be inserted twice.\n"
        "With --capacity N (or a growing kind) the input is streamed: memory is the\n"
        "filter plus a 64 KiB line buffer (plus the line set above). Without it the\n"
        "capacity is the line count (plus 25%% for a kind that fills up: %s;\n"
        "so that 'filterkit add' has room): a regular file is read twice, a pipe is\n"
        "held in memory whole. A warning says when the lines read exceed the capacity\n"
        "by more than 10%% (the false-positive rate is then above target; 'filterkit\n"
        "info' shows the expected rate). Query it with 'filterkit query', change\n"
        "it with 'filterkit add' and 'filterkit remove'. 'filterkit pick' prints a\n"
        "build line for a workload.\n"
        "--threads T reads the whole input first (each distinct line kept once, by\n"
        "the line set, unless --unique-input), then T threads insert their shares at\n"
        "once (fk_filter_insert_concurrent; kinds without it are refused). Every\n"
        "distinct line is inserted and counted. Bloom and blocked filters come out\n"
        "byte for byte as a one-thread '--unique-input' build of the distinct lines\n"
        "(bits are ORed, in any order); counting filters too (counter increments\n"
        "add up in any order); a cuckoo filter holds the same keys and count with\n"
        "no false negatives, but which slot a fingerprint lands in depends on the\n"
        "order, so its bytes may differ from run to run.\n"
        "A static kind (%s: built from the whole set, never added to) reads the\n"
        "lines once into memory (the input's bytes plus 24 bytes a line) and builds\n"
        "the filter in one call, dropping repeated lines itself; the build holds\n"
        "more memory at its peak (fuse: about 18 bytes a key, fuse/fuse.h), freed\n"
        "before the filter is written. --threads T builds its shards in parallel\n"
        "(fuse: sets above 16.7M keys); --capacity is informative only,\n"
        "--unique-input changes nothing.\n"
        "--hash parquet --type T (--kind blocked) builds Parquet's split-block Bloom\n"
        "filter, byte for byte what a Parquet writer stores for a column chunk: each\n"
        "line is a value of physical type T (int32, int64: decimal integers; float,\n"
        "double: numbers; bytes: the line itself, a BYTE_ARRAY), hashed as XXH64\n"
        "(seed 0) of its PLAIN encoding. Its size is --bytes B, or the one Parquet\n"
        "writers choose for --n distinct values (default: the line count) at --fpr\n"
        "(their OptimalNumOfBits: a power of two from 32 bytes to 128 MiB).\n"
        "'filterkit export --sbbf' writes it in the file's framing.", removers, bounded, statics);
}

int fkc_cmd_build(int argc, char **argv)
{
    fkc_kind_opt kind = { .need = FK_CAP_SERIALIZE, .what = "that can be saved" };
    double fpr = 0;
    uint64_t capacity = 0, seed = 0, growth = 0, max_bytes = 0;
    double tightening = 0;
    int binary_lines = 0, unique_input = 0;
    uint64_t threads = 0, bytes = 0;
    const char *hash = NULL, *type_name = NULL;
    const fkc_opt opts[] = {
        { "kind", FKC_OPT_KIND, &kind, "K", "the filter's kind (required)" },
        { "fpr", FKC_OPT_FPR, &fpr, "P", "target false-positive rate, e.g. 0.01 or 1% (required)" },
        { "capacity", FKC_OPT_COUNT, &capacity, "N", "items to size for; streams the input (default: its line count)" },
        { "seed", FKC_OPT_U64, &seed, "S", "hash seed (default: 0)" },
        { "growth", FKC_OPT_COUNT, &growth, "S", "growing kinds: each sub-filter S times the previous one's capacity (default 2)" },
        { "tightening", FKC_OPT_FPR, &tightening, "R", "growing kinds: each sub-filter's fpr R times the previous one's (default 0.9)" },
        { "binary-lines", FKC_OPT_FLAG, &binary_lines, NULL, "keep a '\\r' before the '\\n' as part of the key" },
        { "unique-input", FKC_OPT_FLAG, &unique_input, NULL, "no line repeats (e.g. sort -u): keep no line set" },
        { "threads", FKC_OPT_COUNT, &threads, "T", "insert with T threads at once (holds the input in memory)" },
        FKC_MEMLIMIT_OPT(&max_bytes),
        { "hash", FKC_OPT_CHOICE, &hash, "xxh3|parquet", "the hashing scheme: xxh3 (default), or parquet: Parquet's split-block Bloom filter (--kind blocked)" },
        { "type", FKC_OPT_CHOICE, &type_name, "int32|int64|float|double|bytes", "--hash parquet: the values' physical type (required)" },
        { "bytes", FKC_OPT_BYTES, &bytes, "B", "--hash parquet: the bitset's size, a power of two from 32 to 128M (default: Parquet writers' size for --n and --fpr)" },
        { NULL, 0, NULL, NULL, NULL },
    };
    char about[4096];
    build_about(about, sizeof about);
    const fkc_cmd_spec spec = {
        "build", "--kind K --fpr P [--capacity N] [--seed S] [--growth S] [--tightening R] [--binary-lines] [--unique-input] [--threads T] [--max-bytes B] [--hash parquet --type T [--bytes B]] < keys > FILTER",
        about,
        opts,
    };
    int rc = fkc_args_parse(&spec, argc, argv);
    if (rc)
        return rc == FKC_ARGS_HELP ? 0 : 2;
    if (!kind.ops) {
        char kinds[1024];
        fkc_kind_opt_names(&kind, ", ", kinds, sizeof kinds);
        return fkc_args_fail(&spec, "missing --kind K (one of: %s)", kinds);
    }
    const fk_ops *ops = kind.ops;
    rc = build_parquet_opts(&spec, ops, hash, type_name, bytes, capacity, fpr, binary_lines,
                            seed || threads || growth || tightening != 0 || unique_input || max_bytes);
    if (rc >= 0)
        return rc;
    if (fpr == 0)
        return fkc_args_fail(&spec, "missing --fpr P");
    if ((growth || tightening != 0) && !(fk_ops_caps(ops) & FK_CAP_GROWS))
        return fkc_args_fail(&spec, "--growth and --tightening apply to the growing kinds (scalable-*)");
    if (growth > UINT32_MAX)
        return fkc_args_fail(&spec, "--growth: at most %lu", (unsigned long)UINT32_MAX);
    if (isatty(STDOUT_FILENO))
        return fkc_args_fail(&spec, "refusing to write a binary filter to a terminal; redirect stdout");

    if (fk_ops_caps(ops) & FK_CAP_STATIC)
        return build_static(ops, fpr, capacity, seed, max_bytes, binary_lines,
                            (unsigned)(threads > 64 ? 64 : threads));
    if (threads)
        return build_threaded(ops, fpr, capacity, seed, max_bytes, binary_lines, unique_input,
                              (unsigned)(threads > 1024 ? 1024 : threads));

    fkc_linereader r;
    uint64_t size_for = capacity;
    uint64_t lines_known = 0; /* presizes the duplicate check: lines, never --capacity */
    int ok;
    if (!size_for && (fk_ops_caps(ops) & FK_CAP_GROWS)) {
        size_for = GROWING_START_CAPACITY;
        ok = fkc_linereader_init(&r, stdin, binary_lines) == 0;
    } else if (!size_for) {
        uint64_t lines = 0;
        ok = count_then_rewind(&r, binary_lines, &lines) == 0;
        size_for = default_capacity(ops, lines);
        lines_known = lines;
    } else {
        ok = fkc_linereader_init(&r, stdin, binary_lines) == 0;
    }
    if (!ok) {
        fprintf(stderr, "filterkit build: reading keys from stdin: %s\n", fkc_linereader_error(errno));
        return 1;
    }
    fk_params p = fk_params_make(size_for, fpr);
    p.seed = seed;
    p.max_bytes = max_bytes ? max_bytes : fkc_memlimit_default();
    p.growth = (uint32_t)growth;
    p.tightening = tightening;
    fk_filter *f = NULL;
    fk_status s = fk_filter_new(ops, &p, &f);
    if (s != FK_OK) {
        fprintf(stderr, "filterkit build: cannot create a %s filter for %llu items at fpr %g: %s%s\n",
                ops->name, (unsigned long long)p.capacity, fpr, fk_strerror(s), fkc_memlimit_hint(s));
        fkc_linereader_free(&r);
        return 1;
    }
    fkc_feed_counts c;
    s = fkc_feed_lines(f, FKC_FEED_INSERT, &r, lines_known, unique_input, "build", &c);
    fkc_linereader_free(&r);
    if (s == FK_EFULL) {
        fprintf(stderr, "filterkit build: the %s filter is full after %llu keys\n", ops->name,
                (unsigned long long)c.done);
        fkc_hint_full(stderr, "build", ops, (unsigned long long)size_for);
    } else if (s == FK_EIO)
        fprintf(stderr, "filterkit build: reading keys from stdin: %s\n", fkc_linereader_error(c.read_err));
    else if (s != FK_OK)
        fprintf(stderr, "filterkit build: insert failed after %llu keys: %s%s\n",
                (unsigned long long)c.done, fk_strerror(s), fkc_memlimit_hint(s));
    /* (distinct lines past the capacity would be the exact test, but a
     * kind without removes keeps no line set; repeats are rare in a real
     * key list, and a list that repeats this much deserves the note) */
    /* (a window forgets what passes its capacity: no warning there) */
    if (s == FK_OK && !(fk_ops_caps(ops) & (FK_CAP_GROWS | FK_CAP_EXPIRES)) &&
        (double)(c.lines - (fk_ops_caps(ops) & FK_CAP_REMOVE ? c.repeats : 0)) > 1.1 * (double)size_for)
        warn_over(c.lines, c.done, size_for, fpr);
    if (s == FK_OK && (s = fk_filter_save_file(f, stdout)) != FK_OK)
        fprintf(stderr, "filterkit build: writing the filter to stdout: %s\n",
                s == FK_EIO ? strerror(errno) : fk_strerror(s));
    fk_filter_free(f);
    return s == FK_OK ? 0 : 1;
}
