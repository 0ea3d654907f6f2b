# plots/1_fpr_vs_bits.gp: (1) measured FPR (error bars: its 95% interval)
# against bits per item (sweep over fpr), on the theory curves of a Bloom filter with optimal k, a cuckoo
# filter (b = 4 slots, 95% load), a binary fuse filter (1.125 f bits for
# 2^-f, the static kind) and the lower bound log2(1/fpr).
if (!exists("plotdir")) plotdir = 'plots'
load plotdir.'/common.gnuplot'
file = 'sweep-fpr-u64.csv'
n = real(first(file, 'n', ''))
kinds = baseline_first(kinds_of(file, ''))
eval provenance(file)
ln2 = log(2)
bloom_theory(b) = exp(-b * ln2**2)
cuckoo_theory(b) = 1 - (1 - 2**(-b * 0.95))**(8 * 0.95)
bound(b) = 2**(-b)
fuse_theory(b) = 2**(-b / 1.125)

set title sprintf("False-positive rate vs memory: n = %s, u64 keys, target fpr 10%% to 0.01%%; points measured, dashed = theory", nlabel(n))
set xlabel "memory per item (bits)"
set ylabel "false-positive rate (log scale)"
set mxtics 2
set logscale y
set format y "10^{%T}"
# the memory axis ends past the kinds other than counting: counting's
# 4-bit counters take 4x Bloom's bits and once stretched this axis to 80
# bits, squeezing every other kind into its left quarter. Counting's points
# past the edge are named in a label instead (plot 4 does the same).
xmax = 5 * ceil(1.15 * real(system(sprintf("awk -F, -v cols=kind,bits_per_item,bits_per_item_at_full -v where= -f %s/csvsel.awk %s/%s | awk '$1 != \"counting\" { for (i = 2; i <= 3; i++) if ($i != \"NaN\" && $i + 0 > m) m = $i + 0 } END { print m + 0 }'", plotdir, results, file))) / 5)
if (xmax < 10) xmax = 10
set xrange [0:xmax]
# "N MAX FPR": counting's points past xmax, the largest, and its target fpr
coff = system(sprintf("awk -F, -v cols=kind,bits_per_item,target_fpr -v where=kind=counting -f %s/csvsel.awk %s/%s | awk -v x=%g '$2 > x { n++; if ($2 > m) { m = $2; f = $3 } } END { if (n) print n, m, f }'", plotdir, results, file, xmax))
if (strlen(coff) > 0) { \
    set label 2 sprintf("counting: %d more point%s past this edge, up to %.0f bits at fpr %s ->", \
        int(word(coff, 1)), int(word(coff, 1)) > 1 ? "s" : "", real(word(coff, 2)), pct(real(word(coff, 3)))) \
        at graph 0.99, graph 0.62 right font ',9' tc rgb kcolor('counting') front }
set yrange [1e-6:0.5]
set samples 400
# the legend inside, bottom right: below the lower bound nothing can lie,
# and right of 30 bits below 1e-4 nothing does; under the plot (the
# common place) its 12 entries covered the x-axis label
set key inside bottom right vertical maxrows 7 opaque box font ",9" spacing 1.5 # rows tall enough for libbloom's bigger cross
set bmargin 4
cload = first(file, 'load', 'kind=cuckoo')
ptitle(k) = (k eq 'cuckoo' && cload ne '') ? sprintf("cuckoo sized for n (%.0f%% full)", 100*real(cload)) : k
PLOT = "plot bloom_theory(x) w l lw 2 dt 2 lc rgb kcolor('bloom') t 'Bloom theory, optimal k', \
       bloom_theory(x/4) w l lw 2 dt 2 lc rgb kcolor('counting') t 'counting theory (4-bit)', \
       cuckoo_theory(x) w l lw 2 dt 2 lc rgb kcolor('cuckoo') t 'cuckoo theory, 95% load', \
       fuse_theory(x) w l lw 2 dt 2 lc rgb kcolor('fuse') t 'fuse theory, 1.125 f bits', \
       bound(x) w l lw 2 lc rgb 'black' t 'lower bound log₂(1/fpr)', \
       for [k in kinds] sel(file, 'bits_per_item,fpr_measured,fpr_low,fpr_high', 'kind='.k) u 1:2:3:4 w yerrorlines pt kpt(k) ps 1.2 * kps(k) lw 1.5 lc rgb kcolor(k) t ptitle(k), \
       sel(file, 'bits_per_item_at_full,fpr_at_full', 'kind=cuckoo') u 1:2 w lp pt kpt2('cuckoo') ps 1.4 lw 1.5 dt 3 lc rgb kcolor('cuckoo') t 'cuckoo filled to failure'"
set format y "%.0e"
eval png('1_fpr_vs_bits')
eval PLOT
eval svg('1_fpr_vs_bits')
eval PLOT
