/* tests/test_bench_trace.c: `filterkit trace` shows the filter's real state.
 *
 * Runs the CLI (FK_CLI, else <build>/filterkit next to this program's
 * tests/ folder), parses every step it prints, and replays the same steps on
 * a filter built here through the library with the same parameters and
 * seed. For each step it checks that the printed probe positions, hash,
 * fingerprint, buckets, kicks, statuses and lookup answers are the ones the
 * library reports, and that the printed array or table equals the
 * reference filter's cells after the step. */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include "check.h"
#include "../bloom/bloom.h"
#include "../bloom/bloom_internal.h"
#include "../counting/counting.h"
#include "../counting/counting_internal.h"
#include "../cuckoo/cuckoo.h"
#include "../cuckoo/cuckoo_internal.h"
#include "../common/probe.h"
#include "../bench/trace/trace.h"
#include "describe.h"

static char cli[4096];

/* Runs `cli trace ARGS` and returns its stdout (caller frees), or NULL. */
static char *run_trace(const char *args)
{
    char cmd[8192];
    snprintf(cmd, sizeof cmd, "'%s' trace %s", cli, args);
    FILE *p = popen(cmd, "r");
    if (!p)
        return NULL;
    size_t cap = 1 << 16, n = 0;
    char *buf = malloc(cap);
    size_t got;
    while (buf && (got = fread(buf + n, 1, cap - n - 1, p)) > 0) {
        n += got;
        if (cap - n < 1024) {
            char *bigger = realloc(buf, cap * 2);
            if (!bigger) {
                free(buf);
                buf = NULL;
                break;
            }
            buf = bigger;
            cap *= 2;
        }
    }
    int rc = pclose(p);
    if (buf)
        buf[n] = 0;
    if (rc != 0) {
        fprintf(stderr, "command failed (%d): %s\n", rc, cmd);
        free(buf);
        return NULL;
    }
    return buf;
}

/* ------------------------------------------------- parsed step blocks */

#define MAX_CELLS 4096
#define MAX_K 64
#define MAX_KICKS 64

typedef struct {
    char     op[8];
    char     key[64];
    uint64_t h1, h2;            /* bloom/counting "hash h1 .. h2 .." or cuckoo lo/hi */
    bool     has_hash;
    uint64_t probes[MAX_K];
    uint32_t nprobes;
    char     cells[MAX_CELLS + 1]; /* the array after the step */
    uint64_t ncells;
    int      hit;               /* lookup: 1 maybe present, 0 absent, -1 none */
    char     status[24];        /* "FK_OK", ... ("" when none printed) */
    uint32_t fp;
    uint64_t i1, i2;
    uint32_t nkicks;
    fk_cuckoo_kick_event kicks[MAX_KICKS];
    uint32_t table[256][FK_CUCKOO_SLOTS];
    uint64_t table_rows;
} block;

/* Reads the next step block starting at *cur (skipping the header), or
 * returns false at the end. */
