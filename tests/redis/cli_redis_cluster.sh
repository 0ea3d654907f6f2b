#!/usr/bin/env bash
# tests/redis/cli_redis_cluster.sh: the module in a 3-master Redis Cluster
# (redis-cli --cluster create, loopback, free ports found at run time).
# 100 filters of every family spread over the hash slots, 10^5 keys added
# through `redis-cli -c`; then `redis-cli --cluster reshard` moves half of
# the 16384 slots (MIGRATE, which is DUMP/RESTORE of the filterkit type):
# every filter still answers every added key (zero false negatives) and
# comes out byte for byte as it went in. Run by tests/run.sh; prints
# `N passed, N failed`; skips without redis-server.
set -u
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
redis_lib_init || exit 77
if [ "$sanitized" = 1 ]; then
    # cluster moves are Redis's work: the plain build covers them
    echo "skipped: sanitizer build (cluster moves are Redis's work: the plain build covers them)"
    exit 0
fi
start=$SECONDS

for n in a b c; do
    start_server "$n" --cluster-enabled yes --cluster-config-file nodes.conf \
        --cluster-node-timeout 5000 || exit 1
done
timeout 60 redis-cli --cluster create "127.0.0.1:$port_a" "127.0.0.1:$port_b" "127.0.0.1:$port_c" \
    --cluster-replicas 0 --cluster-yes >"$tmp/create.log" 2>&1
check "cluster create" grep -q 'All 16384 slots covered' "$tmp/create.log"
cluster_ok() {
    local n
    for n in a b c; do
        rc "$n" CLUSTER INFO | grep -q '^cluster_state:ok' || return 1
    done
}
for _ in $(seq 1 100); do cluster_ok && break; sleep 0.1; done
check "cluster state ok" cluster_ok
echo "  created: $((SECONDS - start)) s" >&2

# 100 filters, 1000 keys each: BF, CF and FK (bloom, counting, cuckoo)
cluster() { timeout 60 redis-cli -c -h 127.0.0.1 -p "$port_a" "$@" | grep -av '^-> Redirected'; }
lap() { echo "  $1: $((SECONDS - start)) s" >&2; }
# commands(WHAT): one line per filter (awk: a few thousand processes cost
# seconds on a loaded machine)
commands() {
    awk -v what="$1" 'BEGIN {
        split("BF CF FK FK FK", fam, " "); split("- - bloom counting cuckoo", kind, " ")
        for (i = 0; i < 100; i++) {
            f = fam[i % 5 + 1]; k = kind[i % 5 + 1]; items = ""
            for (j = 1; j <= 1000; j++) items = items " k" i "-" j
            if (what == "load") {
                if (f == "BF") print "BF.RESERVE f:" i " 0.01 1000\nBF.MADD f:" i items
                else if (f == "CF") print "CF.RESERVE f:" i " 1100\nCF.INSERT f:" i " ITEMS" items
                else print "FK.RESERVE f:" i " " k " 0.01 1000\nFK.MADD f:" i items
            } else if (what == "probe") print f ".MEXISTS f:" i items
            else print "FK.DUMP f:" i
        } }'
}
commands load >"$tmp/load.cmds"
cluster <"$tmp/load.cmds" >"$tmp/load.out" 2>&1
# (a Bloom filter's 0 is a false positive at insert: the key is still found)
n=$(grep -c '^[01]$' "$tmp/load.out")
check "10^5 keys added ($n answers, $(grep -c '^ERR' "$tmp/load.out") errors)" test "$n" = 100000
counts() { echo "$(rc a DBSIZE) $(rc b DBSIZE) $(rc c DBSIZE)"; }
lap loaded
before=$(counts)
check "filters spread over the three masters ($before)" \
    awk -v s="$before" 'BEGIN { split(s, d, " "); exit !(d[1] > 15 && d[2] > 15 && d[3] > 15 && d[1] + d[2] + d[3] == 100) }'

# every key, asked through any node; and each filter's bytes
commands probe >"$tmp/probe.cmds"
commands dump >"$tmp/dump.cmds"
cluster <"$tmp/dump.cmds" | cksum >"$tmp/dump.before"
found=$(cluster <"$tmp/probe.cmds" | grep -c '^1$')
check "before resharding: all 10^5 found ($found)" test "$found" = 100000

lap probed
# move half the slots: 4096 from each of a and b to c
id() { rc "$1" CLUSTER MYID; }
for from in a b; do
    timeout 120 redis-cli --cluster reshard "127.0.0.1:$port_a" --cluster-from "$(id $from)" \
        --cluster-to "$(id c)" --cluster-slots 4096 --cluster-yes >"$tmp/reshard-$from.log" 2>&1
    check "reshard $from -> c" test $? = 0
done
for _ in $(seq 1 100); do cluster_ok && break; sleep 0.1; done
lap resharded
slots_c=$(rc c CLUSTER NODES | awk '/myself/ { n = 0; for (i = 9; i <= NF; i++) { split($i, r, "-");
           n += (r[2] == "" ? 1 : r[2] - r[1] + 1) } print n }')
check "c now serves $slots_c slots (5461 + 8192)" test "$slots_c" = 13653
after=$(counts)
check "filters moved ($before -> $after)" test "$before" != "$after"
found=$(cluster <"$tmp/probe.cmds" | grep -c '^1$')
check "after resharding: all 10^5 found ($found): zero false negatives" test "$found" = 100000
cluster <"$tmp/dump.cmds" | cksum >"$tmp/dump.after"
check "migrated filters are byte-identical" cmp -s "$tmp/dump.before" "$tmp/dump.after"

# FK.MERGE names both keys (first 1, last 2): two keys of one hash slot
# ({tag}) merge; keys in two slots are Redis's CROSSSLOT error
{
    echo "FK.RESERVE {m}a quotient 0.01 1000 SEED 5"
    echo "FK.RESERVE {m}b quotient 0.01 1000 SEED 5"
    echo "FK.ADD {m}a x"
    echo "FK.ADD {m}b y"
} | cluster >/dev/null
check "FK.MERGE of two keys in one slot" test "$(cluster FK.MERGE '{m}a' '{m}b')" = OK
check "the merged key answers both" test "$(cluster FK.MEXISTS '{m}a' x y | tr '\n' ' ')" = "1 1 "
check "FK.MERGE across slots is CROSSSLOT" \
    sh -c "timeout 60 redis-cli -c -h 127.0.0.1 -p '$port_a' FK.MERGE mergeone mergetwo 2>&1 | grep -q CROSSSLOT"

echo "cli_redis_cluster: $((SECONDS - start)) s"
redis_lib_done
