/* redis/config.c: RedisBloom's eight module configs (see fkr.h), as
 * load-time module arguments and as Redis 7 module configs (CONFIG SET /
 * CONFIG GET <module name>.<config>). */
#include "fkr.h"

#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "../cuckoo/cuckoo.h"
#include "../scalable/scalable.h"

/* cf-max-expansions ends where a chain's links end (fkr.h) */
_Static_assert(FKR_CF_MAX_EXPANSIONS_LIMIT + 1 == FK_SCALABLE_MAX_LINKS,
               "cf-max-expansions: the expansions of a chain of FK_SCALABLE_MAX_LINKS links");

fkr_config fkr_cfg = {
    .bf_error_rate = FKR_BF_ERROR,
    .bf_initial_size = FKR_BF_CAPACITY,
    .bf_expansion = FKR_BF_EXPANSION,
    .cf_bucket_size = FK_CUCKOO_SLOTS,
    .cf_initial_size = FKR_CF_CAPACITY,
    .cf_max_iterations = FKR_CF_MAXITER,
    .cf_expansion = FKR_CF_EXPANSION,
    .cf_max_expansions = FKR_CF_MAX_EXPANSIONS,
};

/* The integer configs: name, where, range: RedisBloom's, within what the
 * keys they make accept (fkr.h). */
typedef struct {
    const char *name;
    const char *legacy; /* RedisBloom's load-time name before Redis 8, or NULL */
    long long  *value;
    long long   min, max;
} int_config;

static const int_config int_configs[] = {
    { "bf-initial-size", "INITIAL_SIZE", &fkr_cfg.bf_initial_size, 1, 1048576 },
    { "bf-expansion-factor", NULL, &fkr_cfg.bf_expansion, 0, 32768 },
    { "cf-bucket-size", NULL, &fkr_cfg.cf_bucket_size, 1, 255 },
    { "cf-initial-size", NULL, &fkr_cfg.cf_initial_size, 2 * FKR_CF_BUCKETSIZE, 1048576 },
    { "cf-max-iterations", NULL, &fkr_cfg.cf_max_iterations, 1, 65535 },
    { "cf-expansion-factor", NULL, &fkr_cfg.cf_expansion, 0, 32768 },
    { "cf-max-expansions", "CF_MAX_EXPANSIONS", &fkr_cfg.cf_max_expansions, 1,
      FKR_CF_MAX_EXPANSIONS_LIMIT },
};
#define N_INT_CONFIGS (sizeof int_configs / sizeof int_configs[0])

#define BF_ERROR_RATE_NAME   "bf-error-rate"
#define BF_ERROR_RATE_LEGACY "ERROR_RATE"

const char *fkr_bucket_size_error(long long b)
{
    static char msg[200];
    snprintf(msg, sizeof msg,
             "ERR BUCKETSIZE %lld is not served: filterkit's cuckoo buckets hold %u fingerprints "
             "(give BUCKETSIZE %u or leave it out)", b, FK_CUCKOO_SLOTS, FK_CUCKOO_SLOTS);
    return msg;
}

/* A value for config c, checked: NULL, or the error text. */
static const char *int_check(const int_config *c, long long v)
{
    static char msg[160];
    if (v < c->min || v > c->max) {
        snprintf(msg, sizeof msg, "ERR %s must be an integer in %lld..%lld", c->name, c->min,
                 c->max);
        return msg;
    }
    if (c->value == &fkr_cfg.cf_bucket_size && v != FK_CUCKOO_SLOTS)
        return fkr_bucket_size_error(v);
    return NULL;
}

/* bf-error-rate: a number in [FKR_BF_MIN_ERROR, 1), the rates a Bloom key
 * of any size bf-initial-size allows can be made with (fkr.h). */
#define RATE_RANGE_ERROR "ERR bf-error-rate must be a number in [1e-20, 1) (a Bloom key reaches no smaller rate)"

static const char *rate_parse(const char *s, size_t len, double *out)
{
    char buf[64], *end;
    if (len == 0 || len >= sizeof buf)
        return RATE_RANGE_ERROR;
    memcpy(buf, s, len);
    buf[len] = 0;
    double d = strtod(buf, &end);
    if (*end || !(d >= FKR_BF_MIN_ERROR && d < 1.0))
        return RATE_RANGE_ERROR;
    *out = d;
    return NULL;
}

