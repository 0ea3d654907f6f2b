#!/usr/bin/env bash
# tests/redis/cli_redis_window.sh: window keys in Redis (issue 42). A primary
# (AOF on) and a replica (propagation-error-behavior panic: an error
# reply to its primary would stop it), real Debian redis-server on
# loopback; prints `N passed, N failed`; skips without redis-server.
#  - FK.RESERVE key window fpr N (count) and ... SECONDS T (time); FK.ADD,
#    MADD, EXISTS, MEXISTS, INFO (generation, oldest age, slots and
#    inserts per generation, refused), FK.DEL and FK.ADVANCE refused where
#    they do not apply; RESP2 integers / flat arrays, RESP3 booleans / maps;
#  - a count window of N = 700 answers every key of the last N inserts
#    and forgets the keys older than N (1 + 1/7) (present at most at the
#    false-positive rate);
#  - a time window driven by FK.ADVANCE (explicit times far ahead of the
#    server's clock, so the test is deterministic): present for T, gone
#    after T (1 + 1/7), the clock never goes back, a burst past the sized
#    rate refused (FK_EFULL, counted) with no key inside the window lost;
#  - a time window on the server's own clock: the primary's writes
#    advance it at generation boundaries and replicate the time; reads
#    (the primary's and the replica's) change nothing: the primary's
#    answer as of its clock, the replica's as of the last replicated time
#    (tests/redis/cli_redis_reads.sh: reads during CLIENT PAUSE WRITE, FAILOVER);
#  - the replica's DEBUG DIGEST-VALUE equals the primary's after writes,
#    advances and refused inserts, and the replica logs no error;
#  - AOF replay, AOF rewrite and RDB (SAVE) restarts keep every key's
#    digest and answers; FK.DUMP / FK.LOAD round trip; forged FK.LOAD
#    records (bad checksum, a clock past its boundary) refused;
#  - the module replies errors in one place (fkr_reply_error);
#  - (issue 48) one clock: a time window file made by the CLI (Unix ns,
#    clock 1), advanced in Python with advance(), FK.LOADed, moved on by
#    the server's clock, FK.DUMPed and fed to the CLI again forgets on the
#    real time's schedule at every step; a clock-0 file is refused.
set -u
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
redis_lib_init || exit 77
root=$(cd "$here/../.." && pwd)

check "the module replies errors only through fkr_reply_error" \
    test "$(grep -l 'rm_ReplyWithError(' "$root"/redis/*.c | tr '\n' ' ')" = "$root/redis/util.c "

start_server p --appendonly yes || exit 1
start_server r --propagation-error-behavior panic || exit 1
rc r REPLICAOF 127.0.0.1 "$port_p" >/dev/null
for _ in $(seq 1 600); do
    rc r INFO replication | grep -q '^master_link_status:up' &&
        rc r INFO replication | grep -q '^master_sync_in_progress:0' && break
    sleep 0.1
done
check "the replica is in sync" sh -c "redis-cli -p $port_r INFO replication | grep -q '^master_link_status:up'"

items() { seq "$2" "$3" | sed "s/^/$1/" | tr '\n' ' '; }
# count LINES_FILE: how many replies are 1
ones() { grep -c '^1$' "$1"; }
# same DESC KEY...: the replica holds each KEY exactly as the primary does
same() {
    local desc=$1 k dp dr bad_keys=""; shift
    rc p WAIT 1 20000 >/dev/null
    for k in "$@"; do
        for _ in $(seq 1 100); do
            dp=$(rc p DEBUG DIGEST-VALUE "$k"); dr=$(rc r DEBUG DIGEST-VALUE "$k")
            [ "$dp" = "$dr" ] && break
            sleep 0.05
        done
        [ "$dp" = "$dr" ] && [ "$dp" != 0000000000000000000000000000000000000000 ] ||
            bad_keys="$bad_keys $k(primary ${dp:0:12}, replica ${dr:0:12})"
    done
    if [ -z "$bad_keys" ]; then ok; else bad "$desc: differ:$bad_keys"; fi
}
# info NAME KEY FIELD: one FK.INFO field (RESP2: name and value lines)
info() { rc "$1" FK.INFO "$2" | awk -v f="$3" 'p { print; exit } $0 == f { p = 1 }'; }

