/* bench/cli/hints.c: see hints.h. */
#include <stdio.h>
#include <string.h>
#include "hints.h"
#include "../../registry/registry.h"
#include "../baselines/runnable_kinds.h"

/* fkc_suggest over the runnable kinds (registry + baselines). (A kind
 * option's own "did you mean" is args.c's, over the kinds it offers.) */
static const char *suggest_kind(const char *typed)
{
    const char *names[FKC_KINDS_MAX + 1];
    size_t n = 0;
    for (size_t i = 0; fkc_kind_at(i) && n < FKC_KINDS_MAX; i++)
        names[n++] = fkc_kind_at(i)->name;
    names[n] = NULL;
    return fkc_suggest(typed, names);
}

void fkc_hint_full(FILE *to, const char *cmd, const fk_ops *ops, unsigned long long capacity)
{
    /* the growing kind over this one, found by name in the registry */
    char grows[64];
    snprintf(grows, sizeof grows, "scalable-%s", ops->name);
    const fk_ops *g = fk_ops_find(grows);
    fprintf(to, "filterkit %s: hint: a %s filter holds a fixed number of keys (this one was sized for %llu); "
                "build it again with headroom for what you will add (--capacity, e.g. 'filterkit pick' "
                "prints one)%s%s%s\n",
            cmd, ops->name, capacity, g ? ", or use --kind " : "", g ? grows : "",
            g ? ", which grows instead of filling up" : "");
}

void fkc_did_you_mean_kinds(const char *list, char *buf, size_t len)
{
    if (len)
        buf[0] = 0;
    char name[64];
    for (const char *p = list; p && *p;) {
        size_t n = strcspn(p, ",");
        if (n && n < sizeof name) {
            memcpy(name, p, n);
            name[n] = 0;
            if (!fkc_kind_find(name)) {
                fkc_did_you_mean(suggest_kind(name), buf, len);
                return;
            }
        }
        p += n + (p[n] == ',');
    }
}

void fkc_kinds_with(unsigned caps, char *buf, size_t len)
{
    buf[0] = 0;
    for (size_t i = 0; fk_ops_at(i); i++) {
        const fk_ops *ops = fk_ops_at(i);
        if ((fk_ops_caps(ops) & caps) != caps)
            continue;
        size_t used = strlen(buf);
        snprintf(buf + used, len - used, "%s%s", used ? ", " : "", ops->name);
    }
}
