#!/usr/bin/env bash
# tests/redis/cli_redis_clients.sh: filterkit-redis.so driven by a real RedisBloom
# client, unchanged: Debian's redis-py (python3-redis) and its bf()/cf()
# helpers (tests/redis/redisbloom_client.py) create, fill, inspect, back up
# with SCANDUMP and restore with LOADCHUNK a BF and a CF key between two
# servers, and check that a forged or reordered chunk is refused and loses
# nothing. Then the same backup through redis-cli alone. Skipped without
# redis-server or python3-redis. FK_BUILD=<build dir>.
source "$(dirname "$0")/lib.sh"
redis_lib_init || exit 77
py=/usr/bin/python3 # Debian's, which python3-redis installs into
if ! "$py" -c 'import redis.commands.bf' >/dev/null 2>&1; then
    echo "skipped: python3-redis not installed (make deps-redis)"
    exit 77
fi
# small chunks on the source, so a dump takes several
start_server a CHUNKBYTES 4096 || exit 1
start_server b || exit 1
client="$(cd "$(dirname "$0")" && pwd)/redisbloom_client.py"
# (from /tmp: the source tree's redis/ folder would shadow the redis package)
# the release number MODULE LIST must report: MAJOR * 10000 + MINOR * 100 + PATCH
vnum=$(awk '/define FK_VERSION_(MAJOR|MINOR|PATCH) / { v[$2] = $3 } END {
    print v["FK_VERSION_MAJOR"] * 10000 + v["FK_VERSION_MINOR"] * 100 + v["FK_VERSION_PATCH"] }' \
    "$(dirname "$0")/../../common/version.h")
out=$(cd /tmp && "$py" "$client" "$port_a" "$port_b" "$vnum" 2>&1)
line=$(printf '%s\n' "$out" | tail -n 1)
printf '%s\n' "$out" | grep '^FAIL' >&2
p=${line%% passed*}; f=${line#*, }; f=${f%% failed*}
case "$p$f" in *[!0-9]*|"") bad "redisbloom_client.py: $(printf '%s\n' "$out" | tail -n 5)"; p=0; f=0;; esac
pass=$((pass + p)); fail=$((fail + f))

# The same backup with redis-cli alone: SCANDUMP's chunks are binary, so
# they travel through files; every key comes back.
rc a BF.RESERVE cli 0.01 5000 >/dev/null
seq 1 3000 | sed 's/^/BF.ADD cli k/' | rc a >/dev/null
it=0; n=0
while :; do
    rc a --no-raw BF.SCANDUMP cli "$it" >/dev/null # (the iterator first)
    next=$(rc a EVAL "return redis.call('BF.SCANDUMP', KEYS[1], ARGV[1])[1]" 1 cli "$it")
    # the last chunk, or no cursor at all (a server gone: the checks below fail)
    case "$next" in 0 | "" | *[!0-9]*) break ;; esac
    rc a EVAL "return redis.call('BF.SCANDUMP', KEYS[1], ARGV[1])[2]" 1 cli "$it" | head -c -1 >"$tmp/chunk.$n"
    printf '%s\n' "$next" >"$tmp/iter.$n"
    it=$next; n=$((n + 1))
done
check_chunks=$n
i=0
while [ "$i" -lt "$n" ]; do
    rc b -x BF.LOADCHUNK cli "$(cat "$tmp/iter.$i")" <"$tmp/chunk.$i" >/dev/null
    i=$((i + 1))
done
found=$(seq 1 3000 | sed 's/^/BF.EXISTS cli k/' | rc b | grep -c '^1$')
if [ "$check_chunks" -gt 1 ] && [ "$found" = 3000 ]; then ok
else bad "redis-cli backup of a BF key: $check_chunks chunks, $found of 3000 keys back"; fi

redis_lib_done
