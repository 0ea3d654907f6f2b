# plots/7_growth_memory.gp: (7) the growing kinds as they grow (x: keys /
# first capacity, log scale). Left: bits per item of the chains (growing
# Bloom filters at the defaults s = 2, r = 0.9 and RedisBloom's r = 0.5,
# the default scalable-cuckoo), measured (points) beside theory (lines) and
# a fixed Bloom filter sized for the count reached, from
# bench/scripts/growth_memory.sh; and the expandable kind (one table that
# doubles in place) at each doubling, from `filterkit bench --workload
# growth` (bench-growth.csv). Right: ns per absent lookup at each doubling
# of every filter in bench-growth.csv (one key a call, best of 3 passes),
# the pre-sized reference dashed. Each series is drawn from one file only:
# the chains' memory from growth-memory.csv, everything of expandable and
# every lookup time from bench-growth.csv. Sizes are exact (no spread).
if (!exists("plotdir")) plotdir = 'plots'
load plotdir.'/common.gnuplot'
file = 'growth-memory.csv'
gfile = 'bench-growth.csv'
have(f) = system(sprintf("test -s %s/%s && echo 1 || echo 0", results, f)) eq "1"
if (!have(file) && !have(gfile)) {
    print "7_growth_memory.gp: no ".results."/".file." or ".gfile." (make bench writes them: bench/scripts/growth_memory.sh, filterkit bench --workload growth); skipped"
    exit
}
# the filters of bench-growth.csv, grown ones first, the pre-sized reference last
gkinds(how) = have(gfile) ? system(sprintf("awk -F, -v cols=filter -v where='how=%s' -v unique=1 -f %s/csvsel.awk %s/%s | tr '\\n' ' '", how, plotdir, results, gfile)) : ""
grown = gkinds('grown')
inplace = gkinds('in-place')
presized = gkinds('pre-sized')
has_exp = strstrt(' '.grown.' ', ' expandable ') > 0
fpr = have(file) ? real(first(file, 'target_fpr', 'kind=scalable-bloom;target_fpr=0.01')) : 0.01
gfpr = have(gfile) ? real(first(gfile, 'fpr', '')) : fpr
gn0 = have(gfile) ? real(first(gfile, 'n0', '')) : 0
eval provenance(have(file) ? file : gfile)
gcolor(k) = (k eq "expandable") ? "#2ca02c" : (k eq "scalable-bloom") ? "#1f77b4" : (k eq "scalable-cuckoo") ? "#d62728" : \
            (k eq "scalable-blocked") ? "#ff7f0e" : (k eq "quotient") ? "#8c564b" : "#444444"
set logscale x
set xlabel "growth reached (keys / first capacity, log scale)"
set key font ",8" maxrows 4 width -4
set bmargin 10
set xrange [0.8:1400]
w(k, s, r) = sprintf("kind=%s;s=%g;r=%g;target_fpr=0.01", k, s, r)
CHAINS = "sel(file, 'growth,bits_per_item', w('scalable-bloom', 2, 0.9)) u 1:2 w p pt 7 ps 1.3 lc rgb '#1f77b4' t 'scalable-bloom s=2 r=0.9 (default), measured', \
          sel(file, 'growth,theory_bits_per_item', w('scalable-bloom', 2, 0.9)) u 1:2 w l lw 2 lc rgb '#1f77b4' t '... theory', \
          sel(file, 'growth,bits_per_item', w('scalable-bloom', 2, 0.5)) u 1:2 w p pt 5 ps 1.1 lc rgb '#9467bd' t 'scalable-bloom s=2 r=0.5 (RedisBloom), measured', \
          sel(file, 'growth,theory_bits_per_item', w('scalable-bloom', 2, 0.5)) u 1:2 w l lw 2 dt 2 lc rgb '#9467bd' t '... theory', \
          sel(file, 'growth,bits_per_item', w('scalable-cuckoo', 2, 0.9)) u 1:2 w lp pt 9 lw 1 lc rgb '#d62728' t 'scalable-cuckoo s=2 r=0.9, measured', \
          sel(file, 'growth,fixed_bits_per_item', w('scalable-bloom', 2, 0.9)) u 1:2 w l lw 2 lc rgb 'black' t 'bloom sized for the keys held'"
EXP = "sel(gfile, 'keys,bits_per_key', 'filter=expandable') u ($1 / gn0):2 w lp pt 13 ps 1.3 lw 2 lc rgb '#2ca02c' t 'expandable (one table, doubles in place), measured'"
LEFT = sprintf("set title 'memory per item, fpr %s (sizes are exact, no spread)'; set ylabel 'bits per item (memory / keys held)'; set yrange [0:*]; plot %s", \
               pct(fpr), have(file) ? CHAINS.(has_exp ? ', '.EXP : '') : EXP)
RIGHT = sprintf("set title 'absent lookups at each doubling, fpr %s, from n0 = %s'; set ylabel 'ns per absent lookup (one key a call, best of 3)'; set yrange [0:*]; \
                 plot for [k in grown.inplace] sel(gfile, 'keys,absent_ns', 'filter='.k) u ($1 / gn0):2 w lp pt 7 lw 2 lc rgb gcolor(k) t k.' absent', \
                      for [k in presized] sel(gfile, 'keys,absent_ns', 'filter='.k) u ($1 / gn0):2 w l dt 2 lw 2 lc rgb gcolor(k) t k.' sized for the end, absent'", \
                pct(gfpr), nlabel(gn0))
PLOT = have(gfile) ? "set multiplot layout 1,2; eval LEFT; eval RIGHT; unset multiplot" : "eval LEFT"
eval sprintf("set terminal pngcairo size 1600,760 font 'DejaVu Sans,11' noenhanced; set output '%s/7_growth_memory.png'", outdir)
eval PLOT
eval sprintf("set terminal svg size 1600,760 font 'DejaVu Sans,11' noenhanced; set output '%s/7_growth_memory.svg'", outdir)
eval PLOT
