#!/bin/sh
# Spike (issue 44): builds and runs the checks and measurements of
# vert_sqr2_avx2.asm against the library's C kernel, from a configured
# chunk64-asm build (cmake --preset chunk64-asm && cmake --build --preset
# chunk64-asm).  Usage: bench/spike/run.sh [trials]; prints what
# results/amd-epyc-family25-model1/2026-11-29-0849-vert-sqr2-asm.txt holds.
set -e
root=$(cd "$(dirname "$0")/../.." && pwd)
spike=$root/bench/spike
lib=$root/build/chunk64-asm/bignum/libbigmont_bignum.a
inc="-I $root/build/chunk64-asm/bignum/include -I $root -I $root/bignum -DBIGMONT_HAVE_ASM=1"
t=${1:-400}
out=$(mktemp -d)
asm() { nasm -f elf64 -P "$root/asm/x86_64/cfi.inc" -I "$root/asm/x86_64/" $1 "$spike/vert_sqr2_avx2.asm" -o "$2"; }
ab() { # $1 $2: nasm switches of builds A and B
	asm "$1" "$out/a.o"; objcopy --redefine-sym big_vert_sqr2_avx2_asm=va "$out/a.o"
	asm "$2" "$out/b.o"; objcopy --redefine-sym big_vert_sqr2_avx2_asm=vb "$out/b.o"
	gcc -O2 -mavx2 $inc "$spike/vert_sqr2_ab.c" "$out/a.o" "$out/b.o" "$lib" -o "$out/ab"
	taskset -c 1 "$out/ab" "$t"
}
asm "" "$out/k.o"
gcc -O2 -mavx2 $inc "$spike/vert_sqr2_check.c" "$out/k.o" "$lib" -lgmp -o "$out/check"
gcc -O2 -mavx2 $inc -c "$spike/vert_sqr2_powhook.c" -o "$out/hook.o"
gcc -O2 -mavx2 $inc "$spike/vert_sqr2_pow.c" "$out/hook.o" "$out/k.o" "$lib" -lgmp -o "$out/pow"
echo "## 1. checks and kernel timing (C, then asm)"
for s in 44 45 46; do taskset -c 1 "$out/check" $s "$t"; done
echo "## 2. A = -DSCALAR_CHAIN, B = default (paired chain)"
for i in 1 2 3; do ab -DSCALAR_CHAIN -DNONE; done
echo "## 3. the dual exponentiation: C first, then asm first"
for s in 47 48 49; do echo "seed $s, C first"; taskset -c 1 "$out/pow" 61 $s 0 | grep -v "^seed"; echo "seed $s, asm first"; taskset -c 1 "$out/pow" 61 $s 1 | grep -v "^seed"; done
echo "## 4. the scalar-chain reduction alone (timing only)"
r="-DSCALAR_CHAIN -DSKIP_SQR -DSKIP_CARRY"
echo "A = bulk only; B = with the chain on stale lanes, its digits unused"
ab "$r -DBULK_ONLY" "$r -DNO_HEAD -DNO_PRE -DMEM_BCAST"
echo "A = bulk only; B = 45 nops in the chain's place"
ab "$r -DBULK_ONLY" "$r -DNO_HEAD -DNO_PRE -DMEM_BCAST -DCHAIN_NOPS=45"
echo "A = bulk only; B = 20 nops in the chain's place"
ab "$r -DBULK_ONLY" "$r -DNO_HEAD -DNO_PRE -DMEM_BCAST -DCHAIN_NOPS=20"
echo "A = the unused chain; B = the same without its loads of w_1..w_3"
ab "$r -DNO_HEAD -DNO_PRE -DMEM_BCAST" "$r -DNO_HEAD -DNO_PRE -DMEM_BCAST -DCHAIN_NOLOAD"
echo "A = the unused chain; B = the same without its stores of the digits"
ab "$r -DNO_HEAD -DNO_PRE -DMEM_BCAST" "$r -DNO_HEAD -DNO_PRE -DMEM_BCAST -DCHAIN_NOSTORE"
echo "A = the scalar-chain reduction; B = its digits broadcast from slots (MEM_BCAST)"
ab "$r" "$r -DMEM_BCAST"
rm -rf "$out"
