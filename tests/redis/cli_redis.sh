#!/usr/bin/env bash
# tests/redis/cli_redis.sh: the Redis module on real servers (Debian's
# redis-server, loopback only, ports found free at run time, stopped on
# exit). Run by tests/run.sh with FK_BUILD=<build dir>; prints
# `N passed, N failed`; says "skipped: ..." without redis-server.
#  - every BF.*, CF.*, FK.* command: replies as RedisBloom documents them
#    (and filterkit's own for FK.*), WRONGTYPE across types and families;
#  - bad input: wrong arity for every command, non-numbers, error rates
#    0/1/NaN/negative, capacity 0 or past MAXBYTES (an error, no key), a
#    200k-item MADD, FK.LOAD of damaged files and random bytes (refused as
#    FK_ECORRUPT, the key untouched, the server up);
#  - FK.LOAD of a `filterkit build` file, FK.DUMP read by `filterkit query`;
#    a static (fuse, ribbon) file served by FK.EXISTS/FK.MEXISTS, its writes refused;
#  - FK.GROW (a quotient filter doubles keeping its counts; every refusal
#    named; replicated);
#  - FK.MERGE (quotient counts add up, Bloom unions, missing keys, every
#    refusal named) and FK.RESERVE's SEED, which makes two keys mergeable;
#  - persistence: SAVE + restart, BGREWRITEAOF (no RDB preamble) + restart,
#    DEBUG RELOAD, DUMP/RESTORE, COPY: byte-identical filters and answers
#    (a key made by FK.MERGE among them);
#  - MEMORY USAGE within 5% of the filter's bytes plus a constant;
#  - a replica (REPLICAOF, WAIT) holds byte-identical filters.
set -u
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
redis_lib_init || exit 77
fk="$build/filterkit"
start=$(date +%s)

# ---------------------------------------------------------------- BF.*
# module argument: at most 64 MiB per filter
start_server main MAXBYTES 67108864 || exit 1
S=main
section() { echo "  ${1}: $((SECONDS - t0)) s" >&2; t0=$SECONDS; }
t0=$SECONDS
batch $S <<'SPEC'
BF.RESERVE bf 0.01 1000 => OK
BF.RESERVE bf 0.01 1000 => ERR item exists
BF.ADD bf a => 1
BF.ADD bf a => 0
BF.MADD bf a b c => 0|1|1
BF.EXISTS bf a => 1
BF.EXISTS bf zz => 0
BF.MEXISTS bf a b zz => 1|1|0
BF.EXISTS nokey a => 0
BF.MEXISTS nokey a b => 0|0
BF.CARD bf => 3
BF.MADD bfrep r1 r2 r1 r3 r2 => 1|1|0|1|0
BF.CARD bfrep => 3
BF.CARD nokey => 0
BF.INFO bf CAPACITY => 1000
BF.INFO bf ITEMS => 3
BF.INFO bf FILTERS => 1
BF.INFO bf EXPANSION => 2
BF.INFO bf => ~Capacity|1000|Size|
BF.INFO nokey => ERR not found
BF.INFO bf BOGUS => ERR Invalid information value
# BF.ADD creates RedisBloom's default filter
BF.ADD auto x => 1
BF.INFO auto CAPACITY => 100
BF.INFO auto EXPANSION => 2
BF.RESERVE ns 0.01 5 NONSCALING => OK
BF.MADD ns n1 n2 n3 n4 n5 n6 => 1|1|1|1|1|ERR non scaling filter is full
BF.ADD ns n1 => 0
BF.ADD ns n7 => ERR non scaling filter is full
BF.INFO ns EXPANSION =>
BF.RESERVE x 0.01 10 NONSCALING EXPANSION 2 => ERR Nonscaling filters cannot expand
BF.RESERVE x 0.01 10 EXPANSION => ERR no expansion
BF.RESERVE x 0.01 10 EXPANSION 0 => ERR expansion should be between 1 and 65536
BF.RESERVE x 0.01 10 BOGUS => ERR unknown argument
BF.INSERT ins CAPACITY 500 ERROR 0.001 ITEMS a b a => 1|1|0
BF.INFO ins CAPACITY => 500
BF.INSERT nokey NOCREATE ITEMS a => ERR not found
BF.INSERT ins ITEMS => ERR wrong number of arguments for 'BF.INSERT' command
BF.INSERT ins BOGUS ITEMS a => ERR Unknown argument received
BF.INSERT x ERROR 2 ITEMS a => ERR Bad argument received
BF.INSERT x ERROR nan ITEMS a => ERR Bad error rate
BF.INSERT x CAPACITY 0 ITEMS a => ERR Bad argument received
BF.INSERT x CAPACITY abc ITEMS a => ERR Bad capacity
EXISTS x => 0
TYPE bf => filterkit
SPEC
check "BF.INFO fields" test "$(rc $S BF.INFO bf | sed -n '1~2p' | tr '\n' ,)" = \
    "Capacity,Size,Number of filters,Number of items inserted,Expansion rate,"