static bool next_block(char **cur, block *b)
{
    memset(b, 0, sizeof *b);
    b->hit = -1;
    char *line = *cur;
    bool in = false, rows = false;
    while (line && *line) {
        char *nl = strchr(line, '\n');
        if (nl)
            *nl = 0;
        char *next = nl ? nl + 1 : NULL;
        bool heading = !strncmp(line, "insert \"", 8) || !strncmp(line, "lookup \"", 8) ||
                       !strncmp(line, "remove \"", 8);
        if (heading && in) {
            if (nl)
                *nl = '\n';
            *cur = line;
            return true;
        }
        if (heading) {
            in = true;
            sscanf(line, "%7s \"%63[^\"]\"", b->op, b->key);
        } else if (in) {
            unsigned long long a, c;
            unsigned u, v, slot;
            char tail[MAX_CELLS + 1];
            if (sscanf(line, "  hash h1 0x%llx h2 0x%llx", &a, &c) == 2 ||
                sscanf(line, "  hash lo 0x%llx hi 0x%llx", &a, &c) == 2) {
                b->h1 = a;
                b->h2 = c;
                b->has_hash = true;
            } else if (!strncmp(line, "  probes ", 9)) {
                char *s = line + 9, *end;
                while (b->nprobes < MAX_K && (a = strtoull(s, &end, 10), end != s)) {
                    b->probes[b->nprobes++] = a;
                    s = end;
                }
            } else if (!strncmp(line, "  bits", 6) || !strncmp(line, "  counters after", 16) ||
                       !strncmp(line, "  counters:", 11)) {
                rows = true;
            } else if (rows && sscanf(line, " %llu  %4096s", &a, tail) == 2 && a == b->ncells) {
                size_t w = strlen(tail);
                if (b->ncells + w <= MAX_CELLS) {
                    memcpy(b->cells + b->ncells, tail, w);
                    b->ncells += w;
                }
            } else if (sscanf(line, "  fingerprint 0x%x", &u) == 1) {
                b->fp = u;
            } else if (sscanf(line, "  i1 %llu", &a) == 1) {
                b->i1 = a;
            } else if (sscanf(line, "  i2 %llu", &a) == 1) {
                b->i2 = a;
            } else if (sscanf(line, "  kick %u: 0x%x from bucket %llu slot %u -> bucket %llu", &u,
                              &v, &a, &slot, &c) == 5) {
                if (b->nkicks < MAX_KICKS) {
                    fk_cuckoo_kick_event *ev = &b->kicks[b->nkicks++];
                    ev->kick = u;
                    ev->fingerprint = v;
                    ev->from = a;
                    ev->slot = slot;
                    ev->to = c;
                }
            } else if (sscanf(line, "    bucket %llu:", &a) == 1 && a < 256 &&
                       a == b->table_rows) {
                char *s = strchr(line, ':') + 1;
                for (unsigned j = 0; j < FK_CUCKOO_SLOTS; j++) {
                    while (*s == ' ')
                        s++;
                    b->table[a][j] = *s == '-' ? 0 : (uint32_t)strtoul(s, NULL, 16);
                    while (*s && *s != ' ')
                        s++;
                }
                b->table_rows++;
            }
            if (strstr(line, "-> maybe present"))
                b->hit = 1;
            else if (strstr(line, "-> definitely absent"))
                b->hit = 0;
            char *st = strstr(line, "  -> FK_");
            if (st == line)
                sscanf(line + 5, "%23[A-Z_]", b->status);
        }
        if (nl)
            *nl = '\n';
        line = next;
    }
    *cur = NULL;
    return in;
}

/* --------------------------------------------------------- bloom, counting */

typedef struct {
    void *f;
    bool  counting;
} ref_cells;

static uint32_t ref_cell(const ref_cells *r, uint64_t i)
{
    return r->counting ? fk_counting_cell(r->f, i) : fk_bloom_cell(r->f, i);
}

static char expect_char(uint32_t v)
{
    return v == 0 ? '.' : v < 10 ? (char)('0' + v) : v < 16 ? (char)('a' + v - 10) : '#';
}

/* Checks the trace of ARGS against a reference built from p; returns the
 * number of blocks checked. */
