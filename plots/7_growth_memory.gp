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
# provenance: each panel its own, at the top of its half, naming every file
# it draws from and the command that made it (the right panel once had
# none); the load warning once, across the top, from the first file that
# has one
pline(what, f) = system(sprintf("awk -v what=%s -v data=%s -v width=140 -f %s/provenance.awk %s/%s", what, f, plotdir, results, f))
left_prov = have(file) ? pline('line', file).(has_exp ? '\n'.pline('source', gfile) : '') : pline('line', gfile)
right_prov = have(gfile) ? pline('line', gfile) : ''
w = prov_warn(have(file) ? file : gfile)
if (strlen(w) == 0 && have(file) && have(gfile)) w = prov_warn(gfile)
if (strlen(w) > 0) { set label 991 w at screen 0.5, screen 0.978 center font ',10' tc rgb '#cc0000' front }
PROV(text, x) = sprintf("set label 990 \"%s\" at screen %g, screen 0.948 left font ',8' tc rgb '#444444' front", text, x)
set tmargin 9
set logscale x
set xlabel "growth reached (keys / first capacity, log scale)"
set key font ",8" maxrows 4 width -4
set bmargin 10
set xrange [0.8:1400]
w(k, s, r) = sprintf("kind=%s;s=%g;r=%g;target_fpr=0.01", k, s, r)
CHAINS = "sel(file, 'growth,bits_per_item', w('scalable-bloom', 2, 0.9)) u 1:2 w p pt kpt('scalable-bloom') ps 1.3 lc rgb kcolor('scalable-bloom') t 'scalable-bloom s=2 r=0.9 (default), measured', \
          sel(file, 'growth,theory_bits_per_item', w('scalable-bloom', 2, 0.9)) u 1:2 w l lw 2 lc rgb kcolor('scalable-bloom') t '... theory', \
          sel(file, 'growth,bits_per_item', w('scalable-bloom', 2, 0.5)) u 1:2 w p pt kpt2('scalable-bloom') ps 1.3 lc rgb kcolor('scalable-bloom') t 'scalable-bloom s=2 r=0.5 (RedisBloom), measured', \
          sel(file, 'growth,theory_bits_per_item', w('scalable-bloom', 2, 0.5)) u 1:2 w l lw 2 dt 2 lc rgb kcolor('scalable-bloom') t '... theory', \
          sel(file, 'growth,bits_per_item', w('scalable-cuckoo', 2, 0.9)) u 1:2 w lp pt kpt('scalable-cuckoo') lw 1 lc rgb kcolor('scalable-cuckoo') t 'scalable-cuckoo s=2 r=0.9, measured', \
          sel(file, 'growth,fixed_bits_per_item', w('scalable-bloom', 2, 0.9)) u 1:2 w l lw 2 lc rgb kcolor('bloom') t 'bloom sized for the keys held'"
EXP = "sel(gfile, 'keys,bits_per_key', 'filter=expandable') u ($1 / gn0):2 w lp pt kpt('expandable') ps 1.3 lw 2 lc rgb kcolor('expandable') t 'expandable (one table, doubles in place), measured'"
LEFT = PROV(left_prov, 0.01).sprintf("; set title 'memory per item, fpr %s (sizes are exact, no spread)'; set ylabel 'bits per item (memory / keys held)'; set yrange [0:*]; plot %s", \
               pct(fpr), have(file) ? CHAINS.(has_exp ? ', '.EXP : '') : EXP)
RIGHT = PROV(right_prov, 0.51).sprintf("; unset label 991; set title 'absent lookups at each doubling, fpr %s, from n0 = %s'; set ylabel 'ns per absent lookup (one key a call, best of 3)'; set yrange [0:*]; \
                 plot for [k in grown.inplace] sel(gfile, 'keys,absent_ns', 'filter='.k) u ($1 / gn0):2 w lp pt kpt(k) ps kps(k) lw 2 lc rgb kcolor(k) t k.' absent', \
                      for [k in presized] sel(gfile, 'keys,absent_ns', 'filter='.k) u ($1 / gn0):2 w l dt 2 lw 2 lc rgb kcolor(k) t k.' sized for the end, absent'", \
                pct(gfpr), nlabel(gn0))
PLOT = have(gfile) ? "set multiplot layout 1,2; eval LEFT; eval RIGHT; unset multiplot" : "eval LEFT"
eval sprintf("set terminal pngcairo size 1600,760 font 'DejaVu Sans,11' noenhanced; set output '%s/7_growth_memory.png'", outdir)
eval PLOT
eval sprintf("set terminal svg size 1600,760 font 'DejaVu Sans,11' noenhanced; set output '%s/7_growth_memory.svg'", outdir)
eval PLOT
