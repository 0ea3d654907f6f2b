# plots/5_throughput.gp: (5) millions of operations per second of each filter
# at the default workload (the first n of the bench, 1M; fpr 1%, u64 keys), libbloom beside; error
# bars from the slowest to the fastest repeat.
if (!exists("plotdir")) plotdir = 'plots'
load plotdir.'/common.gnuplot'
file = 'bench-u64.csv'
# the first n of the file at fpr 1% (1M in `make bench`, less in bench-quick)
n = real(first(file, 'n', 'target_fpr=0.01'))
where = sprintf('n=%.0f;target_fpr=0.01', n)
eval provenance(file)
set title sprintf("Throughput at the default workload: n = %s, fpr 1%%, u64 keys (higher is better)", nlabel(n))
set ylabel "million operations per second (median; bars: slowest to fastest repeat)"
set style data histogram
set style histogram errorbars gap 1.5 lw 1
set style fill solid 0.85 border -1
set boxwidth 0.9
set yrange [0:*]
set xtics scale 0
mops(c) = (valid(c) && column(c) > 0) ? 1000.0 / column(c) : 0
# columns per operation: median, min, max ns -> median, slowest, fastest Mops
COLS = 'kind,insert_ns,insert_ns_max,insert_ns_min,lookup0_ns,lookup0_ns_max,lookup0_ns_min,lookup50_ns,lookup50_ns_max,lookup50_ns_min,lookup100_ns,lookup100_ns_max,lookup100_ns_min,remove_ns,remove_ns_max,remove_ns_min'
PLOT = "plot sel(file, COLS, where) \
          u (mops(2)):(mops(3)):(mops(4)):xtic(1) t 'insert' lc rgb '#1f77b4', \
       '' u (mops(5)):(mops(6)):(mops(7)) t 'lookup, 0% present' lc rgb '#ff7f0e', \
       '' u (mops(8)):(mops(9)):(mops(10)) t 'lookup, 50% present' lc rgb '#ffbb78', \
       '' u (mops(11)):(mops(12)):(mops(13)) t 'lookup, 100% present' lc rgb '#2ca02c', \
       '' u (mops(14)):(mops(15)):(mops(16)) t 'remove (where supported)' lc rgb '#9467bd'"
eval png('5_throughput')
eval PLOT
eval svg('5_throughput')
eval PLOT
