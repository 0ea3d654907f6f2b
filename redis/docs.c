/* redis/docs.c: what COMMAND DOCS and COMMAND INFO say about each command
 * the module registers (RedisModule_SetCommandInfo, Redis 7.0): a summary,
 * the cost, the filterkit release that brought it, its arity and its
 * arguments, written for this module (the BF.* and CF.* forms are the ones
 * RedisBloom's clients send; docs/redis.md has the details).
 *
 * The arguments are a flat list (no ONEOF or BLOCK groups), an option as
 * its token and value, so the table reads the same under every layout the
 * 7.x servers give RedisModuleCommandArg. The arity is the one the command
 * checks itself (a negative arity is a minimum: the command checks the
 * rest), so the server's early check refuses nothing the command would
 * have taken. FK.INFO's is a minimum: its replies may grow options.
 */
#include "commands.h"

#include <string.h>

/* One argument. Flags: OPT (optional), MULTI (repeats). */
#define OPT   RM_CMD_ARG_OPTIONAL
#define MULTI RM_CMD_ARG_MULTIPLE
#define KEY(n, s) { .name = n, .type = RM_ARG_TYPE_KEY, .key_spec_index = 0, .summary = s }
#define ARG(n, t, fl, s) { .name = n, .type = RM_ARG_TYPE_##t, .key_spec_index = -1, .flags = fl, .summary = s }
#define OPTION(tok, n, t, s) \
    { .name = n, .type = RM_ARG_TYPE_##t, .key_spec_index = -1, .token = tok, .flags = OPT, .summary = s }
#define TOKEN(tok, n, s) \
    { .name = n, .type = RM_ARG_TYPE_PURE_TOKEN, .key_spec_index = -1, .token = tok, .flags = OPT, .summary = s }
#define ITEMS(tok, s) \
    { .name = "item", .type = RM_ARG_TYPE_STRING, .key_spec_index = -1, .token = tok, .flags = MULTI, .summary = s }
#define END { 0 }
#define ARGS(...) ((const rm_command_arg[]){ __VA_ARGS__, END })

typedef struct {
    const char *name;
    const char *summary;
    const char *complexity;
    const char *since; /* the filterkit release */
    int arity;
    const rm_command_arg *args;
} command_doc;

#define ONE_ITEM  ARG("item", STRING, 0, "the item")
#define MANY_ITEMS ARG("item", STRING, MULTI, "the items, one answer each")

static const command_doc docs[] = {
    /* ------------------------------------------------- BF: Bloom keys */
    { "BF.RESERVE", "Creates an empty scalable Bloom filter key for a capacity and error rate",
      "O(1) calls; allocates the first sub-filter", "0.2.0", -4,
      ARGS(KEY("key", "a key that does not exist yet"),
           ARG("error_rate", DOUBLE, 0, "false-positive rate wanted, between 0 and 1"),
           ARG("capacity", INTEGER, 0, "items the first sub-filter is sized for"),
           OPTION("EXPANSION", "expansion", INTEGER, "each new sub-filter is this many times larger"),
           TOKEN("NONSCALING", "nonscaling", "never add a sub-filter: a full filter refuses items")) },
    { "BF.ADD", "Adds an item to a Bloom filter key, creating the key with the module's defaults",
      "O(k) for k hash probes", "0.2.0", 3,
      ARGS(KEY("key", "the filter"), ONE_ITEM) },
    { "BF.MADD", "Adds items to a Bloom filter key, creating the key with the module's defaults",
      "O(n k) for n items", "0.2.0", -3,
      ARGS(KEY("key", "the filter"), MANY_ITEMS) },
    { "BF.INSERT", "Adds items to a Bloom filter key, creating it with the given options when missing",
      "O(n k) for n items", "0.2.0", -4,
      ARGS(KEY("key", "the filter"),
           OPTION("CAPACITY", "capacity", INTEGER, "capacity for a key this call creates"),
           OPTION("ERROR", "error", DOUBLE, "error rate for a key this call creates"),
           OPTION("EXPANSION", "expansion", INTEGER, "growth factor for a key this call creates"),
           TOKEN("NOCREATE", "nocreate", "fail instead of creating a missing key"),
           TOKEN("NONSCALING", "nonscaling", "a key this call creates never grows"),
           ITEMS("ITEMS", "the items to add")) },
    { "BF.EXISTS", "Tells whether an item may be in a Bloom filter key (0: certainly not)",
      "O(k) for k hash probes", "0.2.0", 3,
      ARGS(KEY("key", "the filter"), ONE_ITEM) },
    { "BF.MEXISTS", "Tells for each item whether it may be in a Bloom filter key",
      "O(n k) for n items", "0.2.0", -3,
      ARGS(KEY("key", "the filter"), MANY_ITEMS) },
    { "BF.INFO", "Describes a Bloom filter key: capacity, size, sub-filters, items, expansion",
      "O(1)", "0.2.0", -2,
      ARGS(KEY("key", "the filter"),
           ARG("field", STRING, OPT, "one of CAPACITY, SIZE, FILTERS, ITEMS, EXPANSION: only that value")) },
    { "BF.DEBUG", "Lists a Bloom filter key's sub-filters: bytes, bits, hashes, capacity, items",
      "O(s) for s sub-filters", "0.4.0", 2,
      ARGS(KEY("key", "the filter")) },
    { "BF.CARD", "Counts the items added to a Bloom filter key (0 for a missing key)",
      "O(1)", "0.2.0", 2,
      ARGS(KEY("key", "the filter")) },
    { "BF.SCANDUMP", "Returns the next chunk of a Bloom filter key's dump and the cursor after it",
      "O(c) for a chunk of c bytes", "0.3.0", 3,
      ARGS(KEY("key", "the filter"), ARG("iterator", INTEGER, 0, "0 to start, then the cursor returned")) },
    { "BF.LOADCHUNK", "Restores a Bloom filter key from the chunks BF.SCANDUMP returned, in order",
      "O(c) for a chunk of c bytes", "0.3.0", 4,
      ARGS(KEY("key", "the key to restore"), ARG("iterator", INTEGER, 0, "the cursor BF.SCANDUMP gave"),
           ARG("data", STRING, 0, "the chunk BF.SCANDUMP gave with it")) },

    /* ------------------------------------------------ CF: cuckoo keys */
    { "CF.RESERVE", "Creates an empty scalable cuckoo filter key for a capacity",
      "O(1) calls; allocates the first table", "0.2.0", -3,
      ARGS(KEY("key", "a key that does not exist yet"),
           ARG("capacity", INTEGER, 0, "items the first table is sized for"),
           OPTION("BUCKETSIZE", "bucketsize", INTEGER, "slots per bucket (this module's tables have 4)"),
           OPTION("MAXITERATIONS", "maxiterations", INTEGER, "evictions tried before a table counts as full"),
           OPTION("EXPANSION", "expansion", INTEGER, "each new table is this many times larger")) },
    { "CF.ADD", "Adds an item to a cuckoo filter key, creating the key with the module's defaults",
      "O(1) on average", "0.2.0", 3,
      ARGS(KEY("key", "the filter"), ONE_ITEM) },
    { "CF.ADDNX", "Adds an item to a cuckoo filter key unless it may be there already",
      "O(1) on average", "0.2.0", 3,
      ARGS(KEY("key", "the filter"), ONE_ITEM) },
    { "CF.INSERT", "Adds items to a cuckoo filter key, creating it with the given capacity when missing",
      "O(n) for n items", "0.2.0", -4,
      ARGS(KEY("key", "the filter"),
           OPTION("CAPACITY", "capacity", INTEGER, "capacity for a key this call creates"),
           TOKEN("NOCREATE", "nocreate", "fail instead of creating a missing key"),
           ITEMS("ITEMS", "the items to add")) },
    { "CF.INSERTNX", "Adds each item that may not be in a cuckoo filter key yet",
      "O(n) for n items", "0.2.0", -4,
      ARGS(KEY("key", "the filter"),
           OPTION("CAPACITY", "capacity", INTEGER, "capacity for a key this call creates"),
           TOKEN("NOCREATE", "nocreate", "fail instead of creating a missing key"),
           ITEMS("ITEMS", "the items to add")) },
    { "CF.EXISTS", "Tells whether an item may be in a cuckoo filter key (0: certainly not)",
      "O(1) per table", "0.2.0", -3,
      ARGS(KEY("key", "the filter"), ONE_ITEM) },
    { "CF.MEXISTS", "Tells for each item whether it may be in a cuckoo filter key",
      "O(n) for n items", "0.2.0", -3,
      ARGS(KEY("key", "the filter"), MANY_ITEMS) },
    { "CF.DEL", "Removes one copy of an item from a cuckoo filter key",
      "O(1) per table", "0.2.0", 3,
      ARGS(KEY("key", "the filter"), ARG("item", STRING, 0, "an item added before")) },
    { "CF.COUNT", "Counts the copies of an item's fingerprint in a cuckoo filter key (an upper bound)",
      "O(1) per table", "0.2.0", -3,
      ARGS(KEY("key", "the filter"), ONE_ITEM) },
    { "CF.INFO", "Describes a cuckoo filter key: size, buckets, tables, items, deletes, settings",
      "O(1)", "0.2.0", 2,
      ARGS(KEY("key", "the filter")) },
    { "CF.DEBUG", "Prints a cuckoo filter key's geometry and counters on one line",
      "O(1)", "0.4.0", 2,
      ARGS(KEY("key", "the filter")) },
    { "CF.COMPACT", "Accepted for compatibility; changes nothing", "O(1)", "0.3.0", 2,
      ARGS(KEY("key", "the filter")) },
    { "CF.SCANDUMP", "Returns the next chunk of a cuckoo filter key's dump and the cursor after it",
      "O(c) for a chunk of c bytes", "0.3.0", 3,
      ARGS(KEY("key", "the filter"), ARG("iterator", INTEGER, 0, "0 to start, then the cursor returned")) },
    { "CF.LOADCHUNK", "Restores a cuckoo filter key from the chunks CF.SCANDUMP returned, in order",
      "O(c) for a chunk of c bytes", "0.3.0", 4,
      ARGS(KEY("key", "the key to restore"), ARG("iterator", INTEGER, 0, "the cursor CF.SCANDUMP gave"),
           ARG("data", STRING, 0, "the chunk CF.SCANDUMP gave with it")) },

    /* -------------------------------------- FK: every filterkit kind */
    { "FK.RESERVE", "Creates an empty filter key of any filterkit kind (FK.KINDS lists them)",
      "O(1) calls; allocates the filter", "0.2.0", -5,
      ARGS(KEY("key", "a key that does not exist yet"),
           ARG("kind", STRING, 0, "the kind: bloom, cuckoo, quotient, window, ..."),
           ARG("fpr", DOUBLE, 0, "false-positive rate wanted, between 0 and 1"),
           ARG("capacity", INTEGER, 0, "items it is sized for (a count window: its length)"),
           OPTION("GROWTH", "growth", INTEGER,
                  "scalable-*: each next sub-filter's growth factor; expandable: the growth "
                  "expected (its fingerprints are sized for it)"),
           OPTION("SEED", "seed", INTEGER, "hash seed; keys reserved alike with one seed can merge"),
           OPTION("SECONDS", "seconds", INTEGER, "kind window: a time window of this many seconds")) },
    { "FK.ADD", "Adds an item to a filterkit key", "O(1) for most kinds", "0.2.0", 3,
      ARGS(KEY("key", "the filter"), ONE_ITEM) },
    { "FK.MADD", "Adds items to a filterkit key, one answer each", "O(n) for n items", "0.2.0", -3,
      ARGS(KEY("key", "the filter"), MANY_ITEMS) },
    { "FK.EXISTS", "Tells whether an item may be in a filterkit key (0: certainly not)",
      "O(1) for most kinds", "0.2.0", -3,
      ARGS(KEY("key", "the filter"), ONE_ITEM) },
    { "FK.MEXISTS", "Tells for each item whether it may be in a filterkit key", "O(n) for n items",
      "0.2.0", -3,
      ARGS(KEY("key", "the filter"), MANY_ITEMS) },
    { "FK.DEL", "Removes an item from a filterkit key of a kind that removes",
      "O(1) for most kinds", "0.2.0", 3,
      ARGS(KEY("key", "the filter"), ARG("item", STRING, 0, "an item added before")) },
    { "FK.COUNT", "Counts an item in a filterkit key (kinds that count; others answer 1 or 0)",
      "O(1) for most kinds", "0.2.0", -3,
      ARGS(KEY("key", "the filter"), ONE_ITEM) },
    { "FK.INFO", "Describes a filterkit key: its kind, sizes, fill and the kind's own figures",
      "O(1) for most kinds; a scan of the table for some", "0.2.0", -2,
      ARGS(KEY("key", "the filter")) },
    { "FK.DUMP", "Returns a filterkit key as a filterkit file (the CLI and Python read it)",
      "O(m) for a filter of m bytes", "0.2.0", 2,
      ARGS(KEY("key", "the filter")) },
    { "FK.LOAD", "Replaces a key with the filter in a filterkit file", "O(m) for a file of m bytes",
      "0.2.0", 3,
      ARGS(KEY("key", "the key to write"), ARG("bytes", STRING, 0, "a filterkit file, as FK.DUMP returns")) },
    { "FK.MERGE", "Adds every item of one filterkit key into another of the same kind and shape",
      "O(m) for filters of m bytes", "0.3.0", 3,
      ARGS(KEY("destination", "the filter that becomes the union"),
           KEY("source", "the filter merged in, unchanged")) },
    { "FK.GROW", "Doubles a filterkit key's table in place, for kinds that can (quotient)",
      "O(m) for a filter of m bytes", "0.3.0", 2,
      ARGS(KEY("key", "the filter")) },
    { "FK.KINDS", "Lists the filter kinds FK.RESERVE takes", "O(kinds)", "0.2.0", 1, NULL },
    { "FK.ADVANCE", "Moves a time-window key's clock forward to a time in milliseconds",
      "O(1), or a sweep of the table when generations expire", "0.4.0", 3,
      ARGS(KEY("key", "a time-window filter"),
           ARG("ms", INTEGER, 0, "Unix time in milliseconds; an earlier time changes nothing")) },
};

int fkr_command_docs_set(RedisModuleCtx *ctx, const char *name)
{
    if (!rm_GetCommand || !rm_SetCommandInfo)
        return RM_OK; /* a server before 7.0's command docs: nothing to set */
    static const rm_command_info_version version = {
        .version = 1,
        .sizeof_historyentry = sizeof(rm_command_history_entry),
        .sizeof_keyspec = sizeof(rm_command_key_spec),
        .sizeof_arg = sizeof(rm_command_arg),
    };
    for (size_t i = 0; i < sizeof docs / sizeof docs[0]; i++) {
        if (strcmp(docs[i].name, name) != 0)
            continue;
        const rm_command_info info = {
            .version = &version,
            .summary = docs[i].summary,
            .complexity = docs[i].complexity,
            .since = docs[i].since,
            .arity = docs[i].arity,
            .args = docs[i].args,
        };
        RedisModuleCommand *cmd = rm_GetCommand(ctx, name);
        if (!cmd || rm_SetCommandInfo(cmd, &info) != RM_OK) {
            rm_Log(ctx, "warning", "filterkit: the server refused the docs of %s", name);
            return RM_ERR;
        }
        return RM_OK;
    }
    rm_Log(ctx, "warning", "filterkit: %s has no docs (redis/docs.c)", name);
    return RM_ERR;
}
