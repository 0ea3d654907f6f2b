/* bench/cli/suggest.c: see suggest.h. */
#include <ctype.h>
#include <stdio.h>
#include <string.h>
#include "suggest.h"

/* Optimal string alignment distance, case-insensitive, of two short
 * names (longer ones are never typos of each other here). */
static size_t distance(const char *a, const char *b)
{
    size_t la = strlen(a), lb = strlen(b);
    if (la > 63 || lb > 63)
        return (size_t)-1;
    size_t d[64][64];
    for (size_t i = 0; i <= la; i++)
        d[i][0] = i;
    for (size_t j = 0; j <= lb; j++)
        d[0][j] = j;
    for (size_t i = 1; i <= la; i++)
        for (size_t j = 1; j <= lb; j++) {
            int same = tolower((unsigned char)a[i - 1]) == tolower((unsigned char)b[j - 1]);
            size_t best = d[i - 1][j - 1] + !same;
            if (d[i - 1][j] + 1 < best)
                best = d[i - 1][j] + 1;
            if (d[i][j - 1] + 1 < best)
                best = d[i][j - 1] + 1;
            if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] && d[i - 2][j - 2] + 1 < best)
                best = d[i - 2][j - 2] + 1;
            d[i][j] = best;
        }
    return d[la][lb];
}

const char *fkc_suggest(const char *typed, const char *const candidates[])
{
    if (!typed || !*typed)
        return NULL;
    const char *best = NULL, *prefixed = NULL;
    size_t best_d = (size_t)-1, prefixes = 0, len = strlen(typed);
    for (size_t i = 0; candidates[i]; i++) {
        size_t d = distance(typed, candidates[i]);
        if (d < best_d) {
            best_d = d;
            best = candidates[i];
        }
        if (strncmp(candidates[i], typed, len) == 0) {
            prefixes++;
            prefixed = candidates[i];
        }
    }
    size_t limit = len / 3 ? len / 3 : 1;
    if (best && best_d <= limit)
        return best;
    return prefixes == 1 ? prefixed : NULL;
}

void fkc_did_you_mean(const char *suggestion, char *buf, size_t len)
{
    if (suggestion)
        snprintf(buf, len, "; did you mean '%s'?", suggestion);
    else if (len)
        buf[0] = 0;
}
