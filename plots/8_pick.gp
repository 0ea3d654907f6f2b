# plots/8_pick.gp: (8) the picker's question answered in one picture: time
# per lookup (50% present; error bars: min to max of the repeats) against
# bits per item, every kind one point, at the n and fpr of `filterkit pick`
# (sized for n plus its headroom); the region that fits the memory budget
# (pick --memory, else the recommended filter's memory) is shaded, and the
# recommendation is ringed. Data: `filterkit pick ... --out DIR` (pick.csv).
if (!exists("plotdir")) plotdir = 'plots'
load plotdir.'/common.gnuplot'
file = 'pick.csv'
if (system(sprintf("test -s %s/%s && echo 1 || echo 0", results, file)) eq "0") {
    print "8_pick.gp: no ".results."/".file." ('filterkit pick --out ".results."' writes it); skipped"
    exit
}
n = real(first(file, 'n', ''))
cap = real(first(file, 'capacity', ''))
fpr = real(first(file, 'target_fpr', ''))
budget = first(file, 'budget_bits_per_item', '')
kinds = kinds_of(file, '')
eval provenance(file)
stats sel(file, 'bits_per_item', '') u 1 nooutput
xmax = STATS_max * 1.25
stats sel(file, 'lookup50_ns_max', '') u 1 nooutput
ymax = STATS_max * 1.25
set xrange [0:xmax]
set yrange [0:ymax]
set title sprintf("Which filter? n = %s (sized for %s), fpr %s: time per lookup against memory; shaded = fits the budget", \
                  nlabel(n), nlabel(cap), pct(fpr))
set xlabel "bits per item at capacity (memory)"
set ylabel "ns per lookup, 50% present (median; bars: min to max)"
if (budget ne 'NaN' && budget ne '') { \
    b = real(budget); \
    set object 1 rect from 0, graph 0 to b, graph 1 fc rgb '#d9f2d9' fs solid 0.6 noborder behind; \
    set arrow 1 from b, graph 0 to b, graph 1 nohead lw 2 dt 2 lc rgb '#2a7a2a'; \
    set label 1 sprintf("memory budget: %.1f bits per item", b) at b, graph 0.96 left offset 0.5, 0 tc rgb '#2a7a2a' }
# the legend's rows tall enough for its markers, and the ring of the
# recommendation drawn without a title (4.5 times a point: it once stood
# out of the legend's box) and named by a legend entry of its own, a ring
# of the legend's size
set key spacing 1.8
PLOT = "plot for [k in kinds] sel(file, 'bits_per_item,lookup50_ns,lookup50_ns_min,lookup50_ns_max', 'kind='.k) \
            u 1:2:3:4 w yerrorbars pt kpt(k) ps 2 * kps(k) lw 2 lc rgb kcolor(k) t k, \
       sel(file, 'bits_per_item,lookup50_ns', 'chosen=1') u 1:2 w p pt 6 ps 4.5 lw 2 lc rgb 'black' notitle, \
       keyentry w p pt 6 ps 2.5 lw 2 lc rgb 'black' t 'recommended (ringed)', \
       for [k in kinds] sel(file, 'bits_per_item,lookup50_ns', 'kind='.k) u 1:2:(k) w labels offset 1.2, 1.0 left font ',9' notitle"
eval png('8_pick')
eval PLOT
eval svg('8_pick')
eval PLOT
