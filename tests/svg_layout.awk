# tests/svg_layout.awk: checks that a gnuplot SVG's text stays readable:
#   awk -v label="memory per item (bits)" -f tests/svg_layout.awk plot.svg
# prints one line per problem and exits 1 when there is any:
#  - a text that runs past the left or right edge of the image (the
#    provenance and warning lines once did, in plots 1, 2, 4 and 7);
#  - a text that overlaps `label` (the x-axis label, which plot 1's legend
#    once covered), and, with -v label2=..., that one too.
# A text's box is estimated as it renders in the PNG (pngcairo, DejaVu
# Sans): 0.675 x font size pixels per character (measured: 5.4 px a
# character at size 8), font size high, placed by its text-anchor.
BEGIN { W = 0; n = 0; bad = 0 }
W == 0 && /^ *width="[0-9.]+"/ && match($0, /width="[0-9.]+"/) { W = substr($0, RSTART + 7, RLENGTH - 8) + 0 }
/<g transform="translate\(/ {
    s = $0
    sub(/.*translate\(/, "", s)
    split(s, xy, /[,)]/)
    gx = xy[1] + 0; gy = xy[2] + 0
    gsize = 11; ganchor = "start"
    if (match($0, /font-size="[0-9.]+"/)) gsize = substr($0, RSTART + 11, RLENGTH - 12) + 0
    if (match($0, /text-anchor="[a-z]+"/)) ganchor = substr($0, RSTART + 13, RLENGTH - 14)
    rot = ($0 ~ /rotate\(/)
    next
}
/<text[ >]/ && !rot {
    t = $0
    sub(/.*<text[^>]*>/, "", t)
    sub(/<\/text>.*/, "", t)
    gsub(/<[^>]*>/, "", t)
    gsub(/&[a-z]+;/, "x", t)
    c = t
    gsub(/[\200-\277]/, "", c) # UTF-8 continuation bytes: count characters
    w = length(c) * gsize * 0.675
    x0 = ganchor == "middle" ? gx - w / 2 : ganchor == "end" ? gx - w : gx
    n++
    tx[n] = t; l[n] = x0; r[n] = x0 + w; top[n] = gy - gsize; bot[n] = gy
}
END {
    for (i = 1; i <= n; i++) {
        if (W > 0 && (l[i] < -1 || r[i] > W + 1)) {
            printf "outside the image (x %.0f to %.0f of %d): %s\n", l[i], r[i], W, tx[i]
            bad = 1
        }
        if (tx[i] != label && (label2 == "" || tx[i] != label2)) continue
        for (j = 1; j <= n; j++)
            if (j != i && l[j] < r[i] && l[i] < r[j] && top[j] < bot[i] && top[i] < bot[j]) {
                printf "overlaps \"%s\": %s\n", tx[i], tx[j]
                bad = 1
            }
    }
    exit bad
}