# --------------------------------------------------- replies, both protocols
batch p <<'SPEC'
FK.RESERVE cw window 0.01 700 => OK
FK.RESERVE cw window 0.01 700 => ERR item exists
FK.ADD cw a => 1
FK.MADD cw a b => 1|1
FK.EXISTS cw a => 1
FK.EXISTS cw never-added => 0
FK.MEXISTS cw a never-added => 1|0
FK.COUNT cw a => 1
FK.DEL cw a => ~ERR FK_EUNSUPPORTED: a window filter cannot remove keys
FK.ADVANCE cw 5 => ~ERR FK_EUNSUPPORTED: FK.ADVANCE needs a time window
FK.ADVANCE missing 5 => ERR not found
FK.MERGE cw cw => ~ERR FK_EUNSUPPORTED
FK.RESERVE x bloom 0.01 100 SECONDS 5 => ERR SECONDS is not an option of kind bloom (SECONDS t makes a time window: kind window); kind bloom takes the options SEED n
FK.RESERVE x window 0.01 100 SECONDS 0 => ~ERR SECONDS must be a positive integer
FK.RESERVE x window 0.01 100 SECONDS 5 SECONDS 5 => ERR SECONDS given twice
FK.RESERVE x window 0.01 100 GROWTH 2 => ~ERR GROWTH is not an option of kind window
FK.INFO cw => ~kind|window|family|fk|capacity|700|items|3|
SPEC
# the head's 10 pairs, then the window's rows (fk_filter_describe) in its
# order: a count window's unit is inserts (names as the rows'), no clock
# rows but a null clock (and no refused: only a time window refuses)
expect_prefix "FK.INFO of a count window: its own rows" \
    "mode|count|clock||window|700|generation_length|100|generation|0|oldest_age|3|live|2|live_budget|800|slots|948|generation_slots_0|2|generation_slots_1|0|generation_slots_2|0|generation_slots_3|0|generation_slots_4|0|generation_slots_5|0|generation_slots_6|0|generation_slots_7|0|generation_inserts_0|3|generation_inserts_1|0|generation_inserts_2|0|generation_inserts_3|0|generation_inserts_4|0|generation_inserts_5|0|generation_inserts_6|0|generation_inserts_7|0|swept_last|0|swept_total|0|refreshed|1|stashed|0|" \
    p EVAL "local r = redis.call('FK.INFO', KEYS[1]) local o = {} for i = 21, #r do o[#o + 1] = r[i] end return o" 1 cw
BATCH_CLI_OPTS="-3 --no-raw" batch p <<'SPEC'
FK.ADD cw c => (true)
FK.EXISTS cw c => (true)
FK.EXISTS cw never-added => (false)
FK.MEXISTS cw c never-added => 1) (true)|2) (false)
FK.MADD cw d => 1) (true)
FK.INFO cw => ~ 1# kind => window| 2# family => fk| 3# capacity => (integer) 700|
FK.RESERVE tw window 0.01 700 SECONDS 7 => OK
FK.INFO tw => ~ 1# kind => window|
SPEC
rc p -3 FK.INFO tw >"$tmp/tw3" 2>&1
# a time window's "ns" rows in ms, named *_ms; before a write clock_set is false
check "FK.INFO of a time window: mode time, 7000 ms, D = 1000 ms, no clock before a write ($(tr '\n' ' ' <"$tmp/tw3" | cut -c1-600))" \
    grep -q 'mode time clock unix_ns window_ms 7000 timed (true) clock_set (false) clock_id 1 now_ms 0 next_boundary_ms 0 generation_length_ms 1000 generation 0 oldest_age_ms 0 live ' \
    <(tr '\n' ' ' <"$tmp/tw3")

