# plots/4_memory_per_item.gp: (4) memory per item of each filter at equal
# target fpr (sweep over fpr at one n), with the cuckoo filter also filled
# to its first failed insert, the static binary fuse filter (1.125 f bits
# with f = ceil(log2(1/fpr)): steps, not a curve), and the lower bound
# log2(1/fpr). The kinds are named one by one (the scalable chains and
# libbloom stay out: their bits are bloom's and cuckoo's plus links), so a
# new kind needs its own term here. Sizes are exact (the same in every repeat): no error bars,
# and the plot says so.
if (!exists("plotdir")) plotdir = 'plots'
load plotdir.'/common.gnuplot'
file = 'sweep-fpr-u64.csv'
n = real(first(file, 'n', ''))
kinds = kinds_of(file, 'kind=bloom') . ' ' . kinds_of(file, 'kind=blocked') . ' ' . kinds_of(file, 'kind=counting') . ' ' . kinds_of(file, 'kind=cuckoo') . ' ' . kinds_of(file, 'kind=fuse') . ' ' . kinds_of(file, 'kind=ribbon') . ' ' . kinds_of(file, 'kind=quotient')
set title sprintf("Memory per item at equal fpr: n = %s, u64 keys (lower is better; sizes are exact, no spread)", nlabel(n))
eval provenance(file)
set xlabel "target false-positive rate (log scale)"
set ylabel "bits per item"
set logscale x
set xtics ("10%%" 0.1, "3%%" 0.03, "1%%" 0.01, "0.3%%" 0.003, "0.1%%" 0.001, "0.03%%" 0.0003, "0.01%%" 0.0001)
set xrange [0.00007:0.14] reverse
# the memory axis ends past the kinds other than counting (counting's
# 4-bit counters take 4x Bloom's bits and once stretched it to 80 bits,
# squeezing the others into its bottom quarter); counting's points above
# the top are named in a label (plot 1 does the same)
ymax = 5 * ceil(1.15 * real(system(sprintf("awk -F, -v cols=kind,bits_per_item,bits_per_item_at_full -v where= -f %s/csvsel.awk %s/%s | awk '$1 != \"counting\" { for (i = 2; i <= 3; i++) if ($i != \"NaN\" && $i + 0 > m) m = $i + 0 } END { print m + 0 }'", plotdir, results, file))) / 5)
if (ymax < 10) ymax = 10
set yrange [0:ymax]
coff = system(sprintf("awk -F, -v cols=kind,bits_per_item,target_fpr -v where=kind=counting -f %s/csvsel.awk %s/%s | awk -v y=%g '$2 > y { n++; if ($2 > m) { m = $2; f = $3 } } END { if (n) print n, m, f }'", plotdir, results, file, ymax))
if (strlen(coff) > 0) { \
    set label 2 sprintf("counting: %d more point%s above this edge, up to %.0f bits at fpr %s", \
        int(word(coff, 1)), int(word(coff, 1)) > 1 ? "s" : "", real(word(coff, 2)), pct(real(word(coff, 3)))) \
        at graph 0.99, graph 0.96 right font ',9' tc rgb kcolor('counting') front }
cload = first(file, 'load', 'kind=cuckoo')
ctitle(k) = (k eq 'cuckoo' && cload ne '') ? sprintf("cuckoo (sized for n, %.0f%% full)", 100*real(cload)) : \
            (k eq 'fuse') ? 'fuse (static: built from the whole set)' : k.' (sized for n)'
PLOT = "plot for [k in kinds] sel(file, 'target_fpr,bits_per_item', 'kind='.k) u 1:2 w lp pt kpt(k) ps kps(k) lw 2 lc rgb kcolor(k) t ctitle(k), \
            sel(file, 'target_fpr,bits_per_item_at_full', 'kind=cuckoo') u 1:2 w lp pt kpt2('cuckoo') lw 2 dt 2 lc rgb kcolor('cuckoo') t 'cuckoo filled to its first failed insert', \
            1.125 * ceil(log(1/x)/log(2)) w l lw 1 dt 2 lc rgb kcolor('fuse') t 'fuse theory 1.125·ceil(log₂(1/fpr))', \
            log(1/x)/log(2) w l lw 2 lc rgb 'black' t 'lower bound log₂(1/fpr)'"
eval png('4_memory_per_item')
eval PLOT
eval svg('4_memory_per_item')
eval PLOT
