/* bench/trace/trace.c: the helpers the per-kind tracers share
 * (bench/trace/trace_<kind>.c): a key printed as the trace shows it, a
 * step's heading, the ground truth (how many times each traced key is
 * in the filter) and, for the static kinds, the key set they are built
 * from. */
#include <stdlib.h>
#include <string.h>
#include "trace.h"

void fkc_trace_print_key(FILE *out, const char *key, size_t len)
{
    fputc('"', out);
    for (size_t i = 0; i < len; i++) {
        unsigned char c = (unsigned char)key[i];
        if (c == '"' || c == '\\')
            fprintf(out, "\\%c", c);
        else if (c < 0x20 || c > 0x7e)
            fprintf(out, "\\x%02x", c);
        else
            fputc(c, out);
    }
    fputc('"', out);
}

void fkc_trace_print_heading(FILE *out, const fkc_trace_step *s)
{
    static const char *const verb[] = { "insert", "lookup", "remove" };
    fprintf(out, "\n%s ", verb[s->op]);
    fkc_trace_print_key(out, s->key, s->len);
    fputc('\n', out);
}

static size_t truth_index(const fkc_trace_truth *t, const char *key, size_t len)
{
    for (size_t i = 0; i < t->n; i++)
        if (t->steps[i].len == len && memcmp(t->steps[i].key, key, len) == 0)
            return i;
    return t->n;
}

int fkc_trace_truth_init(fkc_trace_truth *t, const fkc_trace_job *job)
{
    t->steps = job->steps;
    t->n = job->nsteps;
    t->count = calloc(job->nsteps ? job->nsteps : 1, sizeof *t->count);
    return t->count ? 0 : -1;
}

void fkc_trace_truth_free(fkc_trace_truth *t)
{
    free(t->count);
    t->count = NULL;
}

void fkc_trace_truth_add(fkc_trace_truth *t, const char *key, size_t len)
{
    size_t i = truth_index(t, key, len);
    if (i < t->n)
        t->count[i]++;
}

void fkc_trace_truth_del(fkc_trace_truth *t, const char *key, size_t len)
{
    size_t i = truth_index(t, key, len);
    if (i < t->n && t->count[i])
        t->count[i]--;
}

size_t fkc_trace_truth_has(const fkc_trace_truth *t, const char *key, size_t len)
{
    size_t i = truth_index(t, key, len);
    return i < t->n ? t->count[i] : 0;
}

int fkc_trace_static_keys(const fkc_trace_job *job, const void ***keys, size_t **lens,
                          size_t *n)
{
    size_t nin = 0;
    for (size_t i = 0; i < job->nsteps; i++)
        nin += job->steps[i].op == FKC_TRACE_INSERT;
    *keys = calloc(nin ? nin : 1, sizeof **keys);
    *lens = calloc(nin ? nin : 1, sizeof **lens);
    *n = nin;
    if (!*keys || !*lens) {
        free(*keys);
        free(*lens);
        *keys = NULL;
        *lens = NULL;
        return -1;
    }
    size_t k = 0;
    for (size_t i = 0; i < job->nsteps; i++)
        if (job->steps[i].op == FKC_TRACE_INSERT) {
            (*keys)[k] = job->steps[i].key;
            (*lens)[k++] = job->steps[i].len;
        }
    return 0;
}

int fkc_trace_truth_of_static(fkc_trace_truth *t, const fkc_trace_job *job)
{
    if (fkc_trace_truth_init(t, job) != 0)
        return -1;
    for (size_t i = 0; i < job->nsteps; i++)
        if (job->steps[i].op == FKC_TRACE_INSERT)
            fkc_trace_truth_add(t, job->steps[i].key, job->steps[i].len);
    return 0;
}
