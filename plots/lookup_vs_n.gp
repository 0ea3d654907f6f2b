# plots/lookup_vs_n.gp: (2) ns per lookup against n (log x) for each filter,
# all-positive (solid) and all-negative (dashed) lookups: the steps show
# where a filter leaves L2 and then L3 for DRAM.
if (!exists("plotdir")) plotdir = 'plots'
load plotdir.'/common.gnuplot'
file = 'sweep-n-u64.csv'
fpr = real(first(file, 'target_fpr', ''))
kinds = kinds_of(file, '')
set title sprintf("Lookup cost vs n: fpr %s, u64 keys, solid = key present, dashed = key absent", pct(fpr))
set xlabel "items n (log scale)"
set ylabel "ns per lookup (median)"
set logscale x
set xtics ("10⁴" 1e4, "10⁵" 1e5, "10⁶" 1e6, "10⁷" 1e7, "10⁸" 1e8)
set yrange [0:*]
set offsets graph 0.03, graph 0.03, 0, 0
set key top left
PLOT = "plot for [k in kinds] sel(file, 'n,lookup100_ns', 'kind='.k) u 1:2 w lp pt 7 lw 2 lc rgb kcolor(k) t k.' present', \
            for [k in kinds] sel(file, 'n,lookup0_ns', 'kind='.k) u 1:2 w lp pt 6 lw 2 dt 2 lc rgb kcolor(k) t k.' absent'"
eval png('2_lookup_vs_n')
eval PLOT
eval svg('2_lookup_vs_n')
eval PLOT
