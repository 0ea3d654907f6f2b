#!/usr/bin/env python3
"""tests/redis/forge.py: hostile inputs for the Redis tests (issue 38).

  forge.py quotient EMPTY OUT
      EMPTY is an empty quotient filter's record (FK.DUMP of
      `FK.RESERVE k quotient 0.015 64`: 128 slots, 6-bit remainders). OUT
      is the same record with one run that no insert can make: quotient
      12's run in slots 12..15 (so table byte 9, its runends, is 0x80)
      holds the groups 7 (a counter) then 2, which do not rise, with the
      header's items (6) and the XXH64 checksum made to match. Only the
      kind's canonical-table check can refuse it.
  forge.py restore DUMP RECORD OUT
      DUMP is a Redis DUMP payload of a filterkit key; OUT the payload with
      the filterkit record inside replaced by RECORD (same length; "-"
      keeps it: a control) and the payload's CRC-64 recomputed, so that
      RESTORE sees well-framed bytes.
  forge.py window-clock RECORD OUT
      RECORD is a time window's record (FK.DUMP of a `window ... SECONDS`
      key whose clock is set); OUT has its clock moved onto its next
      boundary (a state no advance leaves: the generation would have
      started), the checksum made to match. Only the kind's state check
      can refuse it.
  forge.py window-generation-wrap RECORD OUT
  forge.py window-generation-edge RECORD OUT
      RECORD is a count window's record at a generation of 7 mod 8; OUT has
      its generation number (kind parameter 3) set to 2^64 - 1 (issue 48:
      the next generation wrapped to 0, after which the key's own save was
      refused) or to 2^63 - 1 (the last number below the limit, legal),
      the same tags, the checksum made to match.
  forge.py window-clock-end RECORD OUT
      RECORD is a time window's record with its clock set; OUT has its
      clock at 2^64 - 6 and its next boundary at 2^64 - 1 (issue 48: a
      window that never forgot), the checksum made to match.
  forge.py checksum RECORD OUT
      RECORD with its checksum recomputed and nothing else changed: the
      control for the forged records above.
  forge.py window-clock-id RECORD OUT ID
      RECORD is a time window's record (a file of `filterkit dedup
      --window-seconds`, or FK.DUMP of a `window ... SECONDS` key); OUT the
      same with its clock id (header param[7]) set to ID (0: the caller's
      own ticks, as a C program's window or Python's clock="caller"), the
      checksum made to match: a well-formed file on another clock.

Pure Python (no xxhash module on the test machines): XXH64 and Redis's
CRC-64 (Jones polynomial, reflected) written out from their specifications.
"""
import sys

M64 = (1 << 64) - 1
P1, P2, P3, P4, P5 = (0x9E3779B185EBCA87, 0xC2B2AE3D27D4EB4F, 0x165667B19E3779F9,
                      0x85EBCA77C2B2AE63, 0x27D4EB2F165667C5)
MAGIC = b"\x89FKF\r\n\x1a\n"
HEADER, TRAILER = 120, 8


def rotl(x, r):
    return ((x << r) | (x >> (64 - r))) & M64


def xxh64(data, seed=0):
    def rnd(acc, lane):
        acc = (acc + lane * P2) & M64
        return (rotl(acc, 31) * P1) & M64

    def merge(acc, v):
        acc ^= rnd(0, v)
        return (acc * P1 + P4) & M64

    n, i = len(data), 0
    if n >= 32:
        v = [(seed + P1 + P2) & M64, (seed + P2) & M64, seed, (seed - P1) & M64]
        while i + 32 <= n:
            for k in range(4):
                v[k] = rnd(v[k], int.from_bytes(data[i + 8 * k:i + 8 * k + 8], "little"))
            i += 32
        h = (rotl(v[0], 1) + rotl(v[1], 7) + rotl(v[2], 12) + rotl(v[3], 18)) & M64
        for k in range(4):
            h = merge(h, v[k])
    else:
        h = (seed + P5) & M64
    h = (h + n) & M64
    while i + 8 <= n:
        h ^= rnd(0, int.from_bytes(data[i:i + 8], "little"))
        h = (rotl(h, 27) * P1 + P4) & M64
        i += 8
    if i + 4 <= n:
        h ^= (int.from_bytes(data[i:i + 4], "little") * P1) & M64
        h = (rotl(h, 23) * P2 + P3) & M64
        i += 4
    while i < n:
        h ^= (data[i] * P5) & M64
        h = (rotl(h, 11) * P1) & M64
        i += 1
    h ^= h >> 33
    h = (h * P2) & M64
    h ^= h >> 29
    h = (h * P3) & M64
    h ^= h >> 32
    return h


CRC_TABLE = []
for b in range(256):
    c = b
    for _ in range(8):
        c = (c >> 1) ^ 0x95AC9329AC4BC9B5 if c & 1 else c >> 1
    CRC_TABLE.append(c)


def crc64(data):
    c = 0
    for b in data:
        c = CRC_TABLE[(c ^ b) & 0xFF] ^ (c >> 8)
    return c