section BF

# ---------------------------------------------------------------- CF.*
batch $S <<'SPEC'
# EXPANSION 0: a plain cuckoo filter, whose CF.COUNT is exact (a growing
# one, the default once scalable-cuckoo is registered, spreads copies)
CF.RESERVE cf 1000 EXPANSION 0 => OK
CF.RESERVE cf 1000 => ERR item exists
CF.RESERVE c2 1 => ERR Capacity must be at least (BucketSize * 2)
CF.RESERVE c3 1000 BUCKETSIZE 0 => ~ERR BUCKETSIZE parameter needs to be a positive integer
CF.RESERVE c3 1000 MAXITERATIONS -1 => ~ERR MAXITERATIONS parameter needs
CF.RESERVE c3 1000 EXPANSION -1 => ~ERR EXPANSION parameter needs
CF.RESERVE c3 1000 BUCKETSIZE => ERR wrong number of arguments for 'CF.RESERVE' command
CF.RESERVE c3 abc => ERR Bad capacity
CF.RESERVE c4 1000 BUCKETSIZE 4 MAXITERATIONS 100 EXPANSION 2 => OK
CF.ADD cf a => 1
CF.ADD cf a => 1
CF.COUNT cf a => 2
CF.COUNT cf zz => 0
CF.COUNT nokey a => 0
CF.ADDNX cf a => 0
CF.ADDNX cf b => 1
CF.EXISTS cf a => 1
CF.EXISTS cf zz => 0
CF.MEXISTS cf a b zz => 1|1|0
CF.EXISTS nokey a => 0
CF.MEXISTS nokey a => 0
CF.DEL cf a => 1
CF.COUNT cf a => 1
CF.DEL cf a => 1
CF.DEL cf a => 0
CF.EXISTS cf a => 0
CF.DEL nokey a => ERR Not found
CF.INSERT ci CAPACITY 1000 ITEMS x y => 1|1
CF.INSERTNX ci ITEMS x z => 0|1
CF.INSERT nokey NOCREATE ITEMS x => ERR not found
CF.INSERT x CAPACITY 3 ITEMS a => ERR Capacity must be at least (BucketSize * 2)
CF.INSERT x BOGUS ITEMS a => ERR Unknown argument received
CF.INSERT x ITEMS => ERR wrong number of arguments for 'CF.INSERT' command
CF.ADD cauto x => 1
CF.INFO cauto => ~Size|
CF.RESERVE cfull 1000 EXPANSION 0 => OK
# one key has 8 slots (2 buckets x 4): the ninth copy finds no room
CF.INSERT cfull ITEMS s s s s s s s s s => 1|1|1|1|1|1|1|1|-1
CF.ADD cfull s => ERR Filter is full
CF.ADDNX cfull s => 0
CF.ADD bf a => WRONGTYPE Operation against a key holding the wrong kind of value
BF.ADD cf a => WRONGTYPE Operation against a key holding the wrong kind of value
BF.EXISTS cf a => WRONGTYPE Operation against a key holding the wrong kind of value
CF.EXISTS bf a => WRONGTYPE Operation against a key holding the wrong kind of value
SET str v => OK
BF.ADD str a => WRONGTYPE Operation against a key holding the wrong kind of value
BF.EXISTS str a => WRONGTYPE Operation against a key holding the wrong kind of value
BF.INFO str => WRONGTYPE Operation against a key holding the wrong kind of value
BF.CARD str => WRONGTYPE Operation against a key holding the wrong kind of value
BF.RESERVE str 0.1 10 => WRONGTYPE Operation against a key holding the wrong kind of value
CF.ADD str a => WRONGTYPE Operation against a key holding the wrong kind of value
CF.COUNT str a => WRONGTYPE Operation against a key holding the wrong kind of value
CF.DEL str a => WRONGTYPE Operation against a key holding the wrong kind of value
FK.ADD str a => WRONGTYPE Operation against a key holding the wrong kind of value
FK.EXISTS str a => WRONGTYPE Operation against a key holding the wrong kind of value
FK.DUMP str => WRONGTYPE Operation against a key holding the wrong kind of value
FK.LOAD str x => WRONGTYPE Operation against a key holding the wrong kind of value
SPEC
check "CF.INFO fields" test "$(rc $S CF.INFO cf | sed -n '1~2p' | tr '\n' ,)" = \
    "Size,Number of buckets,Number of filters,Number of items inserted,Number of items deleted,Bucket size,Expansion rate,Max iterations,"
