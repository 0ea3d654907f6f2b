// tests/redis/node_redis_client.js PORT: a client written for RedisBloom,
// node-redis 5 (`redis` on npm, with @redis/bloom's bf/cf helpers), run
// unchanged against filterkit-redis.so in RESP2 and in RESP3. Each helper
// it has (bf: reserve, add, mAdd, insert, exists, mExists, card, info,
// scanDump, loadChunk; cf: reserve, add, addNX, insert, insertNX, exists,
// count, del, info, scanDump, loadChunk) is called with every option it
// takes, and its reply compared with what RedisBloom answers per its
// documentation (and its RESP3 tests): in RESP2 the helpers turn 1/0 into
// booleans and INFO's flat array into an object; in RESP3 they pass the
// server's reply through, so RedisBloom's booleans and maps must arrive as
// such (CF.COUNT and CF.INSERTNX stay integers). SCANDUMP's chunks travel
// as Buffers (a type mapping for blob strings) into LOADCHUNK.
// Prints a FAIL line per failed check, a summary line per protocol and
// ends with `N passed, N failed`. NODE_PATH must hold the redis package.
'use strict';
const { createClient, RESP_TYPES } = require('redis');
const util = require('util');

const port = Number(process.argv[2]);
const total = { passed: 0, failed: 0 };
let proto = 0;
const per = {};

function check(what, ok, detail) {
    per[proto][ok ? 'passed' : 'failed']++;
    total[ok ? 'passed' : 'failed']++;
    if (!ok)
        console.log(`FAIL: [RESP${proto}] ${what}${detail ? ': ' + detail : ''}`);
}
const show = (v) => util.inspect(v, { depth: 4, breakLength: Infinity });
// same type and value, arrays and plain objects member by member (and an
// object's keys in the same order: clients read INFO by name, some by
// position)
function same(got, want) {
    if (want === null || typeof want !== 'object')
        return got === want;
    if (Array.isArray(want))
        return Array.isArray(got) && got.length === want.length && want.every((w, i) => same(got[i], w));
    if (got === null || typeof got !== 'object' || Array.isArray(got))
        return false;
    const gk = Object.keys(got), wk = Object.keys(want);
    return gk.length === wk.length && wk.every((k, i) => gk[i] === k && same(got[k], want[k]));
}
function eq(what, got, want) {
    check(what, same(got, want), `got ${show(got)}, want ${show(want)}`);
}
async function reply(what, fn, want) {
    try {
        eq(what, await fn(), want);
    } catch (e) {
        check(what, false, `threw ${e.message}`);
    }
}
async function refused(what, fn, pattern) {
    try {
        const got = await fn();
        check(what, false, `answered ${show(got)}, want an error`);
    } catch (e) {
        check(what, pattern.test(e.message), `error '${e.message}', want ${pattern}`);
    }
}
const range = (prefix, n) => Array.from({ length: n }, (_, i) => prefix + i);
// RESP2's helpers turn integers into booleans; RESP3 sends booleans
const yes = true, no = false;

async function backup(helper, key) {
    const chunks = [];
    let iterator = 0;
    for (;;) {
        const r = await helper.scanDump(key, iterator);
        iterator = r.iterator;
        if (iterator === 0)
            return chunks;
        chunks.push(r);
    }
}

