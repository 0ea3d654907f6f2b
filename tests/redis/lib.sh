# tests/redis/lib.sh: sourced by tests/redis/cli_redis*.sh. Starts real Debian
# redis-server processes with build/filterkit-redis.so on 127.0.0.1, on
# ports found free at run time, every file under one temp dir; stops them
# all on exit. Provides the pass/fail counters and reply checks.
#
# A script sources it, then: redis_lib_init || exit 77 (skips, saying why,
# when redis-server is missing: tests/run.sh's exit status for a skip), start_server NAME
# [redis-server options...] (sets port_NAME), rc NAME redis-cli-args...,
# expect DESC WANT NAME args..., redis_lib_done (prints `N passed, N failed`).

build=${FK_BUILD:-build}
module="$(cd "$build" 2>/dev/null && pwd)/filterkit-redis.so"
pass=0
fail=0
pids=()
tmp=""

ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*" >&2; }

redis_lib_done() {
    if [ -n "$tmp" ] && grep -l -E 'AddressSanitizer|runtime error:|LeakSanitizer' "$tmp"/*/log* >/dev/null 2>&1; then
        bad "sanitizer report in a server log:"
        grep -h -A20 -E 'AddressSanitizer|runtime error:' "$tmp"/*/log* | head -n 40 >&2
    fi
    echo "$pass passed, $fail failed"
    [ "$fail" -eq 0 ]
}

redis_lib_cleanup() {
    local p
    for p in "${pids[@]}"; do
        kill "$p" 2>/dev/null
    done
    for p in "${pids[@]}"; do
        # a server that ignores SIGTERM for 5 s is killed outright
        for _ in 1 2 3 4 5 6 7 8 9 10; do kill -0 "$p" 2>/dev/null || break; sleep 0.5; done
        kill -9 "$p" 2>/dev/null
    done
    [ -n "$tmp" ] && rm -rf "$tmp"
}

# Returns 1 (after printing the skip line) when the tests cannot run here;
# sets sanitized=1 for a module built with ASan.
redis_lib_init() {
    if ! command -v redis-server >/dev/null 2>&1 || ! command -v redis-cli >/dev/null 2>&1; then
        echo "skipped: redis-server/redis-cli not installed (make deps-redis)"
        return 1
    fi
    if [ ! -f "$module" ]; then
        echo "no module at $build/filterkit-redis.so (make redis)" >&2
        echo "0 passed, 1 failed"
        exit 1
    fi
    # A module built with ASan runs in Debian's (uninstrumented) server
    # with the ASan runtime preloaded; every server log is checked for
    # sanitizer reports at the end.
    sanitized=0
    local asan
    asan=$(ldd "$module" 2>/dev/null | awk '/libasan/ { print $3 }')
    if [ -n "$asan" ]; then
        sanitized=1
        REDIS_WRAP="env LD_PRELOAD=$asan ASAN_OPTIONS=detect_leaks=0:halt_on_error=1"
        REDIS_WRAP="$REDIS_WRAP UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1"
    fi
    tmp=$(mktemp -d)
    trap redis_lib_cleanup EXIT
    trap 'exit 1' INT TERM
    return 0
}

# start_server NAME [options...]: a server in $tmp/NAME on a free port
# (random, retried when taken: the server itself is the port check; with
# cluster-enabled its bus port, +10000, must be free too). Sets port_NAME.
start_server() {
    local name=$1; shift
    local dir="$tmp/$name" port pid try
    mkdir -p "$dir"
    for try in $(seq 1 30); do
        port=$((20000 + (RANDOM * 32768 + RANDOM) % 30000))
        ${REDIS_WRAP:-} redis-server --port "$port" --bind 127.0.0.1 --dir "$dir" --logfile "$dir/log" \
            --save '' --appendonly no --enable-debug-command local \
            --loadmodule "$module" "$@" >"$dir/log.stderr" 2>&1 &
        pid=$!
        local up=0
        for _ in $(seq 1 ${REDIS_START_TRIES:-50}); do
            if ! kill -0 "$pid" 2>/dev/null; then break; fi
            if [ "$(timeout 2 redis-cli -h 127.0.0.1 -p "$port" ping 2>/dev/null)" = PONG ]; then
                # ours, not another test's server on the port: a server that
                # could not bind it exits, but that one may answer first (a
                # test then ran against a server that went away, and hung)
                [ "$(timeout 2 redis-cli -h 127.0.0.1 -p "$port" INFO server 2>/dev/null |
                    sed -n 's/^process_id:\([0-9]*\).*/\1/p')" = "$pid" ] && up=1
                break
            fi
            sleep 0.1
        done
        if [ "$up" = 1 ]; then
            pids+=("$pid")
            printf -v "port_$name" '%s' "$port"
            printf -v "pid_$name" '%s' "$pid"
            printf -v "dir_$name" '%s' "$dir"
            return 0
        fi
        kill "$pid" 2>/dev/null; wait "$pid" 2>/dev/null
    done
    echo "could not start redis-server ($name); log:" >&2
    tail -n 20 "$dir/log" >&2
    return 1
}