check "CF.INFO counts" test "$(rc $S CF.INFO cf | sed -n '8p;10p' | tr '\n' ,)" = "1,2,"
# the real geometry for every key, a default (growing) one too: buckets
# (summed over a chain's links), 4 slots per bucket, the kick limit
# (MAXITERATIONS, RedisBloom's 20 by default)
rc $S CF.ADD cfdefault x >/dev/null
for k in cf cfdefault; do
    info=$(rc $S CF.INFO $k | paste -sd'|')
    check "CF.INFO $k: buckets > 0, bucket size 4, max iterations 20 ($info)" \
        sh -c "echo '$info' | grep -Eq 'Number of buckets\|[1-9][0-9]*\|' && echo '$info' | grep -q 'Bucket size|4|' && echo '$info' | grep -q 'Max iterations|20\$'"
done
section CF

# ---------------------------------------------------------------- FK.*
kinds=$(rc $S FK.KINDS | tr '\n' ' ')
for kind in bloom counting cuckoo; do
    case " $kinds " in *" $kind "*) ok ;; *) bad "FK.KINDS lacks $kind: $kinds" ;; esac
done
seq 1 300 | sed 's/^/fk-/' >"$tmp/keys300"
keys300=$(tr '\n' ' ' <"$tmp/keys300")
all1=$(yes 1 | head -n 300 | tr '\n' '|'); all1=${all1%|}
# every registered kind that can be saved (the others are refused, named)
saveable=""
for kind in $kinds; do
    r=$(rc $S FK.RESERVE "probe:$kind" "$kind" 0.01 10)
    case "$r" in
    OK) ok; saveable="$saveable $kind"; rc $S DEL "probe:$kind" >/dev/null ;;
    "ERR FK_EUNSUPPORTED"*) ok ;;
    *) bad "FK.RESERVE $kind: $r" ;;
    esac
done
kinds=$saveable
for kind in $kinds; do
    echo "FK.RESERVE fk:$kind $kind 0.01 1000 => OK"
    echo "FK.MADD fk:$kind $keys300 => $all1"
    echo "FK.MEXISTS fk:$kind $keys300 => $all1"
    echo "FK.ADD fk:$kind extra => 1"
    echo "FK.EXISTS fk:$kind extra => 1"
    echo "FK.INFO fk:$kind => ~kind|$kind|family|fk|capacity|"