# ------------------------------------------- a count window forgets, in order
# N = 700: L = 100 inserts a generation. After 1450 distinct inserts the
# last 700 must answer present; those older than 800 (= N (1 + 1/7))
# are gone: present only at the false-positive rate.
rc p FK.RESERVE cn window 0.01 700 >/dev/null
rc p FK.MADD cn $(items k 1 1450) >"$tmp/cn.add"
check "1450 inserts into a count window all answer 1" test "$(ones "$tmp/cn.add")" = 1450
rc p FK.MEXISTS cn $(items k 751 1450) >"$tmp/cn.recent"
check "every key of the last N = 700 inserts answers present ($(ones "$tmp/cn.recent"))" \
    test "$(ones "$tmp/cn.recent")" = 700
rc p FK.MEXISTS cn $(items k 1 650) >"$tmp/cn.old"
check "keys older than N (1 + 1/7) are forgotten: $(ones "$tmp/cn.old") of 650 present (<= 20 at 1%)" \
    test "$(ones "$tmp/cn.old")" -le 20
rc p FK.MEXISTS cn $(items never 1 2000) >"$tmp/cn.never"
check "never-seen keys: $(ones "$tmp/cn.never") of 2000 present (<= 50 at 1%)" test "$(ones "$tmp/cn.never")" -le 50
check "FK.INFO: generation 14 after 1450 inserts of L = 100" test "$(info p cn generation)" = 14
check "FK.INFO: the oldest live generation began 750 inserts ago" test "$(info p cn oldest_age)" = 750

# ------------------------------------ a time window on explicit (far) times
# T = 7 s, D = 1 s; B is far ahead of the server's clock, which so never
# moves these keys: every time is the test's.
B=4000000000000
{
    echo "FK.ADVANCE tw $B"
    echo "FK.MADD tw $(items a 1 50)"
    echo "FK.ADVANCE tw $((B + 3500))"
    echo "FK.MADD tw $(items b 1 50)"
    echo "FK.ADVANCE tw $((B + 6999))"
} | rc p >/dev/null
rc p FK.MEXISTS tw $(items a 1 50) $(items b 1 50) >"$tmp/tw.in"
check "inside T every key answers present ($(ones "$tmp/tw.in") of 100)" test "$(ones "$tmp/tw.in")" = 100
rc p FK.ADVANCE tw $((B + 7999)) >/dev/null
rc p FK.MEXISTS tw $(items a 1 50) >"$tmp/tw.slack"
check "in the slack (T + 999 ms < T (1 + 1/7)) the first keys still answer ($(ones "$tmp/tw.slack"))" \
    test "$(ones "$tmp/tw.slack")" = 50
rc p FK.ADVANCE tw $((B + 8000)) >/dev/null
rc p FK.MEXISTS tw $(items a 1 50) >"$tmp/tw.gone"
rc p FK.MEXISTS tw $(items b 1 50) >"$tmp/tw.kept"
check "at T (1 + 1/7) the first keys are gone ($(ones "$tmp/tw.gone") of 50 present)" test "$(ones "$tmp/tw.gone")" -le 3
check "... and the later ones are kept ($(ones "$tmp/tw.kept") of 50)" test "$(ones "$tmp/tw.kept")" = 50
expect_prefix "the clock never goes back" "ERR FK_EINVAL: the clock never goes back" p FK.ADVANCE tw $((B + 5))
check "FK.INFO: generation 8, clock at B + 8000" \
    test "$(info p tw generation) $(info p tw now_ms)" = "8 $((B + 8000))"
check "FK.INFO: the oldest live generation began 7000 ms ago" test "$(info p tw oldest_age_ms)" = 7000
# a burst past the sized rate: 14 keys per window (8 ceil(14 / 7) = 16
# live slots) given 40 at once: the excess refused, none lost
rc p FK.RESERVE tf window 0.01 14 SECONDS 7 >/dev/null
rc p FK.ADVANCE tf $B >/dev/null
rc p FK.MADD tf $(items f 1 40) >"$tmp/tf.add" 2>&1
nok=$(ones "$tmp/tf.add"); nfull=$(grep -c 'FK_EFULL' "$tmp/tf.add")
check "a burst past the rate: $nok stored, $nfull refused with FK_EFULL" \
    test "$nok" -ge 14 -a "$nfull" -ge 1 -a $((nok + nfull)) = 40