static size_t check_cells_trace(const char *kind, const char *args, const fk_params *p)
{
    char full[4096];
    snprintf(full, sizeof full, "%s %s", kind, args);
    char *out = run_trace(full);
    CHECK_MSG(out != NULL, "trace %s ran", full);
    if (!out)
        return 0;
    bool counting = strcmp(kind, "counting") == 0;
    ref_cells r = { NULL, counting };
    fk_filter *f;
    if (counting) {
        CHECK_STATUS(fk_counting_new(p, (fk_counting **)&r.f), FK_OK);
        f = fk_counting_as_filter(r.f);
    } else {
        CHECK_STATUS(fk_bloom_new(p, (fk_bloom **)&r.f), FK_OK);
        f = fk_bloom_as_filter(r.f);
    }
    uint64_t m = counting ? counting_desc(r.f).bits : bloom_desc(r.f).bits;
    uint32_t k = counting ? counting_desc(r.f).hashes : bloom_desc(r.f).hashes;
    size_t nblocks = 0;
    char *cur = out;
    block *b = malloc(sizeof *b);
    while (b && next_block(&cur, b)) {
        nblocks++;
        size_t len = strlen(b->key);
        uint64_t pos[MAX_K];
        if (counting)
            fk_counting_locate(r.f, b->key, len, pos);
        else
            fk_bloom_locate(r.f, b->key, len, pos);
        CHECK_EQ_U64(b->nprobes, k);
        for (uint32_t i = 0; i < k && i < b->nprobes; i++)
            CHECK_MSG(b->probes[i] == pos[i], "%s '%s' probe %u: printed %llu, filter uses %llu",
                      b->op, b->key, i, (unsigned long long)b->probes[i],
                      (unsigned long long)pos[i]);
        /* The printed hash is the one behind those positions. */
        CHECK(b->has_hash);
        fk_hash128 h = { b->h1, b->h2 };
        fk_probe pr = fk_probe_start(h);
        for (uint32_t i = 0; i < k && i < b->nprobes; i++)
            CHECK_EQ_U64(fk_probe_next(&pr, m), b->probes[i]);

        if (!strcmp(b->op, "insert")) {
            fk_status s = fk_filter_insert(f, b->key, len);
            CHECK_MSG(!strcmp(b->status, fk_status_name(s)), "insert status %s vs %s",
                          b->status, fk_status_name(s));
        } else if (!strcmp(b->op, "lookup")) {
            CHECK_EQ_U64(b->hit, fk_filter_contains(f, b->key, len));
        } else {
            fk_status s = fk_filter_remove(f, b->key, len);
            CHECK_MSG(!strcmp(b->status, fk_status_name(s)), "remove status %s vs %s", b->status,
                      fk_status_name(s));
        }
        CHECK_EQ_U64(b->ncells, m);
        uint64_t bad = 0;
        for (uint64_t i = 0; i < m && i < b->ncells; i++)
            bad += b->cells[i] != expect_char(ref_cell(&r, i));
        CHECK_MSG(bad == 0, "%s '%s': %llu printed cells differ from the filter", b->op, b->key,
                  (unsigned long long)bad);
    }
    free(b);
    if (counting)
        fk_counting_free(r.f);
    else
        fk_bloom_free(r.f);
    free(out);
    return nblocks;
}

/* Keys key0..key{n-1} as one argument string (appended to buf). */
static void append_keys(char *buf, size_t cap, const char *prefix, int from, int n)
{
    for (int i = from; i < from + n; i++) {
        size_t used = strlen(buf);
        snprintf(buf + used, cap - used, " %s%d", prefix, i);
    }
}

TEST(bloom_trace_matches_filter)
{
    char args[4096] = "--capacity 12 --fpr 0.05 --seed 7";
    append_keys(args, sizeof args, "key", 0, 14);
    strcat(args, " --lookup");
    append_keys(args, sizeof args, "key", 0, 3);
    append_keys(args, sizeof args, "absent", 0, 30);
    strcat(args, " --remove key1 absent0");
    fk_params p = fk_params_make(12, 0.05);
    p.seed = 7;
    CHECK_EQ_U64(check_cells_trace("bloom", args, &p), 14 + 33 + 2);
}

TEST(bloom_trace_explicit_geometry)
{
    fk_params p = fk_params_make(8, 0.05);
    p.bits = 100;
    p.hashes = 3;
    p.seed = 1;
    char args[4096] = "--bits 100 --hashes 3 --seed 1";
    append_keys(args, sizeof args, "w", 0, 20);
    CHECK_EQ_U64(check_cells_trace("bloom", args, &p), 20);
}

TEST(counting_trace_matches_filter)
{
    char args[4096] = "--capacity 6 --fpr 0.1 --seed 3";
    append_keys(args, sizeof args, "key", 0, 8);
    strcat(args, " key2 key2 --lookup key2 nope --remove key2 key2 key2 key2 nope");
    fk_params p = fk_params_make(6, 0.1);
    p.seed = 3;
    CHECK_EQ_U64(check_cells_trace("counting", args, &p), 10 + 2 + 5);
}

