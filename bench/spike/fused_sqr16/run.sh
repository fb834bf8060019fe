#!/bin/sh
# A spike, not in the build: one CRT half's 16-chunk adx Montgomery squaring
# (p) with the other half's squaring in the vertical layout (q, radix 2^28,
# 38 digits) woven into it, checked against GMP and timed against two adx
# squarings.  Needs a chunk64-asm build, NASM, GMP and an AVX2 CPU.
#   bench/spike/fused_sqr16/run.sh [trials]
# The vector half on zmm (fused.asm, vrow.inc; CPUs with AVX-512F) in three
# layouts: each = a vector row after each of the 21 product rows, two in the
# doubling pass and one in each looped reduction row; loop2 = 8 rows in the
# product phase, two in each reduction row; front = all 38 in the product
# phase, two at each of its first 15 hooks.  Then on ymm (fused_avx2.asm,
# vrow_avx2.inc; every AVX2 CPU), the layout each.  Then the squaring and
# the product with the vector half in zmm16-31 (fused_hi.asm, vrow_hi.inc:
# the Karatsuba product keeps values in xmm0-9), and with w in zmm10-14
# and the adx kernels' SSE moves VEX-encoded (fused_hw.asm, vex.patch).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp "$root"/asm/x86_64/mont_rows_adx.inc "$root"/asm/x86_64/mont_window8_adx.inc \
   "$root"/asm/x86_64/mont_sqr16_adx.inc "$root"/asm/x86_64/mont_mul16_adx.inc \
   "$root"/asm/x86_64/cfi.inc "$here"/*.inc "$here"/*.asm "$work"
(cd "$work" && patch -s -p1 < "$here/hooks.patch")
lib="$root/build/chunk64-asm/bignum/libbigmont_bignum.a"
grep -q -w avx512f /proc/cpuinfo && zmm="each loop2 front" || zmm=
for rows in $zmm; do
	nasm -f elf64 -I"$work/" -P"$work/cfi.inc" -DROWS_$rows "$work/fused.asm" -o "$work/fused_$rows.o"
	gcc -O2 "$here/harness.c" "$work/fused_$rows.o" \
		"$lib" -lgmp -o "$work/harness_$rows"
	echo "== rows: $rows"
	taskset -c 1 "$work/harness_$rows" "${1:-400}"
done
nasm -f elf64 -I"$work/" -P"$work/cfi.inc" "$work/fused_avx2.asm" -o "$work/fused_avx2.o"
gcc -O2 -DAVX2 "$here/harness.c" "$work/fused_avx2.o" "$lib" -lgmp -o "$work/harness_avx2"
echo "== ymm (AVX2), rows: each"
taskset -c 1 "$work/harness_avx2" "${1:-400}"
[ -n "$zmm" ] || exit 0
nasm -f elf64 -I"$work/" -P"$work/cfi.inc" "$work/fused_hi.asm" -o "$work/fused_hi.o"
gcc -O2 "$here/harness_hi.c" "$work/fused_hi.o" "$lib" -lgmp -o "$work/harness_hi"
echo "== zmm16-31, w in the frame: squaring and product"
taskset -c 1 "$work/harness_hi" "${1:-400}"
mkdir "$work/vex" && cp "$work"/*.inc "$work"/*.asm "$work/vex/"
(cd "$work/vex" && patch -s -p1 < "$here/vex.patch")
nasm -f elf64 -I"$work/vex/" -P"$work/vex/cfi.inc" "$work/vex/fused_hw.asm" -o "$work/fused_hw.o"
gcc -O2 -DHW "$here/harness_hi.c" "$work/fused_hw.o" "$lib" -lgmp -o "$work/harness_hw"
echo "== w in zmm10-14, SSE moves VEX-encoded: squaring and product"
taskset -c 1 "$work/harness_hw" "${1:-400}"
