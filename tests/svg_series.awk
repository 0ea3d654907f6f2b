# tests/svg_series.awk: the series a gnuplot SVG draws, against its legend:
#   awk -f tests/svg_series.awk plot.svg
# prints one line per series (gnuplot's group gnuplot_plot_N of a panel),
# fields separated by tabs:
#   series  PANEL  N  TITLE  KEY  DATA
# TITLE is the legend entry's text ("" for a series drawn without one); KEY
# and DATA are the "colour/point" pairs of what it draws inside the
# legend's box (its sample) and outside it (the data), space-separated,
# sorted, each once: the colour "r,g,b", the point as gnuplot numbers it
# (pt 7 = filled circle) or "-" for a line, bar or path. And one line per
# legend marker that stands out of the legend's box:
#   outside  PANEL  N  TITLE  how far (pixels)
# (plot 8's ring of the recommendation once did, by 11 pixels). The
# legend's box is the last closed rectangle drawn before a panel's
# gnuplot_plot_1 (plots/common.gnuplot: every legend has a box); with an
# opaque legend gnuplot draws every series twice, the data first and the
# legend after it, and both halves are joined here; a mark inside the box
# is the legend's sample when it follows the legend's text in its group,
# data hidden under the opaque legend otherwise (left out). White marks
# (the fill inside an open point) are left out too.
BEGIN { OFS = "\t"; panel = 0 }
{ s = "" }
function num(s) { return s + 0 }
function inbox(x, y) { return x >= bx0 - 0.5 && x <= bx1 + 0.5 && y >= by0 - 0.5 && y <= by1 + 0.5 }
function colour(s,    c) {
    if (!match(s, /rgb\( *[0-9]+, *[0-9]+, *[0-9]+\)/)) return ""
    c = substr(s, RSTART + 4, RLENGTH - 5)
    gsub(/ /, "", c)
    return c
}
function put(where, pair,    k) {
    k = id SUBSEP where
    if (index(" " drawn[k] " ", " " pair " ") == 0) drawn[k] = drawn[k] (drawn[k] == "" ? "" : " ") pair
}
# a closed rectangle: the graph's border or the legend's box
/<path stroke='black'  d='M[0-9.]+,[0-9.]+ L[0-9.]+,[0-9.]+ L[0-9.]+,[0-9.]+ L[0-9.]+,[0-9.]+ L[0-9.]+,[0-9.]+ Z/ {
    d = substr($0, index($0, "d='M") + 4)
    sub(/'.*/, "", d)
    gsub(/[MLZ]/, " ", d)
    n = split(d, p, /[ ,]+/)
    rx0 = 1e9; rx1 = -1e9; ry0 = 1e9; ry1 = -1e9
    for (i = 1; i + 1 <= n; i += 2) {
        if (p[i] == "") { i--; continue }
        x = num(p[i]); y = num(p[i + 1])
        if (x < rx0) rx0 = x; if (x > rx1) rx1 = x; if (y < ry0) ry0 = y; if (y > ry1) ry1 = y
    }
    lastrect = rx0 "," rx1 "," ry0 "," ry1
}
/<g id="gnuplot_plot_[0-9]+[a-z]*"/ {
    match($0, /gnuplot_plot_[0-9]+/)
    n_series = substr($0, RSTART + 13, RLENGTH - 13) + 0
    if (n_series == 1) {
        if (lastrect != curbox) {
            panel++
            curbox = lastrect
            split(curbox, b, ",")
            bx0 = b[1]; bx1 = b[2]; by0 = b[3]; by1 = b[4]
        }
    }
    id = panel SUBSEP n_series
    if (!(id in seen)) { seen[id] = 1; order[++nid] = id }
    ingroup = 1
    base = depth
    keyed = 0 # a legend text seen in this group: what follows is its sample
}
ingroup && /<g transform="translate\(/ {
    s = $0
    sub(/.*translate\(/, "", s)
    split(s, xy, /[,)]/)
    tx = num(xy[1]); ty = num(xy[2])
}
ingroup && /<text>/ {
    t = $0
    sub(/.*<text>/, "", t)
    sub(/<\/text>.*/, "", t)
    if (inbox(tx, ty)) { keyed = 1; if (title[id] == "") title[id] = t }
}
ingroup && /<path stroke='rgb\(/ {
    c = colour(substr($0, index($0, "<path")))
    d = $0
    sub(/.*d='/, "", d)
    sub(/'.*/, "", d)
    gsub(/[MLZ]/, " ", d)
    n = split(d, p, /[ ,]+/)
    all = 1; any = 0
    for (i = 1; i + 1 <= n; i += 2) {
        if (p[i] == "") { i--; continue }
        if (inbox(num(p[i]), num(p[i + 1]))) any = 1; else all = 0
    }
    if (!all) put("data", c "/-")
    else if (keyed) put("key", c "/-")
}
ingroup && /<use xlink:href='#gpPt[0-9]+'/ && $0 !~ /<use[^>]*color='white'/ {
    s = substr($0, index($0, "<use"))
    match(s, /#gpPt[0-9]+/)
    pt = substr(s, RSTART + 5, RLENGTH - 5) + 1
    u = s
    sub(/.*translate\(/, "", u)
    split(u, xy, /[,)]/)
    x = num(xy[1]); y = num(xy[2])
    r = 0
    if (match(s, /scale\([0-9.]+\)/)) r = substr(s, RSTART + 6, RLENGTH - 7) + 0
    # each shape's reach from its centre, in units of the scale (the gpPt
    # paths at the top of the SVG): left, right, up, down
    ext = (pt == 8 || pt == 9) ? "1.33 1.33 1.33 0.67" : (pt == 10 || pt == 11) ? "1.33 1.33 0.67 1.33" : \
          (pt == 12 || pt == 13) ? "1.41 1.41 1.41 1.41" : (pt == 14 || pt == 15) ? "1.265 1.265 1.076 1.33" : "1 1 1 1"
    split(ext, e, " ")
    c = colour(s)
    if (inbox(x, y) && !keyed) {
        # data under the opaque legend: hidden, left out
    } else if (inbox(x, y)) {
        put("key", c "/" pt)
        over = bx0 - (x - e[1] * r)
        if (x + e[2] * r - bx1 > over) over = x + e[2] * r - bx1
        if (by0 - (y - e[3] * r) > over) over = by0 - (y - e[3] * r)
        if (y + e[4] * r - by1 > over) over = y + e[4] * r - by1
        if (over > 1) out[id] = over
    } else
        put("data", c "/" pt)
}
# the nesting of <g> elements: a series' group ends where its depth does
{
    depth += gsub(/<g[ >]/, "&") - gsub(/<\/g>/, "&")
    if (ingroup && depth <= base) ingroup = 0
}
END {
    for (i = 1; i <= nid; i++) {
        id = order[i]
        split(id, pn, SUBSEP)
        print "series", pn[1], pn[2], title[id], drawn[id SUBSEP "key"], drawn[id SUBSEP "data"]
        if (id in out) printf "outside\t%s\t%s\t%s\t%.1f\n", pn[1], pn[2], title[id], out[id]
    }
}