async function suite(RESP) {
    proto = RESP;
    per[RESP] = { passed: 0, failed: 0 };
    const client = createClient({ socket: { host: '127.0.0.1', port }, RESP });
    client.on('error', () => {});
    await client.connect();
    const bin = client.withTypeMapping({ [RESP_TYPES.BLOB_STRING]: Buffer });
    const k = (name) => `r${RESP}:${name}`;
    const raw = (...args) => client.sendCommand(args);

    // ------------------------------------------------------------ BF
    await reply('bf.reserve', () => client.bf.reserve(k('b'), 0.01, 1000), 'OK');
    await reply('bf.reserve EXPANSION', () => client.bf.reserve(k('be'), 0.001, 500, { EXPANSION: 4 }), 'OK');
    await reply('bf.reserve NONSCALING', () => client.bf.reserve(k('bn'), 0.01, 100, { NONSCALING: true }), 'OK');
    await refused('bf.reserve on an existing key', () => client.bf.reserve(k('b'), 0.01, 1000), /item exists/);
    await reply('bf.add new', () => client.bf.add(k('b'), 'alice'), yes);
    await reply('bf.add again', () => client.bf.add(k('b'), 'alice'), no);
    await reply('bf.add creates a key', () => client.bf.add(k('bauto'), 'x'), yes);
    await reply('bf.mAdd', () => client.bf.mAdd(k('b'), ['bob', 'carol', 'alice']), [yes, yes, no]);
    await reply('bf.exists yes', () => client.bf.exists(k('b'), 'bob'), yes);
    await reply('bf.exists no', () => client.bf.exists(k('b'), 'mallory'), no);
    await reply('bf.exists on a missing key', () => client.bf.exists(k('nokey'), 'x'), no);
    await reply('bf.mExists', () => client.bf.mExists(k('b'), ['alice', 'carol', 'zed']), [yes, yes, no]);
    await reply('bf.insert (CAPACITY, ERROR, EXPANSION)',
        () => client.bf.insert(k('bi'), ['x', 'y', 'x'], { CAPACITY: 300, ERROR: 0.001, EXPANSION: 3 }), [yes, yes, no]);
    await reply('bf.insert NONSCALING', () => client.bf.insert(k('bin'), ['x'], { CAPACITY: 50, NONSCALING: true }), [yes]);
    await reply('bf.insert NOCREATE into an existing key', () => client.bf.insert(k('b'), ['dave'], { NOCREATE: true }), [yes]);
    await refused('bf.insert NOCREATE into a missing key', () => client.bf.insert(k('nokey'), ['x'], { NOCREATE: true }), /not found/);
    await reply('bf.card', () => client.bf.card(k('b')), 4);
    await reply('bf.card of a missing key', () => client.bf.card(k('nokey')), 0);
    // (Size is the server's own byte count: any integer)
    const bi = await client.bf.info(k('b'));
    eq('bf.info: RedisBloom\'s five fields, in order, integers',
        bi && typeof bi.Size === 'number' ? { ...bi, Size: 0 } : bi,
        { 'Capacity': 1000, 'Size': 0, 'Number of filters': 1, 'Number of items inserted': 4, 'Expansion rate': 2 });
    const bni = await client.bf.info(k('bn'));
    eq('bf.info NONSCALING: Expansion rate null', bni && bni['Expansion rate'], null);
    eq('bf.info EXPANSION 4', (await client.bf.info(k('be')))['Expansion rate'], 4);
    eq('bf.info of bf.insert CAPACITY 300', (await client.bf.info(k('bi')))['Capacity'], 300);
    await reply('BF.INFO key CAPACITY', () => raw('BF.INFO', k('b'), 'CAPACITY'), RESP === 3 ? { 'Capacity': 1000 } : [1000]);
    await refused('bf.info of a missing key', () => client.bf.info(k('nokey')), /not found/);
    await client.cf.add(k('cwrong'), 'x');
    await refused('bf.add to a CF key', () => client.bf.add(k('cwrong'), 'x'), /WRONGTYPE/);

    // a scalable key in several chunks, through a binary-safe reply
    await client.bf.mAdd(k('b'), range('item-', 6000));
    const bfChunks = await backup(bin.bf, k('b'));
    check(`bf.scanDump: several chunks (${bfChunks.length})`, bfChunks.length > 1);
    check('bf.scanDump: every chunk a Buffer', bfChunks.every((c) => Buffer.isBuffer(c.chunk)),
        show(bfChunks.map((c) => typeof c.chunk)));
    check('bf.scanDump: binary bytes (>= 0x80) arrive intact', bfChunks.some((c) => c.chunk.some((x) => x >= 0x80)));
    let loaded = true;
    for (const c of bfChunks)
        loaded = (await client.bf.loadChunk(k('b2'), c.iterator, c.chunk)) === 'OK' && loaded;
    check('bf.loadChunk: every chunk OK', loaded);
    eq('restored BF: every item', (await client.bf.mExists(k('b2'), range('item-', 6000))).every((x) => x === true), true);
    eq('restored BF: bf.info as the source\'s', await client.bf.info(k('b2')), await client.bf.info(k('b')));
    const end = await bin.bf.scanDump(k('b'), 1e9);
    check('bf.scanDump past the end: iterator 0 and an empty chunk',
        end.iterator === 0 && (end.chunk === null || end.chunk.length === 0), show(end));

    // ------------------------------------------------------------ CF
    await reply('cf.reserve', () => client.cf.reserve(k('c'), 1000), 'OK');
    await reply('cf.reserve BUCKETSIZE 4, MAXITERATIONS 20, EXPANSION 1',
        () => client.cf.reserve(k('co'), 1000, { BUCKETSIZE: 4, MAXITERATIONS: 20, EXPANSION: 1 }), 'OK');
    await reply('cf.reserve EXPANSION 0', () => client.cf.reserve(k('c0'), 64, { EXPANSION: 0 }), 'OK');
    // RedisBloom takes BUCKETSIZE 1..255; a module that serves one size
    // must refuse the others, not accept them silently
    try {
        const r = await client.cf.reserve(k('cb2'), 1000, { BUCKETSIZE: 2 });
        const info = await client.cf.info(k('cb2'));
        check('cf.reserve BUCKETSIZE 2: accepted, so cf.info says 2', r === 'OK' && info['Bucket size'] === 2, show(info));
    } catch (e) {
        check('cf.reserve BUCKETSIZE 2: refused naming the size served', /4/.test(e.message), e.message);
    }
    await refused('cf.reserve MAXITERATIONS 0 (out of 1..65535)', () => client.cf.reserve(k('cm0'), 1000, { MAXITERATIONS: 0 }), /./);
    await reply('cf.add', () => client.cf.add(k('c'), 'k1'), yes);
    await reply('cf.add again (a second copy)', () => client.cf.add(k('c'), 'k1'), yes);
    await reply('cf.add creates a key', () => client.cf.add(k('cauto'), 'x'), yes);
    await reply('cf.addNX existing', () => client.cf.addNX(k('c'), 'k1'), no);
    await reply('cf.addNX new', () => client.cf.addNX(k('c'), 'k2'), yes);
    await reply('cf.insert', () => client.cf.insert(k('c'), ['k3', 'k3']), [yes, yes]);
    await reply('cf.insert CAPACITY (creates)', () => client.cf.insert(k('ci'), ['a', 'b'], { CAPACITY: 500 }), [yes, yes]);
    await reply('cf.insert NOCREATE', () => client.cf.insert(k('c'), ['k5'], { NOCREATE: true }), [yes]);
    await refused('cf.insert NOCREATE into a missing key', () => client.cf.insert(k('nokey'), ['x'], { NOCREATE: true }), /not found/i);
    // CF.INSERTNX stays integers in RESP3 (RedisBloom); RESP2's helper makes booleans
    await reply('cf.insertNX', () => client.cf.insertNX(k('c'), ['k3', 'k4']), RESP === 3 ? [0, 1] : [no, yes]);
    await reply('cf.insertNX CAPACITY NOCREATE', () => client.cf.insertNX(k('ci'), ['a', 'z'], { CAPACITY: 500, NOCREATE: true }),
        RESP === 3 ? [0, 1] : [no, yes]);
    await reply('cf.count (k3 twice)', () => client.cf.count(k('c'), 'k3'), 2);
    await reply('cf.count of a missing item', () => client.cf.count(k('c'), 'nope'), 0);
    await reply('cf.exists yes', () => client.cf.exists(k('c'), 'k4'), yes);
    await reply('cf.exists no', () => client.cf.exists(k('c'), 'nope'), no);
    await reply('CF.MEXISTS (no helper: sendCommand)', () => raw('CF.MEXISTS', k('c'), 'k1', 'nope'),
        RESP === 3 ? [true, false] : [1, 0]);
    await reply('cf.del', () => client.cf.del(k('c'), 'k3'), yes);
    await reply('cf.del: one copy left', () => client.cf.count(k('c'), 'k3'), 1);
    await reply('cf.del of an absent item', () => client.cf.del(k('c'), 'nope'), no);
    await refused('cf.del on a missing key', () => client.cf.del(k('nokey'), 'x'), /not found/i);
    const ci = await client.cf.info(k('c'));
    eq('cf.info: RedisBloom\'s eight fields, in order',
        ci && Object.keys(ci), ['Size', 'Number of buckets', 'Number of filters', 'Number of items inserted',
            'Number of items deleted', 'Bucket size', 'Expansion rate', 'Max iterations']);
    eq('cf.info: items inserted 6, deleted 1', ci && [ci['Number of items inserted'], ci['Number of items deleted']], [6, 1]);
    check('cf.info: every value an integer', ci && Object.values(ci).every((v) => Number.isInteger(v)), show(ci));
    const coi = await client.cf.info(k('co'));
    eq('cf.info after MAXITERATIONS 20: Max iterations 20', coi['Max iterations'], 20);
    eq('cf.info after EXPANSION 1: Expansion rate 1', coi['Expansion rate'], 1);
    eq('cf.info after BUCKETSIZE 4: Bucket size 4', coi['Bucket size'], 4);
    eq('cf.info EXPANSION 0: Expansion rate 0', (await client.cf.info(k('c0')))['Expansion rate'], 0);
    await reply('CF.COMPACT', () => raw('CF.COMPACT', k('c')), 'OK');

    await client.cf.insert(k('c'), range('item-', 5000));
    const cfChunks = await backup(bin.cf, k('c'));
    check(`cf.scanDump: several chunks (${cfChunks.length})`, cfChunks.length > 1);
    check('cf.scanDump: every chunk a Buffer', cfChunks.every((c) => Buffer.isBuffer(c.chunk)));
    loaded = true;
    for (const c of cfChunks)
        loaded = (await client.cf.loadChunk(k('c2'), c.iterator, c.chunk)) === 'OK' && loaded;
    check('cf.loadChunk: every chunk OK', loaded);
    const back = await Promise.all(range('item-', 5000).map((x) => client.cf.exists(k('c2'), x)));
    eq('restored CF: every item', back.every((x) => x === true), true);
    eq('restored CF: counts and deletes kept', [await client.cf.count(k('c2'), 'k3'),
        (await client.cf.info(k('c2')))['Number of items deleted']], [1, 1]);
    // the same chunks decoded as text are damaged: refused, nothing lost
    const asText = await client.cf.scanDump(k('c'), 0);
    if (typeof asText.chunk === 'string' && Buffer.from(asText.chunk).length !== cfChunks[0].chunk.length)
        await refused('cf.loadChunk of a chunk decoded as text', () => client.cf.loadChunk(k('c3'), asText.iterator, asText.chunk), /ERR/);
    else
        check('cf.scanDump without a type mapping: a string', typeof asText.chunk === 'string', show(typeof asText.chunk));

    await client.quit();
}

(async () => {
    const version = require('redis/package.json').version;
    console.log(`node-redis ${version}, node ${process.version}`);
    for (const RESP of [2, 3]) {
        try {
            await suite(RESP);
        } catch (e) {
            check('the suite ran to its end', false, e.stack);
        }
        console.log(`RESP${RESP}: ${per[RESP].passed} passed, ${per[RESP].failed} failed`);
    }
    console.log(`${total.passed} passed, ${total.failed} failed`);
    process.exit(total.failed ? 1 : 0);
})();
