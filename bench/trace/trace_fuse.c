/* bench/trace/trace_fuse.c: `filterkit trace fuse`.
 *
 * A static filter is built once from every --insert key (the build is the
 * only write), so the trace shows the build, then each key: its hash, its
 * three cells (one in each of three consecutive segments), what they hold,
 * their XOR and the key's fingerprint, which match for every key of the
 * set. Positions and cell values come from fk_fuse_locate (the filter's
 * own lookup arithmetic), never recomputed here. --remove answers that a
 * static filter cannot remove. */
#include <stdlib.h>
#include <string.h>
#include "../../fuse/fuse.h"
#include "../../fuse/fuse_internal.h"
#include "trace.h"

static void print_value(FILE *out, uint32_t v, int digits)
{
    fprintf(out, "%0*x", digits, v);
}

static void print_key_cells(FILE *out, const fk_fuse *fu, const fkc_trace_step *s, int digits,
                            fk_fuse_location *loc)
{
    fk_fuse_description d;
    fk_fuse_describe(fu, &d);
    uint32_t seg = d.segment_length;
    fk_fuse_locate(fu, s->key, s->len, loc);
    fprintf(out, "  hash %016llx\n", (unsigned long long)loc->hash);
    fprintf(out, "  cells %llu %llu %llu (segments %llu %llu %llu)\n",
            (unsigned long long)loc->cell[0], (unsigned long long)loc->cell[1],
            (unsigned long long)loc->cell[2], (unsigned long long)(loc->cell[0] / seg),
            (unsigned long long)(loc->cell[1] / seg), (unsigned long long)(loc->cell[2] / seg));
    fputs("  xor ", out);
    for (int j = 0; j < 3; j++) {
        print_value(out, loc->value[j], digits);
        fputs(j < 2 ? " ^ " : " = ", out);
    }
    print_value(out, loc->xor_of_cells, digits);
    fputs(", fingerprint ", out);
    print_value(out, loc->fingerprint, digits);
    fputc('\n', out);
}

int fkc_trace_fuse(const fkc_trace_job *job)
{
    FILE *out = job->out;
    const void **keys;
    size_t *lens, nin;
    if (fkc_trace_static_keys(job, &keys, &lens, &nin) != 0) {
        fputs("filterkit trace: out of memory\n", stderr);
        return 1;
    }
    fk_params p = job->params;
    p.capacity = 0; /* sized by the keys */
    fk_fuse *fu = NULL;
    fk_status s = fk_fuse_build(&p, nin, keys, lens, &fu);
    free(keys);
    free(lens);
    if (s != FK_OK) {
        fprintf(stderr, "filterkit trace: cannot build a fuse filter: %s\n", fk_strerror(s));
        return 1;
    }
    fk_fuse_description b;
    fk_fuse_describe(fu, &b);
    uint32_t f = b.fingerprint_bits;
    int digits = (int)((f + 3) / 4);
    fprintf(out, "build from %zu keys (%llu distinct): %u-bit fingerprints, %llu cells in "
            "%llu + 2 segments of %u, peeled on attempt %llu; a key's three cells lie in "
            "three consecutive segments\n",
            nin, (unsigned long long)b.items, f, (unsigned long long)b.cells,
            (unsigned long long)b.segments, b.segment_length, (unsigned long long)b.max_attempts);
    fkc_trace_truth truth;
    if (fkc_trace_truth_of_static(&truth, job) != 0) {
        fk_fuse_free(fu);
        fputs("filterkit trace: out of memory\n", stderr);
        return 1;
    }
    for (size_t i = 0; i < job->nsteps; i++) {
        const fkc_trace_step *st = &job->steps[i];
        fk_fuse_location loc;
        fkc_trace_print_heading(out, st);
        if (st->op == FKC_TRACE_REMOVE) {
            fputs("  unsupported: a fuse filter is static (built once from the whole set)\n", out);
            continue;
        }
        print_key_cells(out, fu, st, digits, &loc);
        if (st->op == FKC_TRACE_INSERT) {
            fputs("  stored: the build set one of its cells so the three XOR to its "
                  "fingerprint\n", out);
            continue;
        }
        bool maybe = fk_fuse_contains(fu, st->key, st->len);
        bool held = fkc_trace_truth_has(&truth, st->key, st->len) > 0;
        fprintf(out, "  %s%s\n", maybe ? "maybe present" : "absent (the XOR is not its fingerprint)",
                maybe && !held ? " (false positive: never inserted)" : "");
    }
    fkc_trace_truth_free(&truth);
    fk_fuse_free(fu);
    return 0;
}
