# tests/parquet/duckdb_install.sh: sourced (not run) by tests/cli_parquet_duckdb.sh
# and bench/figures/parquet_duckdb.sh. duckdb_install finds or installs
# @duckdb/node-api with npm into a cache outside the source tree
# (FK_NODE_CACHE, default ${XDG_CACHE_HOME:-~/.cache}/filterkit), once, as
# tests/redis/cli_redis_node.sh installs node-redis, and sets duckdb_cache;
# returns 1 after printing `skipped: ...` (the reason) when node or npm is
# missing or npm cannot fetch it. duck ARGS runs tests/parquet/duckdb_parquet.js.
duckdb_version=1.5.6-r.1
duckdb_js="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/duckdb_parquet.js"

duckdb_install() {
    if ! command -v node >/dev/null 2>&1 || ! command -v npm >/dev/null 2>&1; then
        echo "skipped: DuckDB: node/npm not installed (make deps-node)"
        return 1
    fi
    duckdb_cache=${FK_NODE_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/filterkit}/duckdb-node-$duckdb_version
    [ -f "$duckdb_cache/node_modules/@duckdb/node-api/package.json" ] && return 0
    # into a fresh folder, moved into place whole: a cut or concurrent
    # install never leaves a half-filled cache behind
    if ! mkdir -p "$(dirname "$duckdb_cache")"; then
        echo "skipped: DuckDB: cannot write $(dirname "$duckdb_cache")"
        return 1
    fi
    local stage t0=$SECONDS log
    stage=$(mktemp -d "$duckdb_cache.XXXXXX")
    log=$(mktemp)
    if timeout 300 npm install --prefix "$stage" --no-save --no-package-lock --ignore-scripts \
            --no-audit --no-fund --loglevel=error "@duckdb/node-api@$duckdb_version" >"$log" 2>&1 &&
            [ -f "$stage/node_modules/@duckdb/node-api/package.json" ]; then
        mv -T "$stage" "$duckdb_cache" 2>/dev/null || rm -rf "$stage"
        echo "@duckdb/node-api $duckdb_version installed into $duckdb_cache ($((SECONDS - t0)) s)"
        rm -f "$log"
        return 0
    fi
    rm -rf "$stage"
    echo "npm: $(grep -m 1 -E 'ERR|error' "$log")"
    rm -f "$log"
    echo "skipped: DuckDB: npm unreachable (npm install @duckdb/node-api@$duckdb_version failed)"
    return 1
}

duck() { NODE_PATH="$duckdb_cache/node_modules" timeout "${duck_timeout:-120}" node "$duckdb_js" "$@"; }
