# plots/11_window_fpr_by_age.gp: (11) sliding-window membership: the share of
# keys answering present by their age, at target fpr 1%, for the window
# kind, the age-partitioned Bloom filter (default and best (k, l)) and two
# rotating Bloom filters: inside the window (all must: a miss is a false
# negative), the slack (N to 8N/7: either answer is allowed), keys just
# past it (8N/7 to 2N), old keys (2N and more) and keys never seen, beside
# the 1% target. Data: as plot 10 (bench-window.csv, the rows at fpr 1%).
if (!exists("plotdir")) plotdir = 'plots'
load plotdir.'/common.gnuplot'
file = 'bench-window.csv'
if (system(sprintf("test -s %s/%s && echo 1 || echo 0", results, file)) eq "0") {
    print "11_window_fpr_by_age.gp: no ".results."/".file." ('filterkit bench --workload window --name bench-window' writes it); skipped"
    exit
}
fpr = 0.01
n = real(first(file, 'n', 'streamed=1;fpr=0.01'))
eval provenance(file)
set title sprintf("Sliding windows: share of keys answering present by age, window N = %s, target fpr %s", nlabel(n), pct(fpr))
set xlabel "key age (inserts since its last insert)"
set ylabel "share answering present (log scale)"
set logscale y
set format y "%g"
set yrange [1e-4:2]
set xrange [-0.5:4.5]
set xtics ("in the window 0..N" 0, "slack N..8N/7" 1, "just past 8N/7..2N" 2, "old >= 2N" 3, "never seen" 4)
kinds = "window apbf-best apbf rotating-bloom"
# legend rows tall enough for the markers (the triangles stood out of the box)
set key spacing 1.4
# one row per kind, its five band rates turned into five points
bands(k) = sel(file, 'rate_window,rate_slack,rate_expired,rate_old,rate_never', 'streamed=1;fpr=0.01;filter='.k) \
           ." | awk '{ for (i = 1; i <= NF; i++) print i - 1, $i }'"
set arrow 1 from -0.5, fpr to 4.5, fpr nohead lw 2 dt 2 lc rgb 'black'
set label 1 sprintf("target %s", pct(fpr)) at 4.45, fpr * 1.3 right tc rgb 'black'
PLOT = "plot for [k in kinds] bands(k) u 1:2 w lp pt kpt(k) ps 1.6 * kps(k) lw 2 lc rgb kcolor(k) t k"
eval png('11_window_fpr_by_age')
eval PLOT
eval svg('11_window_fpr_by_age')
eval PLOT
