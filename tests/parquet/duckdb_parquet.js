// tests/parquet/duckdb_parquet.js: DuckDB's side of tests/cli_parquet_duckdb.sh
// and bench/figures/parquet_duckdb.sh, through @duckdb/node-api (NODE_PATH
// names the cache the script installed it into).
//
//   node duckdb_parquet.js write DIR ROWS ROW_GROUP_ROWS DISTINCT
//       DIR/data.parquet: columns i32 INTEGER, i64 BIGINT, dbl DOUBLE and
//       s VARCHAR, ROWS rows in row groups of ROW_GROUP_ROWS, each chunk
//       drawing from its own DISTINCT values by a fixed hash (so each value
//       lives in one row group; few enough that DuckDB encodes the chunks
//       with a dictionary and writes a Bloom filter per chunk: at most
//       about a tenth of the rows); DIR/<column>.present holds
//       every value in the column, DIR/<column>.absent as many values of
//       its type that are in none of its row groups, one a line.
//   node duckdb_parquet.js probe FILE COLUMN TYPE < values
//       one line per value: VALUE<TAB>the comma-separated row groups whose
//       filter does not exclude it (parquet_bloom_probe), as
//       `filterkit parquet probe` prints them; the last line on stderr:
//       `probed N values in S s`.
//   node duckdb_parquet.js small FILE
//       a small file (2 row groups of 2048 rows; in row group g, i32 and i64
//       hold g * 1000 + 0..99, dbl those / 4, s 'v' and those; DuckDB's
//       default FPP 0.01): tests/parquet/duckdb_small.parquet, which
//       python/tests/test_parquet.py reads and the fuzzer's seeds
//       tests/fuzz/corpus/parquet_footer/*_duckdb_small hold (after the
//       mode byte: 1 then the file, 0 then its footer).
//   node duckdb_parquet.js values FILE COLUMN RG
//       the distinct values of COLUMN in row group RG, one a line.
'use strict';
const { DuckDBInstance } = require('@duckdb/node-api');
const fs = require('fs');

const columns = {
    // present values x, absent ones beside them (never equal to a present one)
    i32: { type: 'INTEGER', present: 'k::INTEGER * 3 - 4500', absent: 'k::INTEGER * 3 - 4499' },
    i64: { type: 'BIGINT', present: 'k::BIGINT * 3000000007', absent: 'k::BIGINT * 3000000007 + 1' },
    dbl: { type: 'DOUBLE', present: 'k::DOUBLE / 7.0', absent: '(2 * k + 1)::DOUBLE / 14.0' },
    s: { type: 'VARCHAR', present: "'key-' || k::VARCHAR", absent: "'nokey-' || k::VARCHAR" },
};

async function main() {
    const [cmd, ...args] = process.argv.slice(2);
    const db = await DuckDBInstance.create(':memory:', { threads: '1' });
    const con = await db.connect();
    if (cmd === 'write') {
        const [dir, rows, rgRows, distinct] = args;
        const sel = Object.entries(columns).map(([name, c]) =>
            // each column its own hash, so the columns do not move together
            `(SELECT ${c.present} FROM (SELECT i // ${rgRows} * ${distinct} + hash(i, '${name}') % ${distinct} AS k)) AS ${name}`).join(', ');
        await con.run(`COPY (SELECT ${sel} FROM range(${rows}) t(i)) TO '${dir}/data.parquet' ` +
                      `(FORMAT parquet, ROW_GROUP_SIZE ${rgRows})`);
        for (const [name, c] of Object.entries(columns)) {
            const p = await con.runAndReadAll(`SELECT DISTINCT ${name}::VARCHAR FROM '${dir}/data.parquet' ORDER BY 1`);
            fs.writeFileSync(`${dir}/${name}.present`, p.getRows().map(r => r[0] + '\n').join(''));
            const a = await con.runAndReadAll(`SELECT (${c.absent})::VARCHAR FROM range(${Math.ceil(rows / rgRows) * distinct}) t(k) ORDER BY 1`);
            fs.writeFileSync(`${dir}/${name}.absent`, a.getRows().map(r => r[0] + '\n').join(''));
        }
    } else if (cmd === 'probe') {
        const [file, column, type] = args;
        const values = fs.readFileSync(0, 'utf8').split('\n');
        if (values[values.length - 1] === '')
            values.pop();
        const st = await con.prepare(`SELECT row_group_id FROM parquet_bloom_probe('${file}', '${column}', ` +
                                     `CAST($1 AS ${type})) WHERE NOT bloom_filter_excludes ORDER BY row_group_id`);
        const out = [];
        const t0 = process.hrtime.bigint();
        for (const v of values) {
            st.bindVarchar(1, v);
            const r = await st.runAndReadAll();
            out.push(v + '\t' + r.getRows().map(x => String(x[0])).join(','));
        }
        const s = Number(process.hrtime.bigint() - t0) / 1e9;
        process.stdout.write(out.map(l => l + '\n').join(''));
        process.stderr.write(`probed ${values.length} values in ${s.toFixed(3)} s\n`);
    } else if (cmd === 'small') {
        const [file] = args;
        const k = 'i // 2048 * 1000 + i % 100';
        await con.run(`COPY (SELECT (${k})::INTEGER AS i32, (${k})::BIGINT AS i64, (${k}) / 4.0 AS dbl, ` +
                      `'v' || (${k})::VARCHAR AS s FROM range(4096) t(i)) TO '${file}' ` +
                      `(FORMAT parquet, ROW_GROUP_SIZE 2048)`);
    } else if (cmd === 'values') {
        const [file, column, rg] = args;
        // the row group's rows: file_row_number between its first and last
        const m = await con.runAndReadAll(`SELECT row_group_id, row_group_num_rows FROM parquet_metadata('${file}') ` +
                                          `WHERE path_in_schema = '${column}' ORDER BY row_group_id`);
        let first = 0;
        for (const [id, n] of m.getRows()) {
            if (Number(id) === Number(rg)) {
                const v = await con.runAndReadAll(`SELECT DISTINCT ${column}::VARCHAR FROM read_parquet('${file}', file_row_number = true) ` +
                                                  `WHERE file_row_number >= ${first} AND file_row_number < ${first + Number(n)} AND ${column} IS NOT NULL`);
                process.stdout.write(v.getRows().map(r => r[0] + '\n').join(''));
                return;
            }
            first += Number(n);
        }
        throw new Error(`no row group ${rg}`);
    } else {
        throw new Error('usage: duckdb_parquet.js write|probe|values ...');
    }
}
main().catch(e => { console.error(String(e)); process.exit(2); });
