# bench/chart.gp -- the bench/run chart: one bar panel per key size (µs per
# RSA private-key operation, each build of ours next to GMP and OpenSSL),
# then ops/s against threads.  Called by bench/run with
#   gnuplot -e "bars='…'; threads='…'; out='….png'; title='…';
#               bitslist='1024 2048'; series='chunk32 … OpenSSL';
#               colors='#9ecae1 … #e6550d'; tbits=2048; tmax=2"
# (bars: one index block per key size of lines "label" µs 0xRRGGBB;
#  threads: one index block per series of lines "threads ops/s").

nbits = words(bitslist)
nseries = words(series)
panels = nbits + (nseries > 0 ? 1 : 0)
cols = panels <= 3 ? panels : 3
rows = (panels + cols - 1) / cols

set terminal pngcairo size (cols * 560), (rows * 420 + 40) font "DejaVu Sans,10" noenhanced
set output out
set multiplot layout rows, cols title title font ",12"

set style fill solid 0.9 border -1
set boxwidth 0.7
set grid ytics lc rgb "#dddddd"
set xtics rotate by -40 left nomirror
set ytics nomirror
unset key
set yrange [0:*]
set offsets 0, 0, graph 0.12, 0
set lmargin 10
set bmargin 7

do for [i = 1:nbits] {
	set title sprintf("RSA-%s private key: µs per operation", word(bitslist, i))
	set ylabel "µs / op (lower is better)"
	plot bars index (i - 1) using 0:2:3:xtic(1) with boxes lc rgb variable, \
	     bars index (i - 1) using 0:2:(sprintf("%.0f", $2)) with labels offset 0, 0.6 font ",8"
}

if (nseries > 0) {
	set title sprintf("RSA-%d: ops/s, threads sharing one key", tbits)
	set ylabel "ops/s (total)"
	set xlabel "threads"
	set xtics norotate 1
	set xrange [0.8:tmax + 0.2]
	set key bottom right box opaque
	set offsets 0, 0.2, graph 0.05, 0
	unset style fill
	plot for [i = 1:nseries] threads index (i - 1) using 1:2 with linespoints lw 2 pt 7 lc rgb word(colors, i) title word(series, i)
}
unset multiplot
