# plots/csvsel.awk: picks columns, by name, from a filterkit CSV for gnuplot.
#   awk -F, -v cols="kind,n,lookup0_ns" -v where="kind=bloom;target_fpr=0.01" \
#       -f plots/csvsel.awk results/sweep-n-u64.csv
# Skips the '#' header lines, prints the chosen columns space-separated
# (an empty field, "not measured", becomes NaN), keeps only the rows whose
# fields equal every name=value in `where` (numerically when value is a
# number). -v unique=1 prints each distinct line once (e.g. the kinds).
BEGIN {
    nc = split(cols, want, ",")
    nw = (where == "") ? 0 : split(where, conds, ";")
}
/^#/ { next }
!hdr {
    for (i = 1; i <= NF; i++) idx[$i] = i
    hdr = 1
    for (j = 1; j <= nc; j++)
        if (!(want[j] in idx)) { print "csvsel: no column " want[j] > "/dev/stderr"; exit 1 }
    for (c = 1; c <= nw; c++) {
        split(conds[c], kv, "=")
        if (!(kv[1] in idx)) { print "csvsel: no column " kv[1] > "/dev/stderr"; exit 1 }
        wcol[c] = idx[kv[1]]; wval[c] = kv[2]; wnum[c] = (kv[2] ~ /^[-+0-9.eE]+$/)
    }
    next
}
{
    for (c = 1; c <= nw; c++) {
        v = $(wcol[c])
        if (wnum[c] ? (v == "" || v + 0 != wval[c] + 0) : (v != wval[c])) next
    }
    line = ""
    for (j = 1; j <= nc; j++) {
        v = $(idx[want[j]])
        if (v == "") v = "NaN"
        line = line (j > 1 ? " " : "") v
    }
    if (unique && (line in seen)) next
    seen[line] = 1
    print line
}
