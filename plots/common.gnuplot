# plots/common.gnuplot: loaded by every plot script. Takes `results` (the folder
# of CSVs), `outdir` (where images go) and `plotdir` (this folder) from
# `gnuplot -e` (defaults: results, plots/out, plots), and defines
# sel(file, cols, where): the awk pipe that reads named columns.
#
# Every image carries its provenance (provenance(file): commit, CPU, caches,
# build, date, the other work the machine did during the run, in small
# print at the top; a red warning above it when that other work took a
# share of the CPUs: provenance.awk), its legend outside the
# data (below the plot), and error bars from the repeats where the figure
# is a timing (the CSV's _min and _max columns) or a measured rate (its
# 95% interval); sizes are exact and carry none.
if (!exists("results")) results = 'results'
if (!exists("outdir")) outdir = 'plots/out'
sel(file, cols, where) = sprintf("< awk -F, -v cols='%s' -v where='%s' -f %s/csvsel.awk %s/%s", \
                                 cols, where, plotdir, results, file)
first(file, col, where) = system(sprintf("awk -F, -v cols='%s' -v where='%s' -f %s/csvsel.awk %s/%s | head -n 1", \
                                 col, where, plotdir, results, file))
kinds_of(file, where) = system(sprintf("awk -F, -v cols=kind -v where='%s' -v unique=1 -f %s/csvsel.awk %s/%s | tr '\\n' ' '", \
                                 where, plotdir, results, file))
# n as text: 1000000 -> 1M
nlabel(n) = (n >= 1e6 && n == floor(n/1e6)*1e6) ? sprintf("%dM", n/1e6) : \
            (n >= 1e3 && n == floor(n/1e3)*1e3) ? sprintf("%dk", n/1e3) : sprintf("%d", n)
pct(p) = sprintf("%g%%", 100*p)
# one colour and marker per kind, the same in every plot: the table
# plots/kind_styles.txt (kind, colour, point, open point, size), read once.
# kpt(k) is a kind's main marker, kpt2(k) its hollow form for a second
# series of the same kind, kps(k) the factor on a plot's point size.
style_col(c) = system(sprintf("awk '!/^#/ && NF { printf \"%%s \", $%d }' %s/kind_styles.txt", c, plotdir))
STYLE_KIND = style_col(1)
STYLE_COLOR = style_col(2)
STYLE_PT = style_col(3)
STYLE_PT2 = style_col(4)
STYLE_PS = style_col(5)
kidx(k) = sum [kj = 1:words(STYLE_KIND)] (word(STYLE_KIND, kj) eq k ? kj : 0)
kcolor(k) = kidx(k) ? word(STYLE_COLOR, kidx(k)) : "#444444"
kpt(k) = kidx(k) ? word(STYLE_PT, kidx(k)) + 0 : 3
kpt2(k) = kidx(k) ? word(STYLE_PT2, kidx(k)) + 0 : 3
kps(k) = kidx(k) ? word(STYLE_PS, kidx(k)) + 0 : 1
# a list of kinds with libbloom first: drawn first, under the others (its
# points lie on bloom's; bloom's dot stays visible inside libbloom's cross)
baseline_first(list) = (strstrt(' '.list.' ', ' libbloom ') == 0) ? list : \
    'libbloom '.substr(' '.list.' ', 1, strstrt(' '.list.' ', ' libbloom ')).substr(' '.list.' ', strstrt(' '.list.' ', ' libbloom ') + 10, strlen(list) + 2)
set datafile missing "NaN"
set grid lc rgb "#dddddd"
# the legend sits under the plot, never on the data
set key outside bottom center horizontal box opaque maxrows 3 font ",10"
set border lw 1
set bmargin 8
set tmargin 7 # room for the provenance: up to three lines and the command that made the data

# provenance(file): the small print at the top, and the load warning
prov_line(file) = system(sprintf("awk -v what=line -v data=%s -f %s/provenance.awk %s/%s", file, plotdir, results, file))
prov_warn(file) = system(sprintf("awk -v what=warning -f %s/provenance.awk %s/%s", plotdir, results, file))
# (top of the image: the warning first, the provenance under it, the title
# below both; the legend has the bottom)
# (the line comes broken into lines of at most 160 characters, which fit
# the 1100-pixel width in this small print)
provenance(file) = sprintf("set label 990 \"%s\" at screen 0.01, screen 0.948 left font ',8' tc rgb '#444444' front; w = prov_warn('%s'); if (strlen(w) > 0) { set label 991 w at screen 0.5, screen 0.978 center font ',10' tc rgb '#cc0000' front }", prov_line(file), file)

# draw(name): after `set output` is left to this: PNG then SVG of the plot
# command stored in the string PLOT.
png(name) = sprintf("set terminal pngcairo size 1100,760 font 'DejaVu Sans,11' noenhanced; set output '%s/%s.png'", outdir, name)
svg(name) = sprintf("set terminal svg size 1100,760 font 'DejaVu Sans,11' noenhanced; set output '%s/%s.svg'", outdir, name)
