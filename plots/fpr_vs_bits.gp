# plots/fpr_vs_bits.gp: (1) measured FPR against bits per item (sweep over
# fpr), on the theory curves of a Bloom filter with optimal k, a cuckoo
# filter (b = 4 slots, 95% load) and the lower bound log2(1/fpr).
if (!exists("plotdir")) plotdir = 'plots'
load plotdir.'/common.gnuplot'
file = 'sweep-fpr-u64.csv'
n = real(first(file, 'n', ''))
kinds = kinds_of(file, '')
ln2 = log(2)
bloom_theory(b) = exp(-b * ln2**2)
cuckoo_theory(b) = 1 - (1 - 2**(-b * 0.95))**(8 * 0.95)
bound(b) = 2**(-b)

set title sprintf("False-positive rate vs memory: n = %s, u64 keys, target fpr 10%% to 0.01%%", nlabel(n))
set xlabel "memory per item (bits)"
set ylabel "false-positive rate (log scale)"
set mxtics 2
set logscale y
set format y "10^{%T}"
set xrange [0:80]
set yrange [5e-6:0.5]
set samples 400
set key top right
PLOT = "plot bloom_theory(x) w l lw 2 dt 2 lc rgb '#1f77b4' t 'Bloom theory, optimal k: fpr = exp(-bits·ln²2)', \
       bloom_theory(x/4) w l lw 2 dt 2 lc rgb '#2ca02c' t 'counting theory, 4-bit counters: Bloom at bits/4', \
       cuckoo_theory(x) w l lw 2 dt 2 lc rgb '#d62728' t 'cuckoo theory, 4 slots at 95% load: f = 0.95·bits', \
       bound(x) w l lw 2 lc rgb 'black' t 'lower bound: bits = log₂(1/fpr)', \
       for [k in kinds] sel(file, 'bits_per_item,fpr_measured', 'kind='.k) u 1:2 w lp pt 7 ps 1.2 lw 1.5 lc rgb kcolor(k) t k.' (measured)'"
set format y "%.0e"
eval png('1_fpr_vs_bits')
eval PLOT
eval svg('1_fpr_vs_bits')
eval PLOT