def craft_quotient(rec):
    """rec: an empty 128-slot, r = 6 quotient record; changed in place."""
    if rec[:8] != MAGIC or int.from_bytes(rec[48:56], "little") != 128 or \
            int.from_bytes(rec[64:72], "little") != 6:
        raise SystemExit("forge.py: not an empty 128-slot quotient record with r = 6")
    r, t = 6, HEADER
    rec[t + 1] |= 0x10  # occupieds: quotient 12
    rec[t + 9] = 0x80   # runends: slot 15
    rem = int.from_bytes(rec[t + 17:t + 17 + 8 * r], "little")
    for slot, x in ((12, 7), (13, 3), (14, 7), (15, 2)):
        rem |= x << (slot * r)
    rec[t + 17:t + 17 + 8 * r] = rem.to_bytes(8 * r, "little")
    rec[40:48] = (6).to_bytes(8, "little")
    body = len(rec) - TRAILER
    rec[body:] = xxh64(bytes(rec[:body])).to_bytes(8, "little")


WINDOW_NOW, WINDOW_BOUNDARY, WINDOW_CLOCK_SET = 9, 10, 11  # payload words
WINDOW_SPAN, WINDOW_CLOCK_ID = 48 + 8 * 4, 48 + 8 * 7  # header param[4] (T), param[7] (window_serial.c)


def rechecksum(rec):
    body = len(rec) - TRAILER
    rec[body:] = xxh64(bytes(rec[:body])).to_bytes(8, "little")


def craft_window_clock(rec):
    """rec: a time window's record with its clock set; changed in place."""
    def word(i):
        return int.from_bytes(rec[HEADER + 8 * i:HEADER + 8 * i + 8], "little")
    if rec[:8] != MAGIC or word(WINDOW_CLOCK_SET) != 1:
        raise SystemExit("forge.py: not a time window record with its clock set")
    at = HEADER + 8 * WINDOW_NOW
    rec[at:at + 8] = word(WINDOW_BOUNDARY).to_bytes(8, "little")
    rechecksum(rec)


WINDOW_GENERATION = 48 + 8 * 3  # kind parameter 3


def craft_window_generation(rec, generation):
    """rec: a count window's record at generation 7 mod 8; changed in place."""
    at = WINDOW_GENERATION
    if rec[:8] != MAGIC or int.from_bytes(rec[at:at + 8], "little") % 8 != 7:
        raise SystemExit("forge.py: not a window record at a generation of 7 mod 8")
    rec[at:at + 8] = generation.to_bytes(8, "little")
    rechecksum(rec)


def craft_window_clock_end(rec):
    """rec: a time window's record with its clock set; changed in place."""
    at = HEADER + 8 * WINDOW_CLOCK_SET
    if rec[:8] != MAGIC or int.from_bytes(rec[at:at + 8], "little") != 1:
        raise SystemExit("forge.py: not a time window record with its clock set")
    for word, value in ((WINDOW_NOW, M64 - 5), (WINDOW_BOUNDARY, M64)):
        rec[HEADER + 8 * word:HEADER + 8 * word + 8] = value.to_bytes(8, "little")
    rechecksum(rec)


def main():
    assert xxh64(b"") == 0xEF46DB3751D8E999 and crc64(b"123456789") == 0xE9C6D914C4B8D9CA
    if len(sys.argv) < 4:
        raise SystemExit(__doc__)
    what, src = sys.argv[1:3]
    data = bytearray(open(src, "rb").read())
    if what == "quotient":
        craft_quotient(data)
    elif what == "window-clock":
        craft_window_clock(data)
    elif what == "window-generation-wrap":
        craft_window_generation(data, M64)
    elif what == "window-generation-edge":
        craft_window_generation(data, (1 << 63) - 1)
    elif what == "window-clock-end":
        craft_window_clock_end(data)
    elif what == "checksum":
        rechecksum(data)
    elif what == "window-clock-id" and len(sys.argv) == 5:
        if data[:8] != MAGIC or int.from_bytes(data[WINDOW_SPAN:WINDOW_SPAN + 8], "little") == 0:
            raise SystemExit("forge.py: not a time window record")
        data[WINDOW_CLOCK_ID:WINDOW_CLOCK_ID + 8] = int(sys.argv[4]).to_bytes(8, "little")
        rechecksum(data)
    elif what == "restore" and len(sys.argv) == 5:
        # the value is the payload's last string: its record runs from the
        # filterkit magic to just before the module's EOF opcode (1 byte),
        # the RDB version (2) and the CRC (8)
        at = data.find(MAGIC)
        end = len(data) - 8 - 2 - 1
        if at < 0 or data[end] != 0:
            raise SystemExit("forge.py: not a DUMP of a filterkit key")
        if sys.argv[3] != "-":
            rec = open(sys.argv[3], "rb").read()
            if len(rec) != end - at:
                raise SystemExit("forge.py: the record's length differs from the dumped one's")
            data[at:end] = rec
        data[-8:] = crc64(bytes(data[:-8])).to_bytes(8, "little")
    else:
        raise SystemExit(__doc__)
    open(sys.argv[3] if what == "window-clock-id" else sys.argv[-1], "wb").write(bytes(data))


if __name__ == "__main__":
    main()
