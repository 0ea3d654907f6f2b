/* bench/figures/cuckoo_load.c: load at the first FK_EFULL of cuckoo filters
 * sized for n (default target load), over several seeds; run by
 * bench/figures/cuckoo_load.sh. For each (n, f) it prints the buckets, the load at
 * n, the mean evictions per insert while filling to n, the mean and
 * minimum load at the first failed insert, how many seeds accepted all n
 * inserts, and the keys lost (inserted with FK_OK, then not found):
 * always 0.
 *
 *   usage: cuckoo_load N F SEEDS [MAX_LOAD] */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "../../cuckoo/cuckoo.h"

static uint64_t key_of(uint64_t i, uint64_t seed)
{
    uint64_t z = i * UINT64_C(0x9E3779B97F4A7C15) + seed * UINT64_C(0xD1B54A32D192ED03);
    z = (z ^ (z >> 31)) * UINT64_C(0xBF58476D1CE4E5B9);
    return z ^ (z >> 29);
}

/* fk_cuckoo_describe as a value, zeroed first. */
static fk_cuckoo_description described(const fk_cuckoo *c)
{
    fk_cuckoo_description d;
    memset(&d, 0, sizeof d);
    fk_cuckoo_describe(c, &d);
    return d;
}

int main(int argc, char **argv)
{
    if (argc < 4) {
        fputs("usage: cuckoo_load N F SEEDS [MAX_LOAD]\n", stderr);
        return 2;
    }
    uint64_t n = strtoull(argv[1], NULL, 10);
    uint32_t f = (uint32_t)atoi(argv[2]);
    int seeds = atoi(argv[3]);
    double sum = 0.0, min = 1.0;
    uint64_t buckets = 0, lost = 0, kicks_to_n = 0;
    int accepted = 0;
    for (int s = 1; s <= seeds; s++) {
        fk_params p = fk_params_make(n, 0.01);
        p.fingerprint_bits = f;
        p.seed = (uint64_t)s;
        p.max_load = argc > 4 ? atof(argv[4]) : 0.0;
        fk_cuckoo *c = NULL;
        if (fk_cuckoo_new(&p, &c) != FK_OK) {
            fputs("cuckoo_load: bad parameters\n", stderr);
            return 1;
        }
        uint64_t i = 0;
        while (1) {
            if (i == n)
                kicks_to_n += described(c).kicks;
            uint64_t k = key_of(i, (uint64_t)s);
            if (fk_cuckoo_insert(c, &k, sizeof k) != FK_OK)
                break;
            i++;
        }
        for (uint64_t j = 0; j < i; j++) {
            uint64_t k = key_of(j, (uint64_t)s);
            lost += !fk_cuckoo_contains(c, &k, sizeof k);
        }
        accepted += i >= n;
        double load = described(c).load_factor;
        sum += load;
        min = load < min ? load : min;
        buckets = described(c).buckets;
        fk_cuckoo_free(c);
    }
    printf("| %llu | %u | %llu | %.4f | %.3f | %.4f | %.4f | %d/%d | %llu |\n",
           (unsigned long long)n, f, (unsigned long long)buckets,
           (double)n / (double)(buckets * 4), (double)kicks_to_n / ((double)n * seeds),
           sum / seeds, min, accepted, seeds, (unsigned long long)lost);
    return lost != 0;
}