TEST(counting_trace_shows_saturation)
{
    /* One key inserted 20 times: 4-bit counters saturate at 15 ('f'),
     * 8-bit counters go past 16 ('#'); both compared cell by cell. */
    char ins[1024] = "";
    for (int i = 0; i < 20; i++)
        strcat(ins, " hot");
    char args[2048];
    fk_params p = fk_params_make(4, 0.1);
    snprintf(args, sizeof args, "--capacity 4 --fpr 0.1 %s --remove hot", ins);
    CHECK_EQ_U64(check_cells_trace("counting", args, &p), 21);
    p.counter_bits = 8;
    snprintf(args, sizeof args, "--capacity 4 --fpr 0.1 --counter-bits 8 %s --remove hot", ins);
    CHECK_EQ_U64(check_cells_trace("counting", args, &p), 21);
}

/* ------------------------------------------------------------------ cuckoo */

typedef struct {
    fk_cuckoo_kick_event ev[MAX_KICKS];
    uint32_t             n;
} ref_kicks;

static void ref_on_kick(void *ctx, const fk_cuckoo_kick_event *ev)
{
    ref_kicks *k = ctx;
    if (k->n < MAX_KICKS)
        k->ev[k->n] = *ev;
    k->n++;
}

static size_t check_cuckoo_trace(const char *args, const fk_params *p, uint64_t *kicks_seen,
                                 size_t *full_seen)
{
    char full[8192];
    snprintf(full, sizeof full, "cuckoo %s", args);
    char *out = run_trace(full);
    CHECK_MSG(out != NULL, "trace %s ran", full);
    if (!out)
        return 0;
    fk_cuckoo *c;
    CHECK_STATUS(fk_cuckoo_new(p, &c), FK_OK);
    ref_kicks rk;
    fk_cuckoo_set_observer(c, ref_on_kick, &rk);
    uint64_t nb = cuckoo_desc(c).buckets;
    size_t nblocks = 0;
    char *cur = out;
    block *b = malloc(sizeof *b);
    while (b && next_block(&cur, b)) {
        nblocks++;
        size_t len = strlen(b->key);
        fk_cuckoo_location loc;
        CHECK_STATUS(fk_cuckoo_locate(c, b->key, len, &loc), FK_OK);
        CHECK_EQ_U64(b->fp, loc.fingerprint);
        CHECK_EQ_U64(b->i1, loc.i1);
        CHECK_EQ_U64(b->i2, loc.i2);
        CHECK_EQ_U64(b->h1, loc.hash_lo);
        CHECK_EQ_U64(b->h2, loc.hash_hi);
        rk.n = 0;
        if (!strcmp(b->op, "insert")) {
            fk_status s = fk_cuckoo_insert(c, b->key, len);
            CHECK_MSG(!strcmp(b->status, fk_status_name(s)), "insert '%s': printed %s, filter %s",
                      b->key, b->status, fk_status_name(s));
            *full_seen += s == FK_EFULL;
            *kicks_seen += rk.n;
            /* Every kick the filter made, in order (the trace prints the
             * first FKC_TRACE_MAX_KICK_LINES of them). */
            uint32_t want = rk.n < FKC_TRACE_MAX_KICK_LINES ? rk.n : FKC_TRACE_MAX_KICK_LINES;
            CHECK_EQ_U64(b->nkicks, want);
            for (uint32_t i = 0; i < want && i < b->nkicks && i < MAX_KICKS; i++) {
                CHECK_EQ_U64(b->kicks[i].kick, rk.ev[i].kick);
                CHECK_EQ_U64(b->kicks[i].fingerprint, rk.ev[i].fingerprint);
                CHECK_EQ_U64(b->kicks[i].from, rk.ev[i].from);
                CHECK_EQ_U64(b->kicks[i].slot, rk.ev[i].slot);
                CHECK_EQ_U64(b->kicks[i].to, rk.ev[i].to);
            }
        } else if (!strcmp(b->op, "lookup")) {
            CHECK_EQ_U64(b->hit, fk_cuckoo_contains(c, b->key, len));
            continue; /* lookups print the two buckets, not the table */
        } else {
            fk_status s = fk_cuckoo_remove(c, b->key, len);
            CHECK_MSG(!strcmp(b->status, fk_status_name(s)), "remove '%s': printed %s, filter %s",
                      b->key, b->status, fk_status_name(s));
        }
        CHECK_EQ_U64(b->table_rows, nb);
        uint64_t bad = 0;
        for (uint64_t i = 0; i < nb && i < b->table_rows; i++)
            for (unsigned s = 0; s < FK_CUCKOO_SLOTS; s++)
                bad += b->table[i][s] != fk_cuckoo_cell(c, i, s);
        CHECK_MSG(bad == 0, "%s '%s': %llu printed slots differ from the filter", b->op, b->key,
                  (unsigned long long)bad);
    }
    free(b);
    fk_cuckoo_free(c);
    free(out);
    return nblocks;
}

