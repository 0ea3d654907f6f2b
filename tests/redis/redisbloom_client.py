"""tests/redis/redisbloom_client.py PORT_A PORT_B VERSION_NUMBER: a client written for
RedisBloom, run unchanged against filterkit-redis.so through Debian's
redis-py (python3-redis 4.3.4) and its bf()/cf() helpers: it creates and
fills a BF and a CF key on server A, reads CF.INFO/BF.INFO through the
helpers' own parsers (CFInfo reads "Max iterations"), backs both keys up
with SCANDUMP and restores them with LOADCHUNK into server B, as
RedisBloom's documentation shows, then checks that no key was lost, and
that a forged or reordered chunk is refused and loses nothing.
Prints one line per check and ends with `N passed, N failed`."""
import sys

import redis

passed = failed = 0


def check(what, ok):
    global passed, failed
    if ok:
        passed += 1
    else:
        failed += 1
        print("FAIL:", what)


def backup(bf_or_cf, key):
    """The loop of RedisBloom's SCANDUMP documentation."""
    chunks = []
    it = 0
    while True:
        it, data = bf_or_cf.scandump(key, it)
        if it == 0:
            return chunks
        chunks.append((it, data))


a = redis.Redis(host="127.0.0.1", port=int(sys.argv[1]))
b = redis.Redis(host="127.0.0.1", port=int(sys.argv[2]))

# --- BF through bf() ---------------------------------------------------------
bf = a.bf()
check("bf().create", bf.create("users", 0.001, 20000))
check("bf().add new", bf.add("users", "alice") == 1)
check("bf().add again", bf.add("users", "alice") == 0)
check("bf().madd", bf.madd("users", "bob", "carol", "alice") == [1, 1, 0])
check("bf().exists", bf.exists("users", "bob") == 1 and bf.exists("users", "mallory") == 0)
check("bf().mexists", bf.mexists("users", "alice", "carol", "zed") == [1, 1, 0])
check("bf().insert", bf.insert("more", ["x", "y"], capacity=1000, error=0.01) == [1, 1])
try:
    bf.insert("nokey", ["x"], noCreate=True)
    check("bf().insert noCreate on a missing key is an error", False)
except redis.ResponseError:
    check("bf().insert noCreate on a missing key is an error", True)
check("bf().create expansion", bf.create("grow4", 0.01, 100, expansion=4) and bf.info("grow4").expansionRate == 4)
check("bf().create noScale", bf.create("fixed", 0.01, 100, noScale=True) and bf.info("fixed").expansionRate is None)
check("bf().insert expansion, noScale", bf.insert("ins3", ["a"], capacity=50, error=0.001, expansion=3) == [1] and
      bf.info("ins3").expansionRate == 3 and bf.insert("ins0", ["a", "b"], capacity=1, noScale=True)[0] == 1)
bf_keys = ["user-%d" % i for i in range(15000)]
for i in range(0, len(bf_keys), 1000):
    bf.madd("users", *bf_keys[i:i + 1000])
info = bf.info("users")
check("bf().info parses (Capacity %s)" % info.capacity, info.capacity >= 20000)
check("bf().info: items inserted", info.insertedNum >= 15003)
check("bf().info: filters", info.filterNum >= 1)

# --- CF through cf() ---------------------------------------------------------
cf = a.cf()
check("cf().create", cf.create("seen", 20000))
check("cf().add", cf.add("seen", "k1") == 1)
check("cf().addnx existing", cf.addnx("seen", "k1") == 0)
check("cf().addnx new", cf.addnx("seen", "k2") == 1)
check("cf().insert", cf.insert("seen", ["k3", "k3"]) == [1, 1])
check("cf().insertnx", cf.insertnx("seen", ["k3", "k4"]) == [0, 1])
check("cf().count (k3 twice)", cf.count("seen", "k3") == 2)
check("cf().exists", cf.exists("seen", "k4") == 1 and cf.exists("seen", "nope") == 0)
check("cf().mexists", cf.mexists("seen", "k1", "nope") == [1, 0])
check("cf().delete", cf.delete("seen", "k3") == 1 and cf.count("seen", "k3") == 1)
cf_keys = ["item-%d" % i for i in range(12000)]
for i in range(0, len(cf_keys), 1000):
    cf.insert("seen", cf_keys[i:i + 1000])
