# bench/chart.gp -- the bench/run chart: one bar panel per key size (time
# per RSA private-key operation, each build of ours next to GMP and
# OpenSSL, named as the tables name them; hatched bars are blinded), then
# ops/s against threads, a point whose threads had less than lowcpu % of
# their cores labelled with its share.  Called by bench/run with
#   gnuplot -e "bars='…'; threads='…'; out='….png'; title='…';
#               bitslist='1024 2048'; units='ns ns'; series='\"chunk32\" … \"OpenSSL\"';
#               colors='#9ecae1 … #e6550d'; tbits=2048; tmax=2; lowcpu=90" bench/chart.gp
# (bars: one index block per key size of lines "label" time 0xRRGGBB blinded;
#  threads: one index block per series of lines "threads ops/s cpu%").

nbits = words(bitslist)
nseries = words(series)
panels = nbits + (nseries > 0 ? 1 : 0)
cols = panels <= 3 ? panels : 3
rows = (panels + cols - 1) / cols

# Wide enough for the title too (about 8 px a character at 12 pt): one
# panel alone would cut it at both ends.
width = cols * 600
title_width = strlen(title . " (hatched: blinded)") * 8 + 80
width = width < title_width ? title_width : width
set terminal pngcairo size width, (rows * 540 + 40) font "DejaVu Sans,10" noenhanced
set output out
set multiplot layout rows, cols title title." (hatched: blinded)" font ",12"

set boxwidth 0.75
set grid ytics lc rgb "#dddddd"
set xtics rotate by -40 left nomirror font ",9"
set ytics nomirror
unset key
set yrange [0:*]
# Room above the tallest bar for its value, written upwards from the bar's
# top: side by side, horizontal values of neighbouring bars ran together.
set offsets 0, 0, graph 0.25, 0
set lmargin 12
set rmargin 14
# Room for the tables' row names under the bars ("OpenSSL 3.0.19 (system)
# no blinding"), rotated.
set bmargin 13
if (!exists("lowcpu")) lowcpu = 90

# bench/run gives every panel the same unit, ns as in the tables, so that
# panels compare; "us" and "ms" are still understood.
do for [i = 1:nbits] {
	unit = word(units, i) eq "ms" ? "ms" : word(units, i) eq "us" ? "µs" : "ns"
	set title sprintf("RSA-%s private key: %s per operation", word(bitslist, i), unit)
	set ylabel sprintf("%s / op (lower is better)", unit)
	set format y "%.0f"
	plot bars index (i - 1) using 0:($4 == 0 ? $2 : 1/0):3:xtic(1) with boxes fs solid 0.9 border -1 lc rgb variable, \
	     bars index (i - 1) using 0:($4 != 0 ? $2 : 1/0):3 with boxes fs pattern 2 border -1 lc rgb variable, \
	     bars index (i - 1) using 0:2:(sprintf($2 >= 100 ? "%.0f" : "%.3g", $2)) with labels rotate by 90 left offset 0, 0.4 font ",8"
}
set format y "% h"

if (nseries > 0) {
	set ylabel "ops/s (log scale)"
	set xlabel "threads"
	# log2 threads: 1, 2, 4, 8, 16 evenly apart (with 1 to 16 tics a step
	# apart, the narrowed panel ran them together).
	set logscale x 2
	set xtics norotate 2 format "%.0f" font ",10"
	set xrange [0.8:tmax * 1.25]
	set logscale y
	set yrange [*:*]
	set autoscale yfix
	set ytics (1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000, 10000, 20000, \
		   50000, 100000, 200000, 500000, 1000000) format "%.0f" 
	# The key to the right of the plot: below it, it ran over the x label.
	set key outside right top vertical Left reverse box
	set offsets 0, 0, graph 0.1, graph 0.1
	set bmargin 4
	unset rmargin
	# A point whose threads had under lowcpu % of their cores (other load
	# on the machine) is labelled with that share: its ops/s are low for it.
	set title sprintf("RSA-%d: total ops/s, threads sharing one key\n(cpu N %%: the threads had N %% of their cores, labelled below %d %%)", tbits, lowcpu)
	plot for [i = 1:nseries] threads index (i - 1) using 1:2 with linespoints lw 2 pt 7 lc rgb word(colors, i) title word(series, i), \
	     for [i = 1:nseries] threads index (i - 1) using 1:($3 < lowcpu ? $2 : 1/0):(sprintf("cpu %.0f %%", $3)) with labels left offset 0.6, 0.6 font ",8" tc rgb word(colors, i) notitle
}
unset multiplot
