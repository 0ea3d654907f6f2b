# plots/2_lookup_vs_n.gp: (2) ns per lookup against n (log x) for each filter,
# all-positive (solid) and all-negative (dashed) lookups, error bars from the
# fastest to the slowest repeat: the steps show where a filter leaves L2 and
# then L3 for DRAM.
if (!exists("plotdir")) plotdir = 'plots'
load plotdir.'/common.gnuplot'
file = 'sweep-n-u64.csv'
fpr = real(first(file, 'target_fpr', ''))
kinds = baseline_first(kinds_of(file, ''))
eval provenance(file)
set tmargin 9 # the title, then the top axis and its label, under the provenance lines
set title sprintf("Lookup cost vs n: fpr %s, u64 keys, solid = key present, dashed = key absent", pct(fpr))
set xlabel "items n (log scale)"
set ylabel "ns per lookup (median; bars: min to max of the repeats)"
set logscale x
set xtics ("10⁴" 1e4, "10⁵" 1e5, "10⁶" 1e6, "10⁷" 1e7, "10⁸" 1e8)
set yrange [0:*]
# top axis: the Bloom filter's size at each n, to read the cache steps
bpi = real(first(file, 'bits_per_item', 'kind=bloom'))
hb(b) = b >= 10 * 2**20 ? sprintf("%.0f MiB", b / 2**20) : b >= 2**20 ? sprintf("%.1f MiB", b / 2**20) : b >= 2**10 ? sprintf("%.0f KiB", b / 2**10) : sprintf("%.0f B", b)
stats sel(file, 'n', '') u 1 nooutput
set xrange [STATS_min / 1.4 : STATS_max * 1.4]
set x2range [STATS_min / 1.4 : STATS_max * 1.4]
set logscale x2
set x2tics scale 0.5
set x2label sprintf("Bloom filter size at that n (%.1f bits per item)", bpi)
set for [e=4:8] x2tics add (hb(10**e * bpi / 8) 10**e)
set xtics nomirror
PLOT = "plot for [k in kinds] sel(file, 'n,lookup100_ns,lookup100_ns_min,lookup100_ns_max', 'kind='.k) u 1:2:3:4 w yerrorlines pt kpt(k) ps kps(k) lw 2 lc rgb kcolor(k) t k.' present', \
            for [k in kinds] sel(file, 'n,lookup0_ns,lookup0_ns_min,lookup0_ns_max', 'kind='.k) u 1:2:3:4 w yerrorlines pt kpt2(k) ps kps(k) lw 2 dt 2 lc rgb kcolor(k) t k.' absent'"
eval png('2_lookup_vs_n')
eval PLOT
eval svg('2_lookup_vs_n')
eval PLOT