/* -------------------------------------------------- Redis 7 configs */

static long long get_int(const char *name, void *privdata)
{
    (void)name;
    return *((const int_config *)privdata)->value;
}

static int set_int(const char *name, long long val, void *privdata, RedisModuleString **err)
{
    (void)name;
    const int_config *c = privdata;
    const char *msg = int_check(c, val);
    if (msg) {
        *err = rm_CreateString(NULL, msg + 4, strlen(msg + 4)); /* Redis adds its own prefix */
        return RM_ERR;
    }
    *c->value = val;
    return RM_OK;
}

/* bf-error-rate is a double: Redis 7 has no double configs, so it is a
 * string config that only takes a number in [FKR_BF_MIN_ERROR, 1). */
static RedisModuleString *rate_string;

static RedisModuleString *get_rate(const char *name, void *privdata)
{
    (void)name;
    (void)privdata;
    char buf[40];
    snprintf(buf, sizeof buf, "%g", fkr_cfg.bf_error_rate);
    if (strtod(buf, NULL) != fkr_cfg.bf_error_rate)
        snprintf(buf, sizeof buf, "%.17g", fkr_cfg.bf_error_rate);
    if (rate_string)
        rm_FreeString(NULL, rate_string);
    rate_string = rm_CreateString(NULL, buf, strlen(buf));
    return rate_string;
}

static int set_rate(const char *name, RedisModuleString *val, void *privdata,
                    RedisModuleString **err)
{
    (void)name;
    (void)privdata;
    size_t len;
    const char *s = rm_StringPtrLen(val, &len);
    const char *msg = rate_parse(s, len, &fkr_cfg.bf_error_rate);
    if (msg) {
        *err = rm_CreateString(NULL, msg + 4, strlen(msg + 4));
        return RM_ERR;
    }
    return RM_OK;
}

int fkr_config_register(RedisModuleCtx *ctx)
{
    char rate[40];
    snprintf(rate, sizeof rate, "%.17g", fkr_cfg.bf_error_rate);
    if (rm_RegisterStringConfig(ctx, BF_ERROR_RATE_NAME, rate, RM_CONFIG_DEFAULT, get_rate,
                                set_rate, NULL, NULL) != RM_OK)
        return RM_ERR;
    for (size_t i = 0; i < N_INT_CONFIGS; i++) {
        const int_config *c = &int_configs[i];
        /* the default is what the module arguments left: a config file's
         * or MODULE LOADEX's value replaces it (rm_LoadConfigs) */
        if (rm_RegisterNumericConfig(ctx, c->name, *c->value, RM_CONFIG_DEFAULT, c->min, c->max,
                                     get_int, set_int, NULL, (void *)(uintptr_t)c) != RM_OK)
            return RM_ERR;
    }
    return rm_LoadConfigs(ctx);
}

/* ---------------------------------------------- load-time arguments */

int fkr_config_arg(RedisModuleCtx *ctx, RedisModuleString *name, RedisModuleString *value)
{
    const char *msg = NULL;
    if (fkr_arg_is(name, BF_ERROR_RATE_NAME) || fkr_arg_is(name, BF_ERROR_RATE_LEGACY)) {
        size_t len;
        const char *s = rm_StringPtrLen(value, &len);
        msg = rate_parse(s, len, &fkr_cfg.bf_error_rate);
    } else {
        size_t i = 0;
        while (i < N_INT_CONFIGS && !fkr_arg_is(name, int_configs[i].name) &&
               !(int_configs[i].legacy && fkr_arg_is(name, int_configs[i].legacy)))
            i++;
        if (i == N_INT_CONFIGS)
            return 0;
        long long v;
        if (rm_StringToLongLong(value, &v) != RM_OK)
            v = LLONG_MIN;
        msg = int_check(&int_configs[i], v);
        if (!msg)
            *int_configs[i].value = v;
    }
    if (msg) {
        rm_Log(ctx, "warning", "filterkit: module argument %s: %s", rm_StringPtrLen(name, NULL),
               msg + 4);
        return -1;
    }
    return 1;
}
