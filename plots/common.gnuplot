# plots/common.gnuplot: loaded by every plot script. Takes `results` (the folder
# of CSVs), `outdir` (where images go) and `plotdir` (this folder) from
# `gnuplot -e` (defaults: results, plots/out, plots), and defines
# sel(file, cols, where): the awk pipe that reads named columns.
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
# one colour per kind, the same in every plot
kcolor(k) = (k eq "bloom") ? "#1f77b4" : (k eq "counting") ? "#2ca02c" : (k eq "cuckoo") ? "#d62728" : \
            (k eq "libbloom") ? "#7f7f7f" : (k eq "blocked") ? "#ff7f0e" : (k eq "fuse") ? "#8c564b" : "#9467bd"
set datafile missing "NaN"
set grid lc rgb "#dddddd"
set key box opaque
set border lw 1

# draw(name): after `set output` is left to this: PNG then SVG of the plot
# command stored in the string PLOT.
png(name) = sprintf("set terminal pngcairo size 1000,640 font 'DejaVu Sans,11' noenhanced; set output '%s/%s.png'", outdir, name)
svg(name) = sprintf("set terminal svg size 1000,640 font 'DejaVu Sans,11' noenhanced; set output '%s/%s.svg'", outdir, name)
