# plots/6_batch_vs_n.gp: (6) ns per lookup against n (log x) for each filter,
# one key at a time (dashed) and through fk_filter_contains_many (solid),
# absent keys left, present keys right, error bars from the fastest to the
# slowest repeat. Dotted lines mark where the Bloom
# filter fills each cache of the machine that ran the sweep (the CSV's
# `# caches:` line, from sysfs): out of cache a single lookup waits one
# memory latency per dependent access, a batch overlaps the misses of many
# keys (memory-level parallelism, PAPER_NOTES).
if (!exists("plotdir")) plotdir = 'plots'
load plotdir.'/common.gnuplot'
file = 'sweep-n-u64.csv'
fpr = real(first(file, 'target_fpr', ''))
kinds = baseline_first(kinds_of(file, ''))
bpi = real(first(file, 'bits_per_item', 'kind=bloom'))
eval provenance(file)
cache(name) = system(sprintf("awk '/^# caches:/ { for (i = 3; i <= NF; i++) { split($i, kv, \"=\"); if (kv[1] == \"%s\") print kv[2] } }' %s/%s", name, results, file))
hb(b) = b >= 2**20 ? sprintf("%.0f MiB", b / 2**20) : sprintf("%.0f KiB", b / 2**10)
stats sel(file, 'n', '') u 1 nooutput
nmin = STATS_min / 1.4
nmax = STATS_max * 1.4
set logscale x
set xrange [nmin : nmax]
set xtics ("10⁴" 1e4, "10⁵" 1e5, "10⁶" 1e6, "10⁷" 1e7, "10⁸" 1e8)
set yrange [0:*]
set xlabel "items n (log scale)"
set ylabel "ns per lookup (median; bars: min to max)"
set key font ",9" maxrows 4 spacing 1.3 # rows tall enough for libbloom's bigger cross
# the caches, at the n where a Bloom filter of this run reaches their size
# (a machine whose sysfs has no cache sizes, "caches: unknown", gets no marks)
mark(name, y) = sprintf("cs = cache('%s'); c = strlen(cs) > 0 ? real(cs) : 0; if (c > 0 && c * 8 / bpi > nmin && c * 8 / bpi < nmax) { set arrow from c * 8 / bpi, graph 0 to c * 8 / bpi, graph 1 nohead dt 3 lc rgb '#555555'; set label '%s = '.hb(c) at c * 8 / bpi, graph %g offset 0.5, 0 font ',9' tc rgb '#555555' }", name, name, y)
eval mark('L1d', 0.97)
eval mark('L2', 0.92)
eval mark('L3', 0.87)
PANEL(col, what) = sprintf("set title '%s, fpr %s: dashed = one key a call, solid = batched'; plot for [k in kinds] sel(file, 'n,%s_ns,%s_ns_min,%s_ns_max', 'kind='.k) u 1:2:3:4 w yerrorlines pt kpt2(k) ps kps(k) lw 1 dt 2 lc rgb kcolor(k) t k.' single', for [k in kinds] sel(file, 'n,%s_batch_ns,%s_batch_ns_min,%s_batch_ns_max', 'kind='.k) u 1:2:3:4 w yerrorlines pt kpt(k) ps kps(k) lw 2 lc rgb kcolor(k) t k.' batched'", what, pct(fpr), col, col, col, col, col, col)
PLOT = "set multiplot layout 1,2; eval PANEL('lookup0', 'absent keys'); eval PANEL('lookup100', 'present keys'); unset multiplot"
eval sprintf("set terminal pngcairo size 1600,760 font 'DejaVu Sans,11' noenhanced; set output '%s/6_batch_vs_n.png'", outdir)
eval PLOT
eval sprintf("set terminal svg size 1600,760 font 'DejaVu Sans,11' noenhanced; set output '%s/6_batch_vs_n.svg'", outdir)
eval PLOT
