# plots/7_growth_memory.gp: (7) bits per item of a growing Bloom filter
# against the growth it reached (keys / first capacity), measured (points)
# beside theory (lines), for the defaults s = 2, r = 0.9 and RedisBloom's
# r = 0.5, next to a fixed Bloom filter sized for the count reached and
# the default scalable-cuckoo. Data: bench/scripts/growth_memory.sh. Sizes
# are exact (no repeats, no error bars; the plot says so).
if (!exists("plotdir")) plotdir = 'plots'
load plotdir.'/common.gnuplot'
file = 'growth-memory.csv'
if (system(sprintf("test -s %s/%s && echo 1 || echo 0", results, file)) eq "0") {
    print "7_growth_memory.gp: no ".results."/".file." (bench/scripts/growth_memory.sh writes it); skipped"
    exit
}
fpr = real(first(file, 'target_fpr', 'kind=scalable-bloom;target_fpr=0.01'))
set title sprintf("Growing filters: memory per item as they grow from capacity 1000, target fpr %s (sizes are exact, no spread)", pct(fpr))
eval provenance(file)
set xlabel "growth reached (keys / first capacity, log scale)"
set ylabel "bits per item (memory / keys held)"
set logscale x
set yrange [0:*]
w(k, s, r) = sprintf("kind=%s;s=%g;r=%g;target_fpr=0.01", k, s, r)
PLOT = "plot sel(file, 'growth,bits_per_item', w('scalable-bloom', 2, 0.9)) u 1:2 w p pt 7 ps 1.3 lc rgb '#1f77b4' t 'scalable-bloom s=2 r=0.9 (default), measured', \
            sel(file, 'growth,theory_bits_per_item', w('scalable-bloom', 2, 0.9)) u 1:2 w l lw 2 lc rgb '#1f77b4' t '... theory', \
            sel(file, 'growth,bits_per_item', w('scalable-bloom', 2, 0.5)) u 1:2 w p pt 5 ps 1.1 lc rgb '#9467bd' t 'scalable-bloom s=2 r=0.5 (RedisBloom), measured', \
            sel(file, 'growth,theory_bits_per_item', w('scalable-bloom', 2, 0.5)) u 1:2 w l lw 2 dt 2 lc rgb '#9467bd' t '... theory', \
            sel(file, 'growth,bits_per_item', w('scalable-cuckoo', 2, 0.9)) u 1:2 w lp pt 9 lw 1 lc rgb '#d62728' t 'scalable-cuckoo s=2 r=0.9, measured', \
            sel(file, 'growth,fixed_bits_per_item', w('scalable-bloom', 2, 0.9)) u 1:2 w l lw 2 lc rgb 'black' t 'bloom sized for the keys held'"
eval png('7_growth_memory')
eval PLOT
eval svg('7_growth_memory')
eval PLOT
