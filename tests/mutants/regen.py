#!/usr/bin/env python3
"""tests/mutants/regen.py: rewrites tests/mutants/*.patch against the current
tree, from the table below (one small text edit each: the file, the exact
text, its replacement). Run from the repository root after the code a
mutant targets has moved (`git apply --check` fails on its patch): fix that
entry's text if needed, rerun, and commit the patches. `make mutate`
(tests/mutate.sh) reads only the .patch files; this script is its source.

Each patch opens with its header, lines `# ...` that git apply skips:
  # Mutant: the bug it plants
  # Caught by: the quickest command expected to fail with it (run from the
  #            root of a copy of the tree with the patch applied)
  # Why: the test and the property it asserts
"""
import os, subprocess, sys, textwrap

MUTANTS = [
    ("01-cuckoo-lookup-one-bucket",
     "a cuckoo lookup reads one bucket: the alternate bucket i2 is never compared "
     "(fixed-width lookup path)",
     "make check-cuckoo",
     "test_contract no_false_negatives_*, test_cuckoo's model sequences: a key kicked to "
     "its alternate bucket is reported absent",
     "cuckoo/cuckoo.c",
     "        uint64_t m = fk_ctab_match_w(&c->table, k.i1, k.fp, F) |                       \\\n"
     "                     fk_ctab_match_w(&c->table, k.i2, k.fp, F);                        \\\n",
     "        uint64_t m = fk_ctab_match_w(&c->table, k.i1, k.fp, F);                        \\\n"),
    ("02-cuckoo-remove-wrong-bucket",
     "a cuckoo remove that finds the fingerprint in the alternate bucket clears that slot "
     "of the first bucket instead",
     "make check-cuckoo",
     "test_cuckoo's model-based remove sequences and test_contract remove_works_or_is_unsupported: "
     "a false negative for a key still inserted",
     "cuckoo/cuckoo.c",
     "    fk_ctab_set(&c->table, b, (unsigned)j, 0);\n    c->items--;\n",
     "    fk_ctab_set(&c->table, k->i1, (unsigned)j, 0);\n    c->items--;\n"),
    ("03-counting-no-saturation",
     "counting inserts without saturation: a counter at its maximum is incremented, "
     "carrying into the next counter's bits",
     "make check-counting",
     "test_counting saturated_counters_stick_and_protect_other_keys (a saturated counter "
     "stays at max and protects other keys)",
     "counting/counting_internal.h",
     "        uint32_t x = fk_ctr_get(v, pos);\n        if (x == v.max)\n"
     "            continue; /* saturated: stays at max for ever */\n",
     "        uint32_t x = fk_ctr_get(v, pos);\n"),
    ("04-window-sweep-wrong-tag",
     "the window's word sweep empties the slots of the next generation's tag, not the "
     "oldest one's",
     "make check-window",
     "test_window's model (the last N inserts present, older ones gone) and its table invariants",
     "window/window.c",
     "    const uint64_t want = k.ones * t, n = w->buckets;\n",
     "    const uint64_t want = k.ones * ((t + 1) & FK_WIN_TAG_MASK), n = w->buckets;\n"),
    ("05-window-sweep-one-generation-too-many",
     "a time window that crosses generations-1 boundaries at once clears every generation, "
     "one too many (the newest should survive)",
     "make check-window",
     "test_window's time-window cases: after an advance of fewer than 8 generations the "
     "newest generation's keys are still present",
     "window/window.c",
     "    if (c.crossed >= FK_WINDOW_GENERATIONS) {\n",
     "    if (c.crossed + 1 >= FK_WINDOW_GENERATIONS) {\n"),
    ("06-expandable-lookup-ignores-voids",
     "expandable lookups ignore the void list (keys whose fingerprint bits ran out "
     "during doublings)",
     "make check-expandable",
     "test_expandable entries_out_of_bits_go_void_and_stay_found",
     "expandable/expandable.c",
     "    return voids_match(xf, q) >= 0;\n",
     "    return voids_match(xf, q) < -1;\n"),
    ("07-quotient-runend-not-carried",
     "a quotient filter shift does not carry slot 63's runend bit into the next block",
     "make check-quotient",
     "test_quotient invariants_hold_after_merge_grow_and_load (well_formed) and its "
     "model sequences across block boundaries",
     "quotient/quotient.c",
     "            fk_qf_set_slot(qf, s63 + 1, fk_qf_slot(qf, s63));\n"
     "            set_runend(qf, s63 + 1, fk_qf_is_runend(qf, s63));\n",
     "            fk_qf_set_slot(qf, s63 + 1, fk_qf_slot(qf, s63));\n"),
    ("08-blocked-batch-skips-last-window",
     "the two-window batch runner (fk_batch_run: blocked's batches, every kind's) skips "
     "its last window of keys",
     "make check-blocked",
     "test_contract build_answers_as_inserts (a build inserts through the batch call), "
     "test_batch's batch-equals-single cases (FK_TEST_KIND=blocked)",
     "common/pipeline.h",
     "    for (size_t start = 0; start < n; start += FK_BATCH_WINDOW, cur ^= 1) {\n",
     "    for (size_t start = 0; start + FK_BATCH_WINDOW < n; start += FK_BATCH_WINDOW, cur ^= 1) {\n"),
    ("09-hash-ignores-seed",
     "the key hash ignores its seed (every filter hashes as seed 0)",
     "make check-bloom",
     "test_contract other_seed_other_false_positives_for_keys_not_8_bytes (added: the "
     "u64 seed test takes the 8-byte path and passed), test_serial's golden files, "
     "test_hash",
     "common/hash.h",
     "    XXH128_hash_t h = XXH3_128bits_withSeed(key, len, seed);\n",
     "    (void)seed;\n    XXH128_hash_t h = XXH3_128bits_withSeed(key, len, 0);\n"),
    ("10-redis-resp3-bool-as-int",
     "the Redis module answers RESP3 booleans as integers",
     "make build/filterkit-redis.so && tests/run.sh tests/redis/cli_redis_resp3.sh",
     "cli_redis_resp3.sh: BF.EXISTS and friends reply (true)/(false) in RESP3 as RedisBloom does",
     "redis/util.c",
     "    return fkr_resp3(ctx) ? rm_ReplyWithBool(ctx, yes != 0) : rm_ReplyWithLongLong(ctx, yes != 0);\n",
     "    return rm_ReplyWithLongLong(ctx, yes != 0);\n"),
    ("11-cli-query-exit-inverted",
     "`filterkit query` exits 1 when a line matched and 0 when none did (grep's inverted)",
     "make build/filterkit && tests/run.sh tests/cli_conventions.sh",
     "cli_conventions.sh: query exits as grep does",
     "bench/cli/cmd_query.c",
     "    return failed ? QUERY_ERROR : matched ? QUERY_MATCHED : QUERY_NONE;\n",
     "    return failed ? QUERY_ERROR : matched ? QUERY_NONE : QUERY_MATCHED;\n"),
    ("12-serial-length-check-removed",
     "the loader trusts the payload length field: the check that it equals the record's "
     "bytes is gone",
     "make build/tests/test_serial && tests/run.sh build/tests/test_serial",
     "test_serial a_length_field_that_disagrees_with_the_record_is_corrupt (every kind)",
     "common/serial.c",
     "    if (h.payload_len != len - OVERHEAD)\n        return FK_ECORRUPT;\n",
     ""),
    ("13-dedup-changed-not-set",
     "`filterkit dedup` never notes that it inserted: a line repeated within one batch "
     "of input is printed twice",
     "make build/filterkit && tests/run.sh tests/cli_dedup.sh",
     "cli_dedup.sh: every line twice from a regular file (read in batches), each printed "
     "once, in order (added for this mutant: the piped case reads line by line)",
     "bench/cli/cmd_dedup.c",
     "                changed = true;\n                d->dirty++;\n",
     "                d->dirty++;\n"),
    ("14-fuse-build-drops-a-cell",
     "the fuse build assigns each key's cell from two of its three cells",
     "make check-fuse",
     "test_fuse / test_contract no_false_negatives_*: the three cells no longer XOR to "
     "the fingerprint",
     "fuse/fuse.c",
     "                     cell_take(cells, base + c[1], w, f, fp_mask, bounded, end) ^\n"
     "                     cell_take(cells, base + c[2], w, f, fp_mask, bounded, end);\n",
     "                     cell_take(cells, base + c[1], w, f, fp_mask, bounded, end);\n"),
    ("15-scalable-lookup-skips-first-link",
     "a scalable chain's lookup (hash-once path) never asks its first, oldest link",
     "make check-scalable",
     "test_scalable one_hash_per_key_answers_as_the_per_link_path (the hashed lookup "
     "answers as the per-link one once the chain has grown)",
     "scalable/scalable.c",
     "    for (size_t i = c->count; i-- > 0;) {\n        const fk_scalable_link *l = &c->link[i];\n",
     "    for (size_t i = c->count; i-- > 1;) {\n        const fk_scalable_link *l = &c->link[i];\n"),
    ("16-registry-shared-id-first-kind",
     "the registry loads every file of a shared kind id (the growing kinds) as the first "
     "kind registered with that id",
     "make check-scalable",
     "test_scalable saved_chain_round_trips_and_keeps_its_inner_kind "
     "(fk_filter_load_any of a scalable-cuckoo file), test_serial's load_all_ways",
     "registry/registry.c",
     "            ops->serial->check_head(h) == FK_OK)\n            return ops;\n",
     "            ops->serial->check_head(h) == FK_OK)\n            break;\n"),
    ("17-python-str-key-drops-last-byte",
     "the Python binding hashes a str key without its last UTF-8 byte",
     "tests/run.sh tests/cli_python.sh",
     "python/tests test_api.py test_key_types_are_their_bytes (a str key is its UTF-8 "
     "bytes, the same bits as the C calls and the CLI)",
     "python/src/keys.c",
     "        k->ptr = s;\n        k->len = (size_t)n;\n",
     "        k->ptr = s;\n        k->len = (size_t)n - (n > 0);\n"),
    ("18-redis-restore-not-replicated",
     "a SCANDUMP/LOADCHUNK restore is not replicated: the replica and the AOF never "
     "see the restored filter",
     "make build/filterkit-redis.so && tests/run.sh tests/redis/cli_redis_replication.sh",
     "cli_redis_replication.sh: after every chunk the key has the same digest on the replica",
     "redis/cmd_chunk.c",
     "    rm_Replicate(ctx, \"FK.LOAD\", \"sb\", argv[1], (const char *)r->buf, (size_t)r->total);\n",
     ""),
    ("20-counting-concurrent-no-saturation",
     "counting's concurrent insert (compare-and-swap) increments a saturated counter",
     "make check-counting",
     "test_counting concurrent_writers_saturate_as_single_ones (added for this mutant: "
     "test_concurrent did not kill it)",
     "counting/counting.c",
     "        if (x == max)\n            return 0; /* saturated: stays at max for ever */\n"
     "        if (fk_cas8",
     "        if (fk_cas8"),
    ("19-bloom-merge-skips-last-word",
     "a Bloom merge (and intersect) leaves out the bit array's last word",
     "make check-bloom",
     "test_bloom union_and_intersection: every key of both filters is in the union",
     "bloom/bloom.c",
     "    for (uint64_t w = 0; w < dst->words; w++)\n        dst->bits[w] = intersect",
     "    for (uint64_t w = 0; w + 1 < dst->words; w++)\n        dst->bits[w] = intersect"),
]


def wrap(prefix, text, width=76):
    return "\n".join(textwrap.wrap(text, width, initial_indent=prefix + " ",
                                    subsequent_indent="#   ")) + "\n"


def main():
    root = subprocess.check_output(["git", "rev-parse", "--show-toplevel"], text=True).strip()
    os.chdir(root)
    only = set(sys.argv[1:])
    bad = 0
    for name, bug, catch, why, path, old, new in MUTANTS:
        if only and name not in only:
            continue
        src = open(path).read()
        if src.count(old) != 1:
            print(f"{name}: the text to change is found {src.count(old)} times in {path}: fix its entry")
            bad += 1
            continue
        try:
            open(path, "w").write(src.replace(old, new))
            diff = subprocess.check_output(["git", "diff", "--", path], text=True)
        finally:
            open(path, "w").write(src)
        head = wrap("# Mutant:", bug) + "# Caught by: " + catch + "\n" + wrap("# Why:", why)
        with open(f"tests/mutants/{name}.patch", "w") as f:
            f.write(head + diff)
        print(f"{name}: {path}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