TEST(cuckoo_trace_matches_filter)
{
    /* 8 buckets x 4 slots; 40 inserts overfill it, so the trace must show
     * kicks and FK_EFULL, each checked against the filter's own events. */
    /* packed as a real filter (the trace's default is 12.5%), so keys kick */
    char args[4096] = "--capacity 16 --fp-bits 8 --seed 5 --max-load 0.94";
    append_keys(args, sizeof args, "key", 0, 40);
    strcat(args, " --lookup key0 key5 miss0 miss1 miss2 --remove key3 miss0 key3");
    fk_params p = fk_params_make(16, 0.05);
    p.max_load = 0.94;
    p.fingerprint_bits = 8;
    p.seed = 5;
    uint64_t kicks = 0;
    size_t full = 0;
    CHECK_EQ_U64(check_cuckoo_trace(args, &p, &kicks, &full), 40 + 5 + 3);
    CHECK_MSG(kicks > 0, "the trace exercised kicks (%llu)", (unsigned long long)kicks);
    CHECK_MSG(full > 0, "the trace exercised a full table (%zu)", full);
}

TEST(cuckoo_trace_wide_fingerprints)
{
    char args[4096] = "--capacity 30 --fp-bits 12 --seed 11 --max-load 94%";
    append_keys(args, sizeof args, "item", 0, 30);
    strcat(args, " --remove item7 --lookup item7 item8");
    fk_params p = fk_params_make(30, 0.05);
    p.fingerprint_bits = 12;
    p.seed = 11;
    p.max_load = 0.94;
    uint64_t kicks = 0;
    size_t full = 0;
    CHECK_EQ_U64(check_cuckoo_trace(args, &p, &kicks, &full), 33);
}

/* Without --max-load the trace sizes its table at 12.5% load: the table it
 * prints is exactly the filter made with that load, step by step. */
TEST(cuckoo_trace_default_table)
{
    char args[4096] = "--capacity 8 --fp-bits 8";
    append_keys(args, sizeof args, "fruit", 0, 8);
    fk_params p = fk_params_make(8, 0.05);
    p.fingerprint_bits = 8;
    p.max_load = 0.125;
    uint64_t kicks = 0;
    size_t full = 0;
    CHECK_EQ_U64(check_cuckoo_trace(args, &p, &kicks, &full), 8);
}

int main(int argc, char **argv)
{
    (void)argc;
    const char *env = getenv("FK_CLI");
    if (env && *env) {
        snprintf(cli, sizeof cli, "%s", env);
    } else {
        /* <build>/tests/test_bench_trace -> <build>/filterkit */
        snprintf(cli, sizeof cli, "%s", argv[0]);
        char *slash = strrchr(cli, '/');
        if (slash)
            *slash = 0;
        slash = strrchr(cli, '/');
        if (slash)
            snprintf(slash + 1, sizeof cli - (size_t)(slash + 1 - cli), "filterkit");
        else
            snprintf(cli, sizeof cli, "./filterkit");
    }
    RUN(bloom_trace_matches_filter);
    RUN(bloom_trace_explicit_geometry);
    RUN(counting_trace_matches_filter);
    RUN(counting_trace_shows_saturation);
    RUN(cuckoo_trace_matches_filter);
    RUN(cuckoo_trace_wide_fingerprints);
    RUN(cuckoo_trace_default_table);
    return check_report();
}
