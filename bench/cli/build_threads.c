/* bench/cli/build_threads.c: the keys of `build --threads`, read whole,
 * and the threads that insert them. */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include "build_threads.h"
#include "../keys/lineset.h"

void fkc_keylist_free(fkc_keylist *k)
{
    free(k->bytes);
    free(k->off);
    memset(k, 0, sizeof *k);
}

/* Grows *p (of *cap elements of `size` bytes) to hold at least `need`. */
static int grow(void **p, uint64_t *cap, uint64_t need, size_t size)
{
    if (need <= *cap)
        return 0;
    uint64_t n = *cap ? *cap : 1024;
    while (n < need)
        n *= 2;
    if (n > SIZE_MAX / size) {
        errno = ENOMEM;
        return -1;
    }
    void *q = realloc(*p, (size_t)(n * size));
    if (!q) {
        errno = ENOMEM;
        return -1;
    }
    *p = q;
    *cap = n;
    return 0;
}

int fkc_keylist_read(fkc_linereader *r, int unique_input, fkc_keylist *out)
{
    memset(out, 0, sizeof *out);
    fkc_lineset seen;
    if (!unique_input && fkc_lineset_init(&seen, 0) != 0) {
        errno = ENOMEM;
        return -1;
    }
    uint64_t bytes_cap = 0, off_cap = 0, used = 0;
    const char *key;
    size_t len;
    int got, rc = 0;
    void *off = NULL, *bytes = NULL;
    if (grow(&off, &off_cap, 1, sizeof(uint64_t)) != 0)
        rc = -1;
    while (rc == 0 && (got = fkc_linereader_next(r, &key, &len)) == 1) {
        if (!unique_input) {
            int added = fkc_lineset_add(&seen, key, len);
            if (added < 0) {
                errno = ENOMEM;
                rc = -1;
                break;
            }
            if (!added)
                continue;
        }
        if (grow(&bytes, &bytes_cap, used + len + 1, 1) != 0 ||
            grow(&off, &off_cap, out->count + 2, sizeof(uint64_t)) != 0) {
            rc = -1;
            break;
        }
        memcpy((char *)bytes + used, key, len);
        used += len;
        out->count++;
        ((uint64_t *)off)[out->count] = used;
    }
    if (rc == 0 && got < 0)
        rc = -1;
    if (off)
        ((uint64_t *)off)[0] = 0;
    out->bytes = bytes;
    out->off = off;
    if (!unique_input)
        fkc_lineset_free(&seen);
    if (rc != 0) {
        int err = errno;
        fkc_keylist_free(out);
        errno = err;
    }
    return rc;
}

typedef struct {
    fk_filter          *f;
    const fkc_keylist  *k;
    uint64_t            first, end, done;
    fk_status           status;
} share;

static void *insert_share(void *arg)
{
    share *s = arg;
    const fkc_keylist *k = s->k;
    for (uint64_t i = s->first; i < s->end; i++) {
        fk_status st = fk_filter_insert_concurrent(s->f, k->bytes ? k->bytes + k->off[i] : "",
                                                   (size_t)(k->off[i + 1] - k->off[i]));
        if (st != FK_OK) {
            s->status = st;
            break;
        }
        s->done++;
    }
    return NULL;
}

fk_status fkc_insert_threads(fk_filter *f, const fkc_keylist *k, unsigned threads,
                             uint64_t *done)
{
    *done = 0;
    if (threads == 0)
        threads = 1;
    share *sh = calloc(threads, sizeof *sh);
    pthread_t *id = calloc(threads, sizeof *id);
    fk_status result = FK_OK;
    if (!sh || !id) {
        free(sh);
        free(id);
        return FK_ENOMEM;
    }
    /* id[t] is joined only when its thread started; one that could not
     * start has its share taken by the calling thread, after its own */
    unsigned char *started = calloc(threads, 1);
    for (unsigned t = 0; t < threads; t++) {
        sh[t] = (share){ f, k, k->count * t / threads, k->count * (t + 1) / threads, 0, FK_OK };
        if (t > 0 && started)
            started[t] = pthread_create(&id[t], NULL, insert_share, &sh[t]) == 0;
    }
    insert_share(&sh[0]);
    for (unsigned t = 1; t < threads; t++) {
        if (started && started[t])
            pthread_join(id[t], NULL);
        else
            insert_share(&sh[t]);
    }
    free(started);
    for (unsigned t = 0; t < threads; t++) {
        *done += sh[t].done;
        if (result == FK_OK)
            result = sh[t].status;
    }
    free(sh);
    free(id);
    return result;
}
