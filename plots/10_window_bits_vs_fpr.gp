# plots/10_window_bits_vs_fpr.gp: (10) sliding-window membership: memory per
# window item against the measured false-positive rate of keys never seen
# (bars: its 95% Wilson interval), for the window kind, the age-partitioned
# Bloom filter (its default and its best (k, l)) and two rotating Bloom
# filters, one point per target fpr, beside the floor log2(1/fpr) +
# log2(e). Data: `filterkit bench --workload window --n N --fpr
# 10%,1%,0.1%,0.01% --out DIR --name bench-window` (make bench's step
# "window"). Sizes are exact (no spread).
if (!exists("plotdir")) plotdir = 'plots'
load plotdir.'/common.gnuplot'
file = 'bench-window.csv'
if (system(sprintf("test -s %s/%s && echo 1 || echo 0", results, file)) eq "0") {
    print "10_window_bits_vs_fpr.gp: no ".results."/".file." ('filterkit bench --workload window --name bench-window' writes it); skipped"
    exit
}
n = real(first(file, 'n', 'streamed=1'))
eval provenance(file)
set title sprintf("Sliding windows: memory per window item against the measured fpr, window N = %s (a stream of 10 N distinct keys)", nlabel(n))
set xlabel "measured false-positive rate, keys never seen (log scale; bars: 95% interval)"
set ylabel "bits per window item (memory / N)"
set logscale x
set format x "%g"
set yrange [0:*]
# 95% Wilson interval of present/probes
wz = 1.96
wc(x, m) = (x / m + wz**2 / (2 * m)) / (1 + wz**2 / m)
wh(x, m) = wz * sqrt(x / m * (1 - x / m) / m + wz**2 / (4 * m**2)) / (1 + wz**2 / m)
kinds = "window apbf-best apbf rotating-bloom"
# legend rows tall enough for the markers (the triangles stood out of the box)
set key spacing 1.4
set samples 200
PLOT = "plot for [k in kinds] sel(file, 'present_never,probes_never,bits_per_window_item', 'streamed=1;filter='.k) \
            u ($1/$2):3:(wc($1,$2) - wh($1,$2)):(wc($1,$2) + wh($1,$2)) w xerrorbars pt kpt(k) ps 1.6 * kps(k) lw 2 lc rgb kcolor(k) t k, \
       for [k in kinds] sel(file, 'present_never,probes_never,bits_per_window_item', 'streamed=1;filter='.k) \
            u ($1/$2):3 w l lw 1 lc rgb kcolor(k) notitle, \
       log(1/x)/log(2) + log(exp(1))/log(2) w l lw 2 dt 2 lc rgb 'black' t 'floor log2(1/fpr) + log2(e)'"
eval png('10_window_bits_vs_fpr')
eval PLOT
eval svg('10_window_bits_vs_fpr')
eval PLOT