paste -d ' ' <(items f 1 40 | tr ' ' '\n' | head -n 40) "$tmp/tf.add" | awk '$2 == 1 { print $1 }' >"$tmp/tf.stored"
rc p FK.MEXISTS tf $(cat "$tmp/tf.stored") >"$tmp/tf.in"
check "every stored key answers present" test "$(ones "$tmp/tf.in")" = "$nok"
check "FK.INFO counts the refused inserts" test "$(info p tf refused)" = "$nfull"
same "count and time windows after writes, advances and refused inserts" cw cn tw tf

# ---------------------------------------------- the server's own clock
# T = 1 s (D = 143 ms): the primary reads its clock, the replica never does
rc p FK.RESERVE tr window 0.01 100 SECONDS 1 >/dev/null
printf 'FK.ADD tr x\nFK.EXISTS tr x\n' | rc p >"$tmp/tr.now"
check "a key just added answers present" test "$(tr '\n' ' ' <"$tmp/tr.now")" = "1 1 "
clock1=$(info p tr now_ms)
sleep 0.4
rc p FK.MADD tr $(items y 1 20) >/dev/null
check "a write 400 ms later moved the generation on ($(info p tr generation))" test "$(info p tr generation)" -ge 2
same "after writes on the server's clock (the time replicated)" tr
sleep 1.3
dr=$(rc r DEBUG DIGEST-VALUE tr)
check "the replica, read after T (1 + 1/7), still answers as of the last replicated time" \
    test "$(rc r FK.EXISTS tr x)" = 1
check "... and its reads changed nothing" test "$(rc r DEBUG DIGEST-VALUE tr)" = "$dr"
dp=$(rc p DEBUG DIGEST-VALUE tr)
check "the primary's read after T (1 + 1/7) answers as of its clock: the key is gone" \
    test "$(rc p FK.EXISTS tr x)" = 0
check "... and changed nothing (issue 48: a read never writes)" test "$(rc p DEBUG DIGEST-VALUE tr)" = "$dp"
check "FK.INFO now_ms moved on ($clock1 -> $(info p tr now_ms)), generation_slots as of it" \
    test "$(info p tr now_ms)" -gt "$clock1" -a "$(info p tr items)" = 0
same "after reads on the primary (nothing replicated, nothing changed)" tr
check "the replica still answers as of the last replicated time" test "$(rc r FK.EXISTS tr x)" = 1
rc p FK.ADD tr z >/dev/null
same "after a write that advanced the primary's clock" tr
check "after the write the replica answers as the primary" test "$(rc r FK.EXISTS tr x)" = 0
check "the replica logged no error from its primary" \
    test "$(grep -c -E 'CRITICAL|sending an error' "$dir_r/log")" = 0
check "the replica is still up (propagation-error-behavior panic)" test "$(rc r PING)" = PONG

# ------------------------------------------------------ FK.DUMP / FK.LOAD
rc p FK.DUMP tw | head -c -1 >"$tmp/tw.rec"
check "FK.LOAD of FK.DUMP" test "$(rc p -x FK.LOAD tw2 <"$tmp/tw.rec")" = OK
check "the loaded key's digest is the dumped one's" test "$(rc p DEBUG DIGEST-VALUE tw2)" = "$(rc p DEBUG DIGEST-VALUE tw)"
check "... its clock too: it answers alike after the same advance" \
    test "$(rc p FK.ADVANCE tw2 $((B + 12000)))" = OK
rc p FK.ADVANCE tw $((B + 12000)) >/dev/null
check "... (digests equal after it)" test "$(rc p DEBUG DIGEST-VALUE tw2)" = "$(rc p DEBUG DIGEST-VALUE tw)"
expect_prefix "... and refuses a time before its clock" "ERR FK_EINVAL" p FK.ADVANCE tw2 $((B + 1))
python3 -I "$here/forge.py" checksum "$tmp/tw.rec" "$tmp/tw.same"
check "control: the record with its checksum recomputed loads" test "$(rc p -x FK.LOAD tw3 <"$tmp/tw.same")" = OK
python3 -I "$here/forge.py" window-clock "$tmp/tw.rec" "$tmp/tw.forged"
expect_prefix "a forged record (clock on its boundary, checksum right) is refused" "ERR FK_ECORRUPT" \
    p -x FK.LOAD tw4 <"$tmp/tw.forged"
