# plots/provenance.awk: the provenance line every plot prints under itself,
# from the '#' header lines of the filterkit CSV it was drawn from:
#   awk -v what=line -f plots/provenance.awk results/bench-u64.csv
#     -> "commit 3b2d35917e7b · AMD EPYC (2 cores online) · L1d=32768 L2=... ·
#         2026-11-24T07:19:43Z · load 0.12 0.30 0.41 on 2 CPUs at start"
#   awk -v what=warning -f ...   -> a warning when the load average at start,
#     less what the suite's own earlier steps explain ("# suiteload:", written
#     inside make bench), was at least half a CPU per CPU ("" otherwise):
#     other work then shared the cores and the timings read slower than the
#     machine is.
BEGIN { FS = ": " }
# "L1d=49152 L2=1048576" -> "L1d 48K, L2 1M" (bytes as the CSV has them)
function human_caches(c,    n, part, i, kv, b, out) {
    n = split(c, part, " ")
    for (i = 1; i <= n; i++) {
        if (split(part[i], kv, "=") != 2 || kv[2] !~ /^[0-9]+$/) { out = out (out ? ", " : "") part[i]; continue }
        b = kv[2] + 0
        b = b >= 1048576 && b % 1048576 == 0 ? (b / 1048576) "M" : b >= 1048576 ? sprintf("%.0fM", b / 1048576) : b >= 1024 ? sprintf("%.0fK", b / 1024) : b
        out = out (out ? ", " : "") kv[1] " " b
    }
    return out
}
/^# [a-z]+: / {
    key = substr($1, 3)
    v = substr($0, length($1) + 3)
    info[key] = v
    next
}
/^#/ { next }
{ exit }
END {
    if (what == "warning") {
        split(info["loadavg"], l, " ")
        cpus = l[5] + 0
        own = ("suiteload" in info) ? info["suiteload"] + 0 : 0
        if (cpus > 0 && l[1] - own >= 0.5 * cpus)
            printf "WARNING: load average %s on %d CPUs when the run started%s: other work shared the cores, timings are slower than this machine is", l[1], cpus, (own > 0 ? sprintf(" (%.2f of it this suite's own earlier steps)", own) : "")
        else if (!("loadavg" in info))
            printf "(no load average recorded: timings may come from a loaded machine)"
        exit
    }
    line = "commit " (("commit" in info) ? info["commit"] : "unknown")
    if ("cpu" in info) line = line " · " info["cpu"]
    if ("caches" in info) line = line " · caches " human_caches(info["caches"])
    if ("build" in info) line = line " · " info["build"]
    if ("date" in info) line = line " · " info["date"]
    if ("loadavg" in info) line = line " · load " info["loadavg"] " at start"
    printf "%s", line
}
