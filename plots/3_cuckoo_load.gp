# plots/3_cuckoo_load.gp: (3) a cuckoo filter filled step by step: ns per
# insert (for the keys added at each step) and per lookup on the left axis
# (error bars: min to max of the repeats), measured and theoretical FPR on
# the right (log) axis.
if (!exists("plotdir")) plotdir = 'plots'
load plotdir.'/common.gnuplot'
file = 'sweep-load-u64.csv'
if (system(sprintf("test -s %s/%s && echo 1 || echo 0", results, file)) eq "0") {
    print "3_cuckoo_load.gp: no ".results."/".file." (no cuckoo kind in this build); skipped"
    exit
}
n = real(first(file, 'n', ''))
fpr = real(first(file, 'target_fpr', ''))
eval provenance(file)
set title sprintf("Cuckoo filter as it fills: sized for n = %s at fpr %s, u64 keys", nlabel(n), pct(fpr))
set xlabel "load factor (occupied slots / slots)"
set ylabel "ns per operation, median (log scale; bars: min to max)"
set y2label "false-positive rate (log scale)"
set xrange [0:1]
set logscale y
set yrange [5:*]
set logscale y2
set format y2 "%.0e"
set y2tics
set ytics nomirror
PLOT = "plot sel(file, 'load,insert_ns,insert_ns_min,insert_ns_max', '') u 1:2:3:4 w yerrorlines pt 7 lw 2 lc rgb '#d62728' t 'insert ns', \
            sel(file, 'load,lookup100_ns,lookup100_ns_min,lookup100_ns_max', '') u 1:2:3:4 w yerrorlines pt 5 lw 2 lc rgb '#ff7f0e' t 'lookup ns, present', \
            sel(file, 'load,lookup0_ns,lookup0_ns_min,lookup0_ns_max', '') u 1:2:3:4 w yerrorlines pt 4 lw 2 dt 2 lc rgb '#ff7f0e' t 'lookup ns, absent', \
            sel(file, 'load,fpr_measured', '') u 1:2 axes x1y2 w lp pt 9 lw 2 lc rgb '#1f77b4' t 'FPR measured (right)', \
            sel(file, 'load,fpr_theory', '') u 1:2 axes x1y2 w l lw 2 dt 2 lc rgb '#1f77b4' t 'FPR theory (right)'"
eval png('3_cuckoo_load')
eval PLOT
eval svg('3_cuckoo_load')
eval PLOT
