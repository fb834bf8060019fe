# bench/chart.gp -- the bench/run chart: one bar panel per key size (time
# per RSA private-key operation, each build of ours next to GMP and
# OpenSSL; hatched bars are blinded), then ops/s against threads.  Called
# by bench/run with
#   gnuplot -e "bars='…'; threads='…'; out='….png'; title='…';
#               bitslist='1024 2048'; units='us us'; series='chunk32 … OpenSSL';
#               colors='#9ecae1 … #e6550d'; tbits=2048; tmax=2" bench/chart.gp
# (bars: one index block per key size of lines "label" time 0xRRGGBB blinded;
#  threads: one index block per series of lines "threads ops/s").

nbits = words(bitslist)
nseries = words(series)
panels = nbits + (nseries > 0 ? 1 : 0)
cols = panels <= 3 ? panels : 3
rows = (panels + cols - 1) / cols

set terminal pngcairo size (cols * 560), (rows * 430 + 40) font "DejaVu Sans,10" noenhanced
set output out
set multiplot layout rows, cols title title." (hatched: blinded)" font ",12"

set boxwidth 0.75
set grid ytics lc rgb "#dddddd"
set xtics rotate by -40 left nomirror
set ytics nomirror
unset key
set yrange [0:*]
set offsets 0, 0, graph 0.12, 0
set lmargin 10
set rmargin 8
set bmargin 7

do for [i = 1:nbits] {
	unit = word(units, i) eq "ms" ? "ms" : "µs"
	fmt = unit eq "ms" ? "%.3g" : "%.0f"
	set title sprintf("RSA-%s private key: %s per operation", word(bitslist, i), unit)
	set ylabel sprintf("%s / op (lower is better)", unit)
	plot bars index (i - 1) using 0:($4 == 0 ? $2 : 1/0):3:xtic(1) with boxes fs solid 0.9 border -1 lc rgb variable, \
	     bars index (i - 1) using 0:($4 != 0 ? $2 : 1/0):3 with boxes fs pattern 2 border -1 lc rgb variable, \
	     bars index (i - 1) using 0:2:(sprintf(fmt, $2)) with labels offset 0, 0.6 font ",8"
}

if (nseries > 0) {
	set title sprintf("RSA-%d: total ops/s, threads sharing one key", tbits)
	set ylabel "ops/s (log scale)"
	set xlabel "threads"
	set xtics norotate 1
	set xrange [0.8:tmax + 0.2]
	set logscale y
	set yrange [*:*]
	set autoscale yfix
	set ytics (1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000, 10000, 20000, \
		   50000, 100000, 200000, 500000, 1000000) format "%.0f" 
	set key below horizontal maxcols 3 box
	set offsets 0, 0.2, graph 0.1, graph 0.1
	set bmargin 9
	plot for [i = 1:nseries] threads index (i - 1) using 1:2 with linespoints lw 2 pt 7 lc rgb word(colors, i) title word(series, i)
}
unset multiplot