done | batch $S
batch $S <<'SPEC'
FK.DEL fk:bloom fk-1 => ~ERR FK_EUNSUPPORTED
FK.DEL fk:counting fk-1 => 1
FK.DEL fk:cuckoo never-added => 0
FK.COUNT fk:cuckoo fk-2 => 1
FK.COUNT fk:cuckoo never-added => 0
FK.RESERVE q1 quotient 0.01 1000 => OK
FK.MADD q1 apple apple pear apple => 1|1|1|1
FK.COUNT q1 apple => 3
FK.COUNT q1 pear => 1
FK.COUNT q1 plum => 0
FK.INFO q1 => ~kind|quotient|family|fk|capacity|1000|items|4|
FK.DEL q1 apple => 1
FK.COUNT q1 apple => 2
FK.DEL q1 plum => 0
FK.RESERVE qa quotient 0.01 1000 SEED 7 => OK
FK.RESERVE qb quotient 0.01 1000 SEED 7 => OK
FK.MADD qa apple apple pear => 1|1|1
FK.MADD qb apple plum => 1|1
FK.MERGE qa qb => OK
FK.COUNT qa apple => 3
FK.COUNT qa pear => 1
FK.COUNT qa plum => 1
FK.COUNT qb apple => 1
FK.COUNT qb pear => 0
FK.INFO qa => ~kind|quotient|family|fk|capacity|1000|items|5|
FK.MERGE qa nokey => OK
# a key merged with itself: as from a copy of itself (counts double)
FK.MERGE qa qa => OK
FK.COUNT qa apple => 6
FK.MERGE qnew qb => OK
FK.COUNT qnew plum => 1
FK.COUNT qnew pear => 0
FK.MERGE nokey2 nokey3 => OK
EXISTS nokey2 => 0
FK.RESERVE qc quotient 0.01 1000 => OK
FK.MERGE qa qc => ~ERR FK_EINVAL: the filters differ (quotient and quotient
FK.RESERVE qd quotient 0.01 2000 SEED 7 => OK
FK.MERGE qa qd => ~ERR FK_EINVAL
FK.RESERVE ba bloom 0.01 1000 SEED 7 => OK
FK.RESERVE bb bloom 0.01 1000 SEED 7 => OK
FK.MERGE qa ba => ~ERR FK_EINVAL: the filters differ (quotient and bloom
FK.MADD ba a1 a2 => 1|1
FK.MADD bb b1 b2 => 1|1
FK.MERGE ba bb => OK
FK.MEXISTS ba a1 a2 b1 b2 => 1|1|1|1
FK.MEXISTS bb a1 b1 => 0|1
FK.RESERVE ka blocked 0.01 1000 SEED 3 => OK
FK.RESERVE kb blocked 0.01 1000 SEED 3 => OK
FK.ADD kb only-b => 1
FK.MERGE ka kb => OK
FK.EXISTS ka only-b => 1
FK.RESERVE ka2 counting 0.01 100 SEED 7 => OK
FK.RESERVE kb2 counting 0.01 100 SEED 7 => OK
FK.MERGE ka2 kb2 => ERR FK_EUNSUPPORTED: a counting filter cannot merge
COMMAND GETKEYS FK.MERGE qa qb => qa|qb
FK.RESERVE ca cuckoo 0.01 1000 SEED 1 => OK
FK.RESERVE cb cuckoo 0.01 1000 SEED 1 => OK
FK.MERGE ca cb => ERR FK_EUNSUPPORTED: a cuckoo filter cannot merge
FK.MERGE str qa => WRONGTYPE Operation against a key holding the wrong kind of value
FK.MERGE qa str => WRONGTYPE Operation against a key holding the wrong kind of value
FK.MERGE qa qb qc => ERR wrong number of arguments for 'FK.MERGE' command
FK.RESERVE qg quotient 0.01 1000 SEED 9 => OK
FK.MADD qg apple apple pear => 1|1|1
FK.GROW qg => OK
FK.INFO qg => ~kind|quotient|family|fk|capacity|2000|items|3|
FK.COUNT qg apple => 2
FK.MEXISTS qg pear plum => 1|0
FK.ADD qg plum => 1
FK.COUNT qg plum => 1
FK.GROW ba => ERR FK_EUNSUPPORTED: a bloom filter cannot resize
FK.RESERVE sg scalable-bloom 0.01 100 => OK
FK.GROW sg => ERR FK_EUNSUPPORTED: a scalable-bloom filter cannot resize (it grows by itself as items arrive)
FK.RESERVE qtiny quotient 0.3 100 => OK
FK.GROW qtiny => ERR FK_EINVAL: the filter cannot double again (its remainders are at the minimum width)
FK.GROW nokey => ERR not found
FK.GROW str => WRONGTYPE Operation against a key holding the wrong kind of value
FK.GROW qg qa => ERR wrong number of arguments for 'FK.GROW' command
COMMAND GETKEYS FK.GROW qg => qg
FK.RESERVE x bloom 0.01 10 SEED -1 => ERR SEED must be an integer in 0..9223372036854775807
FK.RESERVE x bloom 0.01 10 SEED abc => ERR SEED must be an integer in 0..9223372036854775807
FK.RESERVE x bloom 0.01 10 SEED 1 SEED 2 => ERR SEED given twice
FK.RESERVE x bloom 0.01 10 SEED => ERR wrong number of arguments for 'FK.RESERVE' command
FK.RESERVE x scalable-bloom 0.01 10 SEED 3 GROWTH 2 => OK
FK.RESERVE x scalable-bloom 0.01 10 SEED 3 GROWTH 2 => ERR item exists
DEL x => 1
FK.EXISTS nokey a => 0
FK.MEXISTS nokey a b => 0|0
FK.COUNT nokey a => 0
FK.DUMP nokey =>
FK.ADD nokey a => ERR not found
FK.DEL nokey a => ERR not found
FK.INFO nokey => ERR not found
FK.RESERVE x nosuch 0.01 10 => ERR unknown kind (FK.KINDS lists them)
FK.RESERVE x bloom 0.01 10 GROWTH 2 => ~ERR GROWTH is not an option of kind bloom (it does not grow
FK.RESERVE x bloom 0.01 10 SIZE 2 => ERR unknown option 'SIZE': kind bloom takes the options SEED n
FK.RESERVE x bloom 1 10 => ERR fpr must be a number in (0, 1)
FK.RESERVE x bloom nan 10 => ERR fpr must be a number in (0, 1)
FK.RESERVE x bloom 0.01 0 => ERR capacity must be a positive integer
FK.RESERVE bf bloom 0.01 10 => ERR item exists
FK.INFO bf => ~kind|
FK.EXISTS bf a => 1
SPEC
# a merge never grows its dest: MAXBYTES holds as it did at FK.RESERVE
check "FK.MERGE keeps dest's size" test "$(rc $S FK.INFO qa | sed -n 10p)" = "$(rc $S FK.INFO qb | sed -n 10p)"

# a file made by `filterkit build` loads with redis-cli -x FK.LOAD ...
if [ -x "$fk" ]; then
    seq 1 5000 | sed 's/^/user-/' >"$tmp/users"
    "$fk" build --kind cuckoo --fpr 0.001 <"$tmp/users" >"$tmp/users.fk"
    expect "FK.LOAD filterkit build" "OK" $S -x FK.LOAD users <"$tmp/users.fk"
    n=$(tr '\n' ' ' <"$tmp/users" | sed 's/^/FK.MEXISTS users /' | rc $S | grep -c '^1$')
    check "FK.LOAD: every key found ($n)" test "$n" = 5000
    # ... and FK.DUMP is a filterkit file: byte-identical, and query finds every key
    rc $S FK.DUMP users | head -c -1 >"$tmp/users.dump"
    check "FK.DUMP = the loaded file" cmp -s "$tmp/users.fk" "$tmp/users.dump"
    # docs/redis.md's command; plain '>' keeps redis-cli's newline, and
    # info says so (issue 40: it said "corrupt")
    rc $S --raw FK.DUMP users | head -c -1 >"$tmp/users.raw"
    check "redis-cli --raw FK.DUMP k | head -c -1 (docs/redis.md) = the loaded file" cmp -s "$tmp/users.fk" "$tmp/users.raw"
    rc $S FK.DUMP users >"$tmp/users.nl"
    check "redis-cli FK.DUMP k > f: info names the trailing newline and the fix" \
        sh -c "! '$fk' info '$tmp/users.nl' 2>'$tmp/err' >/dev/null && grep -q '1 byte after the .*-byte record: a trailing newline' '$tmp/err' && grep -q 'redis-cli --raw FK.DUMP KEY | head -c -1' '$tmp/err'"
    rc $S FK.DUMP fk:bloom | head -c -1 >"$tmp/bloom.dump"
    check "filterkit query reads FK.DUMP" test "$("$fk" query -c "$tmp/bloom.dump" <"$tmp/keys300")" = 300
    # damaged files: refused as FK_ECORRUPT, the key untouched (one
    # RESP stream, so one redis-cli for all of them)
    size=$(stat -c %s "$tmp/users.fk")
    offsets="0 9 20 40 119 130 $((size / 2)) $((size - 9)) $((size - 1))"
    for off in $offsets; do
        cp "$tmp/users.fk" "$tmp/bad.fk"
        byte=$(od -An -tu1 -j "$off" -N1 "$tmp/users.fk" | tr -d ' ')
        printf "\\$(printf '%03o' $(((byte + 1) % 256)))" |
            dd of="$tmp/bad.fk" bs=1 seek="$off" conv=notrunc status=none
        resp_cmd FK.LOAD users @"$tmp/bad.fk"
    done >"$tmp/bad.resp"
    head -c $((size - 9)) "$tmp/users.fk" >"$tmp/bad.fk"
    resp_cmd FK.LOAD users @"$tmp/bad.fk" >>"$tmp/bad.resp"
    rc $S --pipe <"$tmp/bad.resp" >"$tmp/bad.out" 2>&1
    n=$(grep -c '^ERR FK_ECORRUPT' "$tmp/bad.out")
    check "every damaged load refused as FK_ECORRUPT ($n of 10)" test "$n" = 10
    rc $S FK.DUMP users | head -c -1 >"$tmp/users.after"
    check "damaged loads left the key untouched" cmp -s "$tmp/users.fk" "$tmp/users.after"
    expect "no key made by a damaged load" "0" $S EXISTS newkey
    # a static filter (fuse, ribbon): FK.LOAD of a `filterkit build` file
    # serves FK.EXISTS / FK.MEXISTS; every write answers that it is static
    for kind in fuse ribbon; do
        "$fk" build --kind $kind --fpr 0.004 <"$tmp/users" >"$tmp/$kind.fk"
        expect "FK.LOAD of a $kind file" "OK" $S -x FK.LOAD ${kind}key <"$tmp/$kind.fk"
        n=$(tr '\n' ' ' <"$tmp/users" | sed "s/^/FK.MEXISTS ${kind}key /" | rc $S | grep -c '^1$')
        check "$kind: FK.MEXISTS finds every key ($n)" test "$n" = 5000
        rc $S FK.DUMP ${kind}key | head -c -1 >"$tmp/$kind.dump"
        check "$kind: FK.DUMP = the loaded file" cmp -s "$tmp/$kind.fk" "$tmp/$kind.dump"
        # (not `sed | batch`: batch counts in this shell, not a pipe's)
        batch $S < <(sed "s/KIND/$kind/g" <<'SPEC'
FK.EXISTS KINDkey user-1 => 1
FK.INFO KINDkey => ~kind|KIND
FK.ADD KINDkey new => ~ERR FK_EUNSUPPORTED: a KIND filter is static
FK.MADD KINDkey new other => ~ERR FK_EUNSUPPORTED: a KIND filter is static
FK.DEL KINDkey user-1 => ~ERR FK_EUNSUPPORTED: a KIND filter is static
FK.RESERVE KINDnew KIND 0.01 100 => ~ERR FK_EUNSUPPORTED: a KIND filter is static
EXISTS KINDnew => 0
BF.ADD KINDkey x => ~WRONGTYPE
FK.EXISTS KINDkey user-1 => 1
SPEC
        )
    done
else
    bad "no CLI at $fk"
fi
section FK
# random bytes, random bytes behind a valid magic, and a real file with
# 1-3 random bytes changed (fixed seeds: the same inputs every run) never
# crash it and are refused with a named status
perl -e '
    srand(18);
    open(my $fh, "<:raw", $ARGV[0]) or die; local $/; my $file = <$fh>;
    my $magic = "\x89FKF\r\n\x1a\n\x01\x00\xa4\x5a";
    for my $i (1 .. 600) {
        my $p;
        if ($i % 3 == 0) { $p = join "", map { chr int rand 256 } 1 .. int rand 400 }
        elsif ($i % 3 == 1) { $p = $magic . join "", map { chr int rand 256 } 1 .. int rand 400 }
        else { $p = $file; for (0 .. int rand 3) { my $o = int rand length $p;
                 substr($p, $o, 1) = chr((ord(substr($p, $o, 1)) + 1 + int rand 255) % 256) } }
        print "*3\r\n\$7\r\nFK.LOAD\r\n\$3\r\nrnd\r\n\$", length($p), "\r\n", $p, "\r\n";
    }' "${tmp}/users.fk" >"$tmp/rand.resp"
rc $S --pipe <"$tmp/rand.resp" >"$tmp/rand.out" 2>&1
n=$(grep -c '^ERR FK_E' "$tmp/rand.out")
check "600 random and damaged payloads refused with FK_E* errors ($n)" test "$n" = 600
batch $S <<'SPEC'
EXISTS rnd => 0
PING => PONG
SPEC

section random-loads
# -------------------------------------------------------------- bad input
for cmd in BF.RESERVE BF.ADD BF.MADD BF.INSERT BF.EXISTS BF.MEXISTS BF.INFO BF.CARD \
           CF.RESERVE CF.ADD CF.ADDNX CF.INSERT CF.INSERTNX CF.EXISTS CF.MEXISTS CF.DEL \
           CF.COUNT CF.INFO FK.RESERVE FK.ADD FK.MADD FK.EXISTS FK.MEXISTS FK.DEL FK.COUNT \
           FK.INFO FK.DUMP FK.LOAD FK.MERGE FK.GROW; do
    echo "$cmd => ERR wrong number of arguments for '$cmd' command"
done | batch $S
for rate in 0 1 -0.5 1.5 nan inf -inf abc 0x10 '""' 1e-400; do
    echo "BF.RESERVE x $rate 100 => ~ERR "
    echo "BF.INSERT x ERROR $rate ITEMS a => ~ERR "
    echo "FK.RESERVE x bloom $rate 100 => ~ERR "
done | batch $S
batch $S <<'SPEC'
BF.ADD bf a b => ERR wrong number of arguments for 'BF.ADD' command
FK.KINDS x => ERR wrong number of arguments for 'FK.KINDS' command
BF.RESERVE x 0 100 => ~ERR (0 < error rate range < 1)
BF.RESERVE x 1 100 => ~ERR (0 < error rate range < 1)
BF.RESERVE x nan 100 => ERR bad error rate
BF.RESERVE x -0.01 100 => ~ERR (0 < error rate range < 1)
BF.RESERVE x 0.01 0 => ERR (capacity should be larger than 0)
BF.RESERVE x 0.01 -7 => ERR (capacity should be larger than 0)
BF.RESERVE x 0.01 1e5 => ERR bad capacity
BF.RESERVE x 0.01 99999999999999999999 => ERR bad capacity
BF.RESERVE x 0.01 9223372036854775807 => ~ERR capacity too large
BF.RESERVE x 0.01 10000000000 => ~ERR capacity too large
# 1e8 items at 1%: 120 MB, over this server's MAXBYTES of 64 MiB
BF.RESERVE x 0.01 100000000 => ~ERR capacity too large
BF.RESERVE x 0.000000001 50000000 => ~ERR capacity too large
CF.RESERVE x 10000000000 => ~ERR capacity too large
CF.INSERT x CAPACITY 10000000000 ITEMS a => ~ERR capacity too large
FK.RESERVE x counting 0.0001 10000000000 => ~ERR capacity too large
FK.RESERVE x cuckoo 0.0001 9223372036854775807 => ~ERR
BF.INSERT x CAPACITY 10000000000 ITEMS a => ~ERR capacity too large
CF.RESERVE x 1000 BUCKETSIZE 99999999999999999999 => ERR Couldn't parse BUCKETSIZE
CF.RESERVE x 1000 MAXITERATIONS abc => ERR Couldn't parse MAXITERATIONS
CF.RESERVE x 1000 EXPANSION 1.5 => ERR Couldn't parse EXPANSION
EXISTS x => 0
SPEC
used=$(rc $S INFO memory | sed -n 's/^used_memory_rss:\([0-9]*\).*/\1/p' | tr -d '\r')
check "huge requests allocated nothing (rss $used)" test "${used:-0}" -lt 300000000
section bad-input
# a 200k-item MADD in one command
rc $S BF.RESERVE big 0.01 300000 >/dev/null
seq 1 200000 | sed 's/^/big-/' | tr '\n' ' ' | sed 's/^/BF.MADD big /' >"$tmp/madd"
echo >>"$tmp/madd"
n=$(rc $S <"$tmp/madd" | grep -c '^1$')
card=$(rc $S BF.CARD big)
check "200k MADD: BF.CARD ($card) = new items ($n)" test "$n" = "$card" -a "$n" -gt 190000
expect "server alive" "PONG" $S PING

section big-madd
# ------------------------------------------------------- memory usage
batch $S <<'SPEC'
FK.RESERVE mem bloom 0.01 1000000 => OK
CF.RESERVE memcf 1000000 => OK
SPEC
for k in mem memcf bf; do
    usage=$(rc $S MEMORY USAGE "$k")
    bytes=$(rc $S FK.INFO "$k" | sed -n 10p)
    check "MEMORY USAGE $k ($usage) within 5% of $bytes + 512" \
        awk -v u="$usage" -v b="$bytes" 'BEGIN { exit !(u >= b && u <= 1.05 * b + 512) }'
done

# ----------------------------------------------------------- persistence
# Every filterkit key's bytes (FK.DUMP) and answers to members and
# non-members, as one fingerprint per line.
probe_all() { # NAME
    local k probe
    probe=$(tr '\n' ' ' <"$tmp/probe")
    for k in $(rc "$1" --scan | sort); do
        printf 'TYPE %s\nFK.DUMP %s\nFK.MEXISTS %s %s\n' "$k" "$k" "$k" "$probe"
    done | rc "$1" | cksum
}
{ seq 1 200 | sed 's/^/fk-/'; seq 1 200 | sed 's/^/user-/'; seq 1 200 | sed 's/^/never-/'; } >"$tmp/probe"

stop_server main
start_server p || exit 1
P=p
items=$(seq 1 1500 | sed 's/^/fk-/' | tr '\n' ' ')
{
    echo "BF.RESERVE pbf 0.001 5000"
    echo "BF.RESERVE pns 0.01 2000 NONSCALING"
    echo "CF.RESERVE pcf 4000"
    echo "BF.MADD pbf $items"
    echo "BF.MADD pns $items"
    echo "CF.INSERT pcf ITEMS $items"
    echo "CF.DEL pcf fk-7"
    for kind in $kinds; do
        echo "FK.RESERVE pfk:$kind $kind 0.01 3000"
        echo "FK.MADD pfk:$kind $items"
    done
    # a merged quotient key (its counts added) persists like any other
    echo "FK.RESERVE pmerged quotient 0.01 3000 SEED 9"
    echo "FK.RESERVE pmerged-src quotient 0.01 3000 SEED 9"
    echo "FK.MADD pmerged $items"
    echo "FK.MADD pmerged-src $items user-1"
    echo "FK.MERGE pmerged pmerged-src"
} | rc $P >/dev/null
expect "a merged quotient key counts both" "2" $P FK.COUNT pmerged fk-1
nkeys=$(rc $P DBSIZE)
check "persistence: $nkeys filters" test "$nkeys" -ge 6
probe_all $P >"$tmp/before"
section persist-setup
rc $P SAVE >/dev/null
stop_server $P NOSAVE
rm -f "$dir_p"/appendonlydir/*
start_server p --appendonly no --dbfilename dump.rdb
probe_all $P >"$tmp/after"
check "SAVE + restart: identical filters" cmp -s "$tmp/before" "$tmp/after"

section save-restart
rc $P CONFIG SET aof-use-rdb-preamble no >/dev/null
rc $P CONFIG SET appendonly yes >/dev/null  # starts a rewrite from the data
for _ in $(seq 1 100); do
    rc $P INFO persistence | grep -q '^aof_rewrite_in_progress:0' &&
        ! rc $P INFO persistence | grep -q '^aof_rewrite_scheduled:1' && break
    sleep 0.1
done
rc $P BGREWRITEAOF >/dev/null
for _ in $(seq 1 100); do
    rc $P INFO persistence | grep -q '^aof_rewrite_in_progress:0' &&
        rc $P INFO persistence | grep -q '^aof_last_bgrewrite_status:ok' && break
    sleep 0.1
done
sleep 0.3
check "AOF rewrite emitted FK.LOAD" grep -qa 'FK.LOAD' "$dir_p"/appendonlydir/*.base.aof
stop_server $P NOSAVE
rm -f "$dir_p/dump.rdb"
start_server p --appendonly yes --aof-use-rdb-preamble no
probe_all $P >"$tmp/after"
check "BGREWRITEAOF + restart: identical filters" cmp -s "$tmp/before" "$tmp/after"

section aof
expect "DEBUG RELOAD" "OK" $P DEBUG RELOAD
probe_all $P >"$tmp/after"
check "DEBUG RELOAD: identical filters" cmp -s "$tmp/before" "$tmp/after"
expect "DEBUG RELOAD: a merged key still counts both" "2" $P FK.COUNT pmerged fk-1

rc $P DUMP pcf | head -c -1 >"$tmp/pcf.dump"
expect "RESTORE" "OK" $P -x RESTORE pcf-restored 0 <"$tmp/pcf.dump"
check "DUMP/RESTORE: identical" test "$(rc $P FK.DUMP pcf | cksum)" = "$(rc $P FK.DUMP pcf-restored | cksum)"
expect "COPY" "1" $P COPY pbf pbf-copy
check "COPY: identical" test "$(rc $P FK.DUMP pbf | cksum)" = "$(rc $P FK.DUMP pbf-copy | cksum)"
expect "COPY keeps the family" "1" $P BF.EXISTS pbf-copy fk-1
check "DEBUG DIGEST-VALUE of a copy" test "$(rc $P DEBUG DIGEST-VALUE pbf)" = "$(rc $P DEBUG DIGEST-VALUE pbf-copy)"
expect_prefix "RESTORE of damaged bytes" "ERR " $P RESTORE bad 0 "garbage"

section reload-dump-copy
# ---------------------------------------------------------------- replica
if [ "$sanitized" = 1 ]; then
    # replication is Redis's work; under ASan the suite stops here (time)
    echo "cli_redis: $(($(date +%s) - start)) s (sanitizer build: replica section on the plain build only)"
    redis_lib_done
    exit
fi
start_server r || exit 1
R=r
rc $R REPLICAOF 127.0.0.1 "$port_p" >/dev/null
# up to 60 s: on a loaded machine the first full sync can take a while
for _ in $(seq 1 600); do
    rc $R INFO replication | grep -q '^master_link_status:up' &&
        rc $R INFO replication | grep -q '^master_sync_in_progress:0' && break
    sleep 0.1
done
# writes streamed after the initial sync: replicated verbatim, and the
# cuckoo filter's kicks (its PRNG lives in the filter) must replay alike
{
    echo "CF.RESERVE rcf 2000"
    echo "CF.INSERT rcf ITEMS $(seq 1 1900 | sed 's/^/r-/' | tr '\n' ' ')"
    echo "BF.MADD rbf $(seq 1 500 | sed 's/^/r-/' | tr '\n' ' ')"
    echo "FK.RESERVE rfk counting 0.01 1000"
    echo "FK.MADD rfk $(seq 1 700 | sed 's/^/r-/' | tr '\n' ' ')"
    echo "FK.DEL rfk r-5"
    echo "FK.RESERVE rq1 quotient 0.01 1000 SEED 9"
    echo "FK.RESERVE rq2 quotient 0.01 1000 SEED 9"
    echo "FK.MADD rq1 $(seq 1 300 | sed 's/^/r-/' | tr '\n' ' ')"
    echo "FK.MADD rq2 $(seq 200 500 | sed 's/^/r-/' | tr '\n' ' ')"
    echo "FK.MERGE rq1 rq2"
    echo "FK.MERGE rq3 rq2"
    echo "FK.GROW rq1"
} | rc $P >/dev/null
expect "FK.MERGE and FK.GROW on the primary: the union's counts" "2" $P FK.COUNT rq1 r-250
expect "WAIT" "1" $P WAIT 1 30000
# (on a loaded machine the replica has been seen to lag behind its own
# acknowledgement for a moment: give it up to 30 s to settle before the
# comparisons, which still fail if it never does)
for _ in $(seq 1 300); do
    [ "$(rc $R DBSIZE)" = "$(rc $P DBSIZE)" ] &&
        [ "$(rc $R DEBUG DIGEST)" = "$(rc $P DEBUG DIGEST)" ] && break
    sleep 0.1
done
probe_all $P >"$tmp/master"
probe_all $R >"$tmp/replica"
check "replica holds byte-identical filters" cmp -s "$tmp/master" "$tmp/replica"
check "replica has every key" test "$(rc $R DBSIZE)" = "$(rc $P DBSIZE)"
check "DEBUG DIGEST equal" test "$(rc $P DEBUG DIGEST)" = "$(rc $R DEBUG DIGEST)"
expect_prefix "replica is read-only" "READONLY" $R BF.ADD rbf x

section replica
echo "cli_redis: $(($(date +%s) - start)) s"
redis_lib_done
