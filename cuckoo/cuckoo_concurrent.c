/* cuckoo/cuckoo_concurrent.c: many writers on one cuckoo filter.
 *
 * One lock (c->writer) serialises the writers; the key is hashed before it
 * is taken, so only the bucket work is serial. Lookups never take it: the
 * single-writer protocol (kick paths found first and carried out from the
 * free end, the move counter; cuckoo.c) keeps them exact beside whichever
 * writer holds it.
 *
 * Why not striped locks, one per group of buckets: buckets are packed at
 * any bit offset, so a slot write is a read-modify-write of a word that
 * also holds its neighbours' bits (the bucket before and after, under
 * another stripe's lock, would lose updates); and a kick path runs through
 * up to FK_CUCKOO_MAX_KICKS buckets anywhere in the table, so it would have
 * to take and order many stripes. The cuckoo filter's insert is short
 * beside its hash and cache misses, which happen outside or overlap. */
#include "cuckoo_internal.h"

fk_status fk_cuckoo_insert_concurrent(fk_cuckoo *c, const void *key, size_t len)
{
    if (!c || (!key && len))
        return FK_EINVAL;
    fk_cplace k = fk_cuckoo_place(c, key, len);
    pthread_mutex_lock(&c->writer);
    fk_status s = fk_cuckoo_insert_placed(c, &k);
    pthread_mutex_unlock(&c->writer);
    return s;
}

fk_status fk_cuckoo_remove_concurrent(fk_cuckoo *c, const void *key, size_t len)
{
    if (!c || (!key && len))
        return FK_EINVAL;
    fk_cplace k = fk_cuckoo_place(c, key, len);
    pthread_mutex_lock(&c->writer);
    fk_status s = fk_cuckoo_remove_placed(c, &k);
    pthread_mutex_unlock(&c->writer);
    return s;
}
