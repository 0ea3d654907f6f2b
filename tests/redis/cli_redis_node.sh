#!/usr/bin/env bash
# tests/redis/cli_redis_node.sh: filterkit-redis.so driven by node-redis 5 (the
# `redis` package on npm, whose @redis/bloom helpers parse every BF/CF
# reply) in RESP2 and RESP3: tests/redis/node_redis_client.js. node-redis
# is installed by npm into a cache outside the source tree, once
# (FK_NODE_CACHE, default ${XDG_CACHE_HOME:-~/.cache}/filterkit); skipped,
# saying why, without node/npm (make deps-node) or when npm cannot fetch.
# FK_BUILD=<build dir>.
source "$(dirname "$0")/lib.sh"
redis_lib_init || exit 77
if [ "$sanitized" = 1 ]; then
    # the client's view of the replies is the plain build's; the sanitizer
    # build's module is run by the other tests/redis/cli_redis*.sh
    echo "skipped: node-redis: runs on the plain build only"
    exit 0
fi
node_redis_version=5.12.1
if ! command -v node >/dev/null 2>&1 || ! command -v npm >/dev/null 2>&1; then
    echo "skipped: node-redis: node/npm not installed (make deps-node)"
    exit 77
fi
if ! node -e 'process.exit(Number(process.versions.node.split(".")[0]) >= 18 ? 0 : 1)'; then
    echo "skipped: node-redis: node $(node --version) is older than node-redis 5 needs (18)"
    exit 77
fi
cache=${FK_NODE_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/filterkit}/node-redis-$node_redis_version
if [ ! -f "$cache/node_modules/redis/package.json" ]; then
    # into a fresh folder, moved into place whole: a cut or concurrent
    # install never leaves a half-filled cache behind
    mkdir -p "$(dirname "$cache")" || { echo "skipped: node-redis: cannot write $(dirname "$cache")"; exit 77; }
    stage=$(mktemp -d "$cache.XXXXXX")
    t0=$SECONDS
    if timeout 180 npm install --prefix "$stage" --no-save --no-package-lock --ignore-scripts \
            --no-audit --no-fund --loglevel=error "redis@$node_redis_version" >"$tmp/npm.log" 2>&1 &&
            [ -f "$stage/node_modules/redis/package.json" ]; then
        mv -T "$stage" "$cache" 2>/dev/null || rm -rf "$stage"
        echo "node-redis $node_redis_version installed into $cache ($((SECONDS - t0)) s)"
    else
        rm -rf "$stage"
        echo "npm: $(grep -m 1 -E 'ERR|error' "$tmp/npm.log")"
        echo "skipped: node-redis: npm unreachable, skipped (npm install redis@$node_redis_version failed)"
        exit 77
    fi
fi
start_server n CHUNKBYTES 4096 || exit 1
out=$(NODE_PATH="$cache/node_modules" timeout 120 node "$(dirname "$0")/node_redis_client.js" "$port_n" 2>&1)
printf '%s\n' "$out" | grep -v -E '^[0-9]+ passed, [0-9]+ failed$'
line=$(printf '%s\n' "$out" | tail -n 1)
p=${line%% passed*}; f=${line#*, }; f=${f%% failed*}
case "$p$f" in *[!0-9]*|"") bad "node_redis_client.js: $(printf '%s\n' "$out" | tail -n 5)"; p=0; f=0;; esac
pass=$((pass + p)); fail=$((fail + f))
redis_lib_done
