#!/usr/bin/env bash
# tests/cli_sbbf.sh: Parquet's split-block Bloom filter through the CLI
# (issue 53): `build --kind blocked --hash parquet --type T` gives Arrow's
# reference bitsets byte for byte from text values (int32 1..100 in 64
# bytes, int64 1..50 in 128, float 1..200 in 256: NVIDIA cuCollections
# tests/bloom_filter/arrow_compat_test.cu), `export --sbbf` frames them
# with the Thrift compact BloomFilterHeader, `info` names the scheme, the
# sizes follow Parquet writers' rule, bad values and bad options are
# refused, `merge` refuses mixed schemes, `pick --parquet` prints its
# figures. Run by tests/run.sh with FK_BUILD=<build dir>.
. "$(dirname "$0")/lib_cli.sh"

# The reference words, little-endian 32-bit, as od -t u4 prints them.
arrow_int32="3017764846 4219371383 4160077310 3214786543 4020088765 4294437885 2013200345 2550116063 855631359 4290436829 2884632042 1592483646 4281695998 2080111551 3220060030 4021279731"
arrow_int64="860053560 186397876 1518788617 2013987426 545522943 79856155 103371656 20265733 2168586373 1210138712 2437452036 1342183988 1107366672 3560981000 2184221186 1661010032 2317009736 1442875878 1116227467 3458613792 114398528 679658134 206734656 340863450 2220104352 141846788 948331524 2344943952 4030989912 3239203139 2941256193 4035057968"
arrow_float_head="3807057303 3207519405 2508188120 1491024175 2073585514 2094743110 2533287591 691662424"

words() { # FILE SKIP: the 32-bit little-endian words after SKIP bytes, one line
    od -A n -v -t u4 -j "$2" "$1" | tr -s ' \n' ' ' | sed 's/^ //; s/ $//'
}

seq 1 100 | "$fk" build --kind blocked --hash parquet --type int32 --bytes 64 >"$tmp/i32.fk"
check "int32 1..100 build" test -s "$tmp/i32.fk"
"$fk" export --sbbf "$tmp/i32.fk" >"$tmp/i32.sbbf"
# header: numBytes 64 (zigzag 128: varint 80 01), then BLOCK, XXHASH, UNCOMPRESSED
head_hex=$(head -c 16 "$tmp/i32.sbbf" | od -A n -v -t x1 | tr -d ' \n')
check "the BloomFilterHeader of 64 bytes ($head_hex)" test "$head_hex" = "1580011c1c00001c1c00001c1c000000"
check "export: header and bitset, 16 + 64 bytes" test "$(wc -c <"$tmp/i32.sbbf")" -eq 80
check "int32 1..100: Arrow's reference bitset" test "$(words "$tmp/i32.sbbf" 16)" = "$arrow_int32"
# the saved record's payload is the same bitset
check "the record's payload is the bitset" test "$(words "$tmp/i32.fk" 120 | cut -d' ' -f1-16)" = "$arrow_int32"

seq 1 50 | "$fk" build --kind blocked --hash parquet --type int64 --bytes 128 | "$fk" export --sbbf - >"$tmp/i64.sbbf"
check "int64 1..50: Arrow's reference bitset" test "$(words "$tmp/i64.sbbf" 16)" = "$arrow_int64"
seq 1 200 | "$fk" build --kind blocked --hash parquet --type float --bytes 256 | "$fk" export --sbbf - >"$tmp/f.sbbf"
check "float 1..200: Arrow's reference bitset" test "$(words "$tmp/f.sbbf" 16 | cut -d' ' -f1-8)" = "$arrow_float_head"
# the same floats written otherwise are the same values
seq 1 200 | sed 's/$/.0/' | "$fk" build --kind blocked --hash parquet --type float --bytes 256 | "$fk" export --sbbf - >"$tmp/f2.sbbf"
check "float 1.0..200.0: the same bits" cmp -s "$tmp/f.sbbf" "$tmp/f2.sbbf"
# a 32-byte filter's header is 15 bytes (numBytes 32: one varint byte)
: | "$fk" build --kind blocked --hash parquet --type bytes --bytes 32 | "$fk" export --sbbf - >"$tmp/min.sbbf"
check "32 bytes: a 15-byte header" test "$(wc -c <"$tmp/min.sbbf")" -eq 47

# info names the scheme
info=$("$fk" info "$tmp/i32.fk")
check "info: hashing scheme 2, Parquet" grep -q "hashing scheme: *2 (Parquet" <<<"$info"
check "info: 2 blocks" grep -q "^blocks: *2$" <<<"$info"