head -c 300 "$tmp/tw.rec" >"$tmp/tw.cut"; printf 'X' >>"$tmp/tw.cut"; tail -c +302 "$tmp/tw.rec" >>"$tmp/tw.cut"
expect_prefix "a record with a changed byte is refused" "ERR FK_ECORRUPT" p -x FK.LOAD tw4 <"$tmp/tw.cut"
check "nothing was stored for the refused records" test "$(rc p EXISTS tw4)" = 0
same "FK.LOAD keys" tw2 tw3

# ------------------------- one clock: CLI -> Python -> Redis -> CLI (issue 48)
# A time window's file records its clock: Unix ns (clock 1) from the CLI,
# Python's default and the module alike, so the file moves between them
# and each advances it on its own reading of the real time. T = 1 s: D =
# 1/7 s, a key is gone T (1 + 1/7) = 1.143 s after its last insert.
fk="$build/filterkit"
py=${PYTHON:-/usr/bin/python3}
printf 'old\n' | "$fk" dedup --kind window --capacity 100 --window-seconds 1 "$tmp/c1.fk" >/dev/null
check "the CLI's time window is on clock 1 (Unix ns)" grep -q '^clock: *1 (unix_ns' <("$fk" info "$tmp/c1.fk")
cp "$tmp/c1.fk" "$tmp/c2.fk"
py_key=0 # 1 once Python added "py"
if PYTHONPATH="$build/python/lib" "$py" -c 'import filterkit' 2>/dev/null; then
    # Python loads it and advances it as documented: advance(), no argument
    PYTHONPATH="$build/python/lib" "$py" - "$tmp/c1.fk" "$tmp/c2.fk" >"$tmp/py.out" 2>&1 <<'PY'
import sys, filterkit
w = filterkit.load(sys.argv[1])
w.advance()                    # time.time_ns(): the CLI's clock
assert w.clock == "unix_ns" and "old" in w, (w.clock, "old" in w)
w.add("py")
w.save(sys.argv[2])
print("ok", w.now)
PY
    check "Python advances the CLI's file with advance() ($(head -c 300 "$tmp/py.out"))" grep -q '^ok ' "$tmp/py.out"
    grep -q '^ok ' "$tmp/py.out" && py_key=1
else
    echo "note: no Python package in $build/python/lib (make python): the file goes CLI -> Redis" >&2
fi
check "FK.LOAD of it" test "$(rc p -x FK.LOAD ck <"$tmp/c2.fk")" = OK
check "FK.INFO: T = 1000 ms, D = 143 ms (ceil of 1000/7)" \
    test "$(info p ck window_ms) $(info p ck generation_length_ms)" = "1000 143"
check "the key answers the file's keys" test "$(rc p FK.MEXISTS ck old py | tr '\n' ' ')" = "1 $py_key "
sleep 1.3
# 1.3 s after "old": the server's clock (ms, as ns) moves the key on
check "a write after T (1 + 1/7) stores the new key" test "$(rc p FK.ADD ck new)" = 1
check "the key older than the window is gone on the server's clock" test "$(rc p FK.EXISTS ck old)" = 0
check "... and the new one answers" test "$(rc p FK.EXISTS ck new)" = 1
same "a time window loaded from the CLI and Python" ck
rc p FK.DUMP ck | head -c -1 >"$tmp/ck.fk"
check "FK.DUMP: clock 1 in the file (its times Unix ns)" grep -q '^clock: *1 (unix_ns' <("$fk" info "$tmp/ck.fk")
check "the CLI goes on with the dump: old is new again, new was seen" \
    test "$(printf 'new\nold\n' | "$fk" dedup "$tmp/ck.fk" | tr '\n' ' ')" = "old "
sleep 1.3
check "... and forgets on schedule: 1.3 s later new is new again" \
    test "$(printf 'new\n' | "$fk" dedup "$tmp/ck.fk" | tr '\n' ' ')" = "new "
