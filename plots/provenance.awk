# plots/provenance.awk: the provenance line every plot prints under itself,
# from the '#' header lines of the filterkit CSV it was drawn from:
#   awk -v what=line [-v data=FILE] [-v width=N] -f plots/provenance.awk results/bench-u64.csv
#     -> "commit 3b2d35917e7b · AMD EPYC (2 cores online) · caches L1d 48K, ... ·
#         2026-11-24T07:19:43Z · other work 0.12 of 2 CPUs during the run · data: FILE ·
#         made by: build/filterkit bench ..." (the CSV's "# command:" line)
#     broken at " · " into lines of at most `width` characters (default 160,
#     what fits the 1100-pixel plots in their small print), joined by a
#     literal \n for gnuplot's label (a plot's right edge once cut it off)
#   awk -v what=source -v data=FILE -f ...   -> the last two parts only
#     ("data: FILE · made by: ...": a panel's second data file, plot 7)
#   awk -v what=warning -f ...   -> a warning ("" otherwise) when other work
#     took a share of the CPUs while this run measured ("# otherload:",
#     from /proc/stat at the run's start and end, less the run's own CPU
#     time): at least a quarter of the CPUs, and at least half a CPU; or
#     when the hypervisor stole a tenth of them. Other work then shared the
#     cores (and caches and memory bandwidth) and the timings read slower
#     than the machine is. A CSV without that line (filterkit before 0.4.0)
#     falls back to the load average at start, less what the suite's own
#     earlier steps explain ("# suiteload:"): that figure lags a minute
#     behind and was wrong both ways (a run flagged as loaded measured
#     faster than a quiet one).
BEGIN { FS = ": "; if (width == "") width = 160 }
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
# appends one " · "-separated part, starting a new line past `width`
function add(part) {
    if (cur == "") { cur = part; return }
    if (length(cur) + 3 + length(part) > width) { done = done cur "\\n"; cur = part; return }
    cur = cur " · " part
}
# appends a part that may be longer than a line (a command), word by word
function add_words(part,    n, w, i) {
    if (length(part) <= width) { add(part); return }
    n = split(part, w, " ")
    add(w[1])
    for (i = 2; i <= n; i++) {
        if (length(cur) + 1 + length(w[i]) > width) { done = done cur "\\n"; cur = w[i] }
        else cur = cur " " w[i]
    }
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
        if ("otherload" in info) {
            # "0.85 of 2 CPUs over 42.1 s (steal 0.00, load average at end 1.10)"
            n = split(info["otherload"], o, " ")
            other = o[1] + 0; cpus = o[3] + 0; secs = o[6] + 0
            steal = 0
            for (i = 1; i < n; i++) if (o[i] == "(steal") steal = o[i + 1] + 0
            limit = 0.25 * cpus < 0.5 ? 0.5 : 0.25 * cpus
            if (cpus > 0 && (other >= limit || steal >= 0.1 * cpus))
                printf "WARNING: other work took %.2f of %d CPUs%s while this run measured (%.0f s): timings read slower than this machine is", other, cpus, (steal >= 0.1 * cpus ? sprintf(", the hypervisor %.2f more", steal) : ""), secs
            exit
        }
        split(info["loadavg"], l, " ")
        cpus = l[5] + 0
        own = ("suiteload" in info) ? info["suiteload"] + 0 : 0
        if (cpus > 0 && l[1] - own >= 0.5 * cpus)
            printf "WARNING: load average %s on %d CPUs when the run started%s: timings may read slower than this machine is", l[1], cpus, (own > 0 ? sprintf(" (%.2f of it this suite's own)", own) : "")
        else if (!("loadavg" in info))
            printf "(no load average recorded: timings may come from a loaded machine)"
        exit
    }
    if (what != "source") {
        add("commit " (("commit" in info) ? info["commit"] : "unknown"))
        if ("cpu" in info) add(info["cpu"])
        if ("caches" in info) add("caches " human_caches(info["caches"]))
        if ("build" in info) add(info["build"])
        if ("date" in info) add(info["date"])
        if ("otherload" in info) {
            split(info["otherload"], o, " ")
            add("other work " o[1] " of " o[3] " CPUs during the run")
        } else if ("loadavg" in info)
            add("load " info["loadavg"] " at start")
    }
    if (data != "") add("data: " data)
    # the command that made the data: each panel says how to make it again
    # (a double quote or backslash in it would end gnuplot's label string)
    if ("command" in info) { c = info["command"]; gsub(/["\\]/, "'", c); add_words("made by: " c) }
    printf "%s", done cur
}
