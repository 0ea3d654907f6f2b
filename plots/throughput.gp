# plots/throughput.gp: (5) millions of operations per second of each filter
# at the default workload (n = 1M, fpr 1%, u64 keys), libbloom beside.
if (!exists("plotdir")) plotdir = 'plots'
load plotdir.'/common.gnuplot'
file = 'bench-u64.csv'
where = 'n=1000000;target_fpr=0.01'
set title "Throughput at the default workload: n = 1M, fpr 1%, u64 keys (higher is better)"
set ylabel "million operations per second (median)"
set style data histogram
set style histogram cluster gap 1.5
set style fill solid 0.85 border -1
set boxwidth 0.9
set yrange [0:*]
set xtics scale 0
set key top right
mops(c) = (valid(c) && column(c) > 0) ? 1000.0 / column(c) : 0
PLOT = "plot sel(file, 'kind,insert_ns,lookup0_ns,lookup50_ns,lookup100_ns,remove_ns', where) \
          u (mops(2)):xtic(1) t 'insert' lc rgb '#1f77b4', \
       '' u (mops(3)) t 'lookup, 0% present' lc rgb '#ff7f0e', \
       '' u (mops(4)) t 'lookup, 50% present' lc rgb '#ffbb78', \
       '' u (mops(5)) t 'lookup, 100% present' lc rgb '#2ca02c', \
       '' u (mops(6)) t 'remove (where supported)' lc rgb '#9467bd'"
eval png('5_throughput')
eval PLOT
eval svg('5_throughput')
eval PLOT