# times the key's ns cannot hold are refused
expect_prefix "SECONDS whose ns pass 2^63 are refused" "ERR SECONDS must be a positive integer" \
    p FK.RESERVE xs window 0.01 10 SECONDS 9223372037
check "... the largest is taken" test "$(rc p FK.RESERVE xs window 0.01 10 SECONDS 9223372036)" = OK
expect_prefix "FK.ADVANCE past the clock's end (2^62 ns) is refused, naming the range" \
    "ERR the time must be an integer in 0..4611686018427 (ms" p FK.ADVANCE xs 4611686018428
expect_prefix "... and past 2^64 ns too" "ERR the time must be an integer in 0..4611686018427 (ms" \
    p FK.ADVANCE xs 18446744073710
rc p DEL xs >/dev/null
# a time window on another clock (0: its maker's own ticks) cannot be a
# key: the module could not advance it on its clock
python3 -I "$here/forge.py" window-clock-id "$tmp/c1.fk" "$tmp/c0.fk" 0
expect_prefix "FK.LOAD refuses a clock-0 time window, saying why" \
    "ERR FK_EUNSUPPORTED: a time window on its maker's own clock (clock 0" p -x FK.LOAD c0 <"$tmp/c0.fk"
check "... and stores nothing" test "$(rc p EXISTS c0)" = 0

# --------------------------------------------- AOF replay, rewrite, RDB
keys="cw cn tw tf tr tw2 tw3"
digests() { local k; for k in $keys; do echo "$k $(rc p DEBUG DIGEST-VALUE "$k")"; done; }
probe() { # far-clock keys only: a read of tr on a primary may advance it
    local k
    for k in cw cn tw tf tw2; do
        echo "$k $(rc p FK.MEXISTS "$k" $(items k 1 1450) $(items a 1 50) $(items b 1 50) $(items f 1 40) | tr -d '\n')"
        # swept_last (what the last sweep emptied) is not in the key's
        # record: a reload starts it at 0
        rc p FK.INFO "$k" | awk 'skip { skip = 0; next } $0 == "swept_last" { skip = 1; next } 1' |
            tr '\n' ' '; echo
    done
}
digests >"$tmp/d0"; probe >"$tmp/p0"
restart() { # OPTIONS...: stop the primary (keeping its files), start it again
    stop_server p "$1"; shift
    start_server p --dir "$dir_p" "$@" || exit 1
}
restart NOSAVE --appendonly yes
digests >"$tmp/d1"
check "AOF replay: every key's digest as before (the times the AOF holds, not the clock)" cmp -s "$tmp/d0" "$tmp/d1"
probe >"$tmp/p1"
check "AOF replay: every answer as before" cmp -s "$tmp/p0" "$tmp/p1"
rc p BGREWRITEAOF >/dev/null
for _ in $(seq 1 200); do
    rc p INFO persistence | grep -q '^aof_rewrite_in_progress:0' &&
        ! rc p INFO persistence | grep -q '^aof_rewrite_scheduled:1' && break
    sleep 0.1
done
restart NOSAVE --appendonly yes
digests >"$tmp/d2"
check "AOF rewrite + restart: every key's digest as before" cmp -s "$tmp/d0" "$tmp/d2"
rc p SAVE >/dev/null
restart NOSAVE --appendonly no --dbfilename dump.rdb
digests >"$tmp/d3"
check "SAVE + restart (RDB): every key's digest as before" cmp -s "$tmp/d0" "$tmp/d3"
probe >"$tmp/p3"
check "SAVE + restart (RDB): every answer as before" cmp -s "$tmp/p0" "$tmp/p3"