# sizes: Parquet writers' rule (1000 values at 1%: 2 KiB; the line count by default)
seq 1 1000 | "$fk" build --kind blocked --hash parquet --type int64 --n 1000 --fpr 0.01 >"$tmp/n.fk"
check "--n 1000 --fpr 1%: 2048 bytes (64 blocks)" grep -q "^blocks: *64$" <("$fk" info "$tmp/n.fk")
seq 1 1000 | "$fk" build --kind blocked --hash parquet --type int64 --fpr 0.01 >"$tmp/lines.fk"
check "the line count stands for --n" cmp -s "$tmp/n.fk" "$tmp/lines.fk"
# every value answers present through query on a bytes filter
seq 1 500 | sed 's/^/v/' | "$fk" build --kind blocked --hash parquet --type bytes --fpr 0.01 >"$tmp/b.fk"
check "bytes: every value present" test "$(seq 1 500 | sed 's/^/v/' | "$fk" query -c "$tmp/b.fk")" = 500

# refusals
printf '1\nx\n' | "$fk" build --kind blocked --hash parquet --type int32 --bytes 32 >"$tmp/bad.fk" 2>"$tmp/err"
check "a bad value exits 1" test $? -eq 1
check "... naming its line" grep -q "line 2: 'x'" "$tmp/err"
printf '2147483648\n' | "$fk" build --kind blocked --hash parquet --type int32 --bytes 32 >/dev/null 2>&1
check "an int32 out of range exits 1" test $? -eq 1
: | "$fk" build --kind blocked --hash parquet --type int32 --bytes 48 >/dev/null 2>&1
check "--bytes 48 (not a power of two) exits 1" test $? -eq 1
: | "$fk" build --kind bloom --hash parquet --type int32 --bytes 32 >/dev/null 2>&1
check "--kind bloom --hash parquet exits 2" test $? -eq 2
: | "$fk" build --kind blocked --hash parquet --bytes 32 >/dev/null 2>&1
check "no --type exits 2" test $? -eq 2
: | "$fk" build --kind blocked --hash parquet --type int32 --bytes 32 --seed 3 >/dev/null 2>&1
check "--seed with --hash parquet exits 2" test $? -eq 2
: | "$fk" build --kind blocked --fpr 0.01 --type int32 >/dev/null 2>&1
check "--type without --hash parquet exits 2" test $? -eq 2
seq 1 10 | "$fk" build --kind blocked --fpr 0.01 >"$tmp/xxh3.fk"
"$fk" export --sbbf "$tmp/xxh3.fk" >/dev/null 2>"$tmp/err"
check "export of an XXH3 blocked filter exits 1" test $? -eq 1
check "... saying what it wants" grep -q "hash parquet" "$tmp/err"

# merge: same scheme and size unite; mixed schemes are refused by name
seq 1 1000 | "$fk" build --kind blocked --hash parquet --type int64 --bytes 2048 >"$tmp/m1.fk"
seq 1001 2000 | "$fk" build --kind blocked --hash parquet --type int64 --bytes 2048 >"$tmp/m2.fk"
seq 1 2000 | "$fk" build --kind blocked --hash parquet --type int64 --bytes 2048 >"$tmp/m12.fk"
"$fk" merge "$tmp/m1.fk" "$tmp/m2.fk" 2>/dev/null >"$tmp/m.fk"
check "merge of two Parquet filters is the filter of both" \
    test "$(words "$tmp/m.fk" 120 | cut -d' ' -f1-512)" = "$(words "$tmp/m12.fk" 120 | cut -d' ' -f1-512)"
seq 1 10 | "$fk" build --kind blocked --fpr 0.01 --seed 0 --capacity 100 >"$tmp/x.fk"
seq 1 10 | "$fk" build --kind blocked --hash parquet --type bytes --bytes 128 >"$tmp/p.fk"
"$fk" merge "$tmp/x.fk" "$tmp/p.fk" >/dev/null 2>"$tmp/err"
check "merge of an XXH3 and a Parquet blocked filter exits 1" test $? -eq 1
check "... naming the schemes" grep -q "hashing schemes differ" "$tmp/err"

# pick --parquet: the size, the formula and the measurement
out=$("$fk" pick --parquet --n 100k --fpr 1%)
check "pick --parquet: 128 KiB for 100k values at 1%" grep -q "131072 bytes" <<<"$out"
check "pick --parquet: the formula and the measurement" grep -q "by the blocked Bloom formula.*measured" <<<"$out"
check "pick --parquet: every kind at the same memory" grep -q "^  bloom " <<<"$out"
"$fk" pick --parquet --n 100 --fpr 0.01 --window 10 >/dev/null 2>&1
check "pick --parquet --window exits 2" test $? -eq 2

finish