ci = cf.info("seen")  # CFInfo reads "Max iterations": a KeyError before 0.3.0
check("cf().info parses: Max iterations %s (RedisBloom's default, 20)" % ci.maxIteration, ci.maxIteration == 20)
check("cf().info: bucket size %s" % ci.bucketSize, ci.bucketSize == 4)
check("cf().info: buckets %s" % ci.bucketNum, ci.bucketNum > 0)
check("cf().info: deleted %s" % ci.deletedNum, ci.deletedNum == 1)
check("cf().create bucket_size 4, max_iterations 30, expansion 1",
      cf.create("opts", 1000, expansion=1, bucket_size=4, max_iterations=30))
co = cf.info("opts")
check("cf().info of it: %s %s %s" % (co.bucketSize, co.maxIteration, co.expansionRate),
      (co.bucketSize, co.maxIteration, co.expansionRate) == (4, 30, 1))
check("cf().insert capacity, nocreate", cf.insert("cins", ["a"], capacity=100) == [1] and
      cf.insert("cins", ["b"], nocreate=True) == [1])
check("cf().create default key: info", cf.add("dflt", "x") == 1 and cf.info("dflt").bucketNum > 0)

# --- backup with SCANDUMP, restore with LOADCHUNK into server B ---------------
bf_chunks = backup(bf, "users")
cf_chunks = backup(cf, "seen")
check("BF dump in several chunks (%d)" % len(bf_chunks), len(bf_chunks) > 1)
check("CF dump in several chunks (%d)" % len(cf_chunks), len(cf_chunks) > 1)
for it, data in bf_chunks:
    b.bf().loadchunk("users", it, data)
for it, data in cf_chunks:
    b.cf().loadchunk("seen", it, data)
check("restored BF: every key", all(b.bf().mexists("users", *bf_keys[i:i + 1000]) == [1] * 1000
                                    for i in range(0, len(bf_keys), 1000)))
check("restored BF: alice, bob, carol", b.bf().mexists("users", "alice", "bob", "carol") == [1, 1, 1])
check("restored CF: every key", all(b.cf().mexists("seen", *cf_keys[i:i + 1000]) == [1] * 1000
                                    for i in range(0, len(cf_keys), 1000)))
check("restored CF: counts and deletes kept", b.cf().count("seen", "k3") == 1 and
      b.cf().info("seen").deletedNum == 1)
check("restored BF info = source info", b.bf().info("users").insertedNum == info.insertedNum)

# --- a forged or reordered chunk is refused and loses nothing ----------------
b.bf().add("target", "keep-me")
before = b.bf().info("target").insertedNum


def refused(fn):
    try:
        fn()
        return False
    except redis.ResponseError:
        return True


it0, d0 = bf_chunks[0]
forged = bytearray(d0)
forged[len(forged) // 2] ^= 1
check("a forged first chunk is refused", refused(lambda: b.bf().loadchunk("target", it0, bytes(forged))))
check("... and the key is untouched", b.bf().exists("target", "keep-me") == 1 and
      b.bf().info("target").insertedNum == before)
b.bf().loadchunk("target", it0, d0)
it2, d2 = bf_chunks[2] if len(bf_chunks) > 2 else bf_chunks[-1]
check("a chunk out of order is refused", refused(lambda: b.bf().loadchunk("target", it2, d2)))
check("... and the key is still the old one", b.bf().exists("target", "keep-me") == 1 and
      b.bf().exists("target", "alice") == 0)
for it, data in bf_chunks[1:]:  # the rest, in order: the restore completes
    b.bf().loadchunk("target", it, data)
check("the restore then completes", b.bf().exists("target", "alice") == 1 and
      b.bf().exists("target", "keep-me") == 0)
cit, cdata = cf_chunks[0]
check("a CF chunk to BF.LOADCHUNK is refused",
      refused(lambda: [b.bf().loadchunk("x", it, d) for it, d in cf_chunks]))
check("SCANDUMP of a CF key through bf() is WRONGTYPE", refused(lambda: bf.scandump("seen", 0)))
check("cf().scandump past the end: (0, empty)", list(cf.scandump("seen", 10**6)) in ([0, b""], [0, None]))
modules = [m if isinstance(m, dict) else dict(zip(m[::2], m[1::2]))
           for m in a.execute_command("MODULE", "LIST")]
check("MODULE LIST names filterkit with its release number (%s)" % modules,
      any(m[b"name"] == b"filterkit" and int(m[b"ver"]) == int(sys.argv[3]) for m in modules))
check("CF.COMPACT answers OK", a.execute_command("CF.COMPACT", "seen") in (b"OK", "OK", True))

print("%d passed, %d failed" % (passed, failed))
sys.exit(1 if failed else 0)