# ------------------------------ counters and clocks at their end (issue 48)
# A count window record at generation 2^64 - 1 (checksum recomputed) used
# to load; the next generation wrapped to 0, after which the key's own save
# was refused: DEBUG RELOAD lost keys and after SAVE the server did not
# start. The same for a time window whose next boundary is 2^64 - 1. FK.LOAD
# and RESTORE refuse both; FK.ADVANCE past 2^62 ns is refused; the last
# legal generation number (2^63 - 1) loads and every key survives DEBUG
# RELOAD and SAVE + restart after 60 inserts through its fold.
rc p FK.RESERVE gw window 0.01 70 >/dev/null
rc p FK.MADD gw $(items g 1 75) >/dev/null
check "gw: 75 inserts, generation 7" test "$(info p gw generation)" = 7
rc p FK.DUMP gw | head -c -1 >"$tmp/gw.rec"
rc p CONFIG SET rdbcompression no >/dev/null
rc p DUMP gw | head -c -1 >"$tmp/gw.dump"
python3 -I "$here/forge.py" window-generation-wrap "$tmp/gw.rec" "$tmp/gw.wrap"
python3 -I "$here/forge.py" window-generation-edge "$tmp/gw.rec" "$tmp/gw.edge"
python3 -I "$here/forge.py" window-clock-end "$tmp/tw.rec" "$tmp/tw.end"
python3 -I "$here/forge.py" restore "$tmp/gw.dump" "$tmp/gw.wrap" "$tmp/gw.wrap.dump"
python3 -I "$here/forge.py" restore "$tmp/gw.dump" - "$tmp/gw.control.dump"
expect "RESTORE of the control payload (checksums recomputed)" "OK" p -x RESTORE gw.control 0 <"$tmp/gw.control.dump"
expect_prefix "generation 2^64 - 1: FK.LOAD refuses it" "ERR FK_ECORRUPT" p -x FK.LOAD gw.wrap <"$tmp/gw.wrap"
expect_prefix "generation 2^64 - 1: RESTORE refuses it" "ERR Bad data format" \
    p -x RESTORE gw.wrap2 0 <"$tmp/gw.wrap.dump"
expect_prefix "next boundary 2^64 - 1: FK.LOAD refuses it" "ERR FK_ECORRUPT" p -x FK.LOAD tw.end <"$tmp/tw.end"
check "nothing was stored for the refused records" \
    test "$(rc p EXISTS gw.wrap gw.wrap2 tw.end)" = 0
expect_prefix "FK.ADVANCE past 2^62 ns (4611686018427 ms) is refused" "ERR the time must be an integer in 0..4611686018427 (ms" p FK.ADVANCE tw 4611686018428
check "... and the last ms is taken" test "$(rc p FK.ADVANCE tw 4611686018427)" = OK
expect "generation 2^63 - 1: FK.LOAD takes it" "OK" p -x FK.LOAD gw.edge <"$tmp/gw.edge"
for i in 1 2 3 4 5 6; do rc p FK.MADD gw.edge $(items "e$i-" 1 10) >/dev/null; done
check "gw.edge: 60 inserts later, generation 2^62 + 5" \
    test "$(info p gw.edge generation)" = 4611686018427387909
check "gw.edge: FK.DUMP of it loads again" \
    sh -c "redis-cli -p $port_p FK.DUMP gw.edge | head -c -1 | redis-cli -p $port_p -x FK.LOAD gw.edge2 | grep -qx OK"
# (as the issue did: 60 inserts into the forged key, had it loaded, left
# its save refused for the next generations)
rc p FK.MADD gw.wrap $(items w 1 60) >/dev/null 2>&1
keys48=$(rc p KEYS '*' | sort | tr '\n' ' ')
digests48() { local k; for k in $keys48; do echo "$k $(rc p DEBUG DIGEST-VALUE "$k")"; done; }
digests48 >"$tmp/e0"
rc p DEBUG RELOAD >/dev/null
check "DEBUG RELOAD keeps every key ($(echo $keys48 | wc -w))" \
    test "$(rc p KEYS '*' | sort | tr '\n' ' ')" = "$keys48"
digests48 >"$tmp/e1"
check "DEBUG RELOAD: every key's digest as before" cmp -s "$tmp/e0" "$tmp/e1"
rc p SAVE >/dev/null
restart NOSAVE --appendonly no --dbfilename dump.rdb
check "SAVE + restart keeps every key" test "$(rc p KEYS '*' | sort | tr '\n' ' ')" = "$keys48"
digests48 >"$tmp/e2"
check "SAVE + restart: every key's digest as before" cmp -s "$tmp/e0" "$tmp/e2"

redis_lib_done