# (REDIS_WRAP: a command to run the server under, e.g. valgrind, with
# REDIS_START_TRIES tenths of a second to come up.)

# stop_server NAME: SHUTDOWN NOSAVE... unless the caller passed SAVE.
stop_server() {
    local name=$1 how=${2:-NOSAVE}
    local port_var="port_$name" pid_var="pid_$name"
    timeout 20 redis-cli -h 127.0.0.1 -p "${!port_var}" shutdown "$how" >/dev/null 2>&1
    for _ in $(seq 1 100); do kill -0 "${!pid_var}" 2>/dev/null || return 0; sleep 0.1; done
    kill -9 "${!pid_var}" 2>/dev/null
}

# rc NAME args...: redis-cli against server NAME, bounded in time.
rc() {
    local name=$1; shift
    local port_var="port_$name"
    timeout 30 redis-cli -h 127.0.0.1 -p "${!port_var}" "$@"
}

# expect DESC WANT NAME args...: the reply lines, joined by '|', equal WANT.
expect() {
    local desc=$1 want=$2; shift 2
    local got
    got=$(rc "$@" 2>&1 | tr '\n' '|')
    while [ "${got%|}" != "$got" ]; do got=${got%|}; done
    if [ "$got" = "$want" ]; then ok; else bad "$desc: got '$got', want '$want'"; fi
}

# expect_prefix DESC PREFIX NAME args...: the reply starts with PREFIX.
expect_prefix() {
    local desc=$1 want=$2; shift 2
    local got
    got=$(rc "$@" 2>&1 | tr '\n' '|')
    case "$got" in "$want"*) ok ;; *) bad "$desc: got '$got', want '$want...'" ;; esac
}

check() { # DESC command...: the command succeeds
    local what=$1; shift
    if "$@"; then ok; else bad "$what"; fi
}

# batch NAME < SPEC: many checks through one redis-cli (each process costs
# ~0.1 s on a loaded machine). SPEC lines are `COMMAND => WANT`, WANT the
# reply lines joined by '|' (nil is empty), or `~PREFIX` for a prefix
# match; blank lines and lines starting with # are skipped. COMMAND is
# quoted as in redis-cli's prompt. BATCH_CLI_OPTS (e.g. "-3 --no-raw":
# RESP3, each reply's type shown) go to that redis-cli.
batch() {
    local name=$1 spec="$tmp/batch.spec" out="$tmp/batch.out" line
    grep -v -e '^#' -e '^[[:space:]]*$' >"$spec"
    while IFS= read -r line; do
        printf '%s\nECHO @@batch@@\n' "${line%% =>*}"
    done <"$spec" | rc "$name" ${BATCH_CLI_OPTS:-} >"$out" 2>&1
    while IFS= read -r line; do
        case "$line" in ok) ok ;; *) bad "$line" ;; esac
    done < <(awk 'NR == FNR { n++; i = index($0, " =>"); cmd[n] = substr($0, 1, i - 1)
                              want[n] = substr($0, i + 3); sub(/^ /, "", want[n]); next }
                  $0 == "@@batch@@" || $0 == "\"@@batch@@\"" { got[++k] = cur; cur = ""; sep = ""; next }
                  { cur = cur sep $0; sep = "|" }
                  END { for (j = 1; j <= n; j++) {
                          g = got[j]; sub(/\|+$/, "", g); w = want[j]
                          if (substr(w, 1, 1) == "~") good = substr(g, 1, length(w) - 1) == substr(w, 2)
                          else good = g == w
                          print good ? "ok" : cmd[j] ": got \x27" g "\x27, want \x27" w "\x27" } }' \
                 "$spec" "$out")
}

# resp_cmd ARG...: one command in the Redis protocol on stdout, binary
# safe; an argument @FILE stands for that file's bytes.
resp_cmd() {
    local a
    printf '*%d\r\n' "$#"
    for a in "$@"; do
        case "$a" in
        @*) printf '$%d\r\n' "$(stat -c %s "${a#@}")"; cat "${a#@}"; printf '\r\n' ;;
        *) printf '$%d\r\n%s\r\n' "${#a}" "$a" ;;
        esac
    done
}
