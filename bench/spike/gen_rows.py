#!/usr/bin/env python3
"""gen_rows.py OUT.asm -- writes the NASM of rows_spike.c's variants of the
lane kernels' column step (asm/x86_64/lanes_avx2.inc, ROWS_PASS), on the
kernels' layout: columns 32 bytes apart, y digits 64 bytes apart.

A pass of R rows adds X_r y_{j-r} (0 <= j - r < K) to columns j = 0 ..
K + R - 2 of the pass's base; NROWS rows (or 2 passes, *_flat2) run as
passes with the base R columns up each time.  Forms: *_loop, one pass's
code in a loop over the passes (the reduction's form); *_flat, every
pass unrolled (the square phase's form, code beyond the op cache).
Variants:
  a4win  rows of 4, window of 4 y digits in registers (today's step):
         per column a load, 4 vpmuludq, 4 vpaddq (one with the column as
         memory operand), a store; X ymm0-3, window ymm4-7, sum and
         products ymm8-10, base r8: as lanes_avx2.inc encodes it
  b8mem  rows of 8, y as vpmuludq's memory operand, no window:
         8 vpmuludq, 8 vpaddq, a store a column (9 loads)
  c6mem  rows of 6, as b8mem
  e4mem  rows of 4, as b8mem
  c6win  rows of 6, window of 6 (X ymm0-5, window ymm6-11, sum and
         products ymm13-15: no register left for the digit chain)
  a4s    a4win with the short encodings: every register in a ModRM r/m
         field (window, products) below ymm8 and a base register below
         r8, so every instruction takes the two-byte VEX prefix
  a4s8   a4s with 8-bit displacements: the column and y pointers move
         up 128 bytes (sub reg, -128) when the next access is out of reach
  c6s    c6win with the short encodings
  c6s8   c6s with 8-bit displacements
void f(uint64_t *T, const uint64_t *y, const uint64_t *x, long reps):
T the columns, y the K digits, x the row digits (R x 32 bytes)."""
import sys

K = 37
NROWS = 40
VARIANTS = {  # name: rows, window?, short encodings?, 8-bit displacements?
    "a4win": (4, True, False, False), "b8mem": (8, False, False, False),
    "c6mem": (6, False, False, False), "e4mem": (4, False, False, False),
    "c6win": (6, True, False, False), "a4s": (4, True, True, False),
    "a4s8": (4, True, True, True), "c6s": (6, True, True, False),
    "c6s8": (6, True, True, True),
}
out = []


def e(s):
    out.append("\t" + s)


class Pass:
    def __init__(self, R, win, short, d8):
        self.R, self.win, self.short, self.d8 = R, win, short, d8
        if not short:
            self.X = [f"ymm{r}" for r in range(R)]
            self.W = [f"ymm{R + i}" for i in range(R)] if win else []
            self.U, self.P = (("ymm13", ["ymm14", "ymm15"]) if win and R > 4
                              else ("ymm8", ["ymm9", "ymm10"]))
            self.tbase, self.ybase = "r8", "rsi"
        else:
            self.P = ["ymm0", "ymm1"]
            self.W = [f"ymm{8 - R + i}" for i in range(R)]   # ymm4-7 or ymm2-7
            self.X = [f"ymm{8 + r}" for r in range(R)]
            self.U = "ymm2" if R == 4 else "ymm14"
            self.tbase, self.ybase = "rax", ("rbx" if d8 else "rsi")

    def tmem(self, j):
        d = 32 * j - self.tb
        if self.d8:
            while d > 127:
                e(f"sub {self.tbase}, -128")
                self.tb += 128
                d -= 128
        return f"[{self.tbase} + {d}]"

    def ymem(self, i):
        d = 64 * i - self.yb
        if self.d8:
            while d > 127:
                e(f"sub {self.ybase}, -128")
                self.yb += 128
                d -= 128
        return f"[{self.ybase} + {d}]"

    def body(self):
        R = self.R
        for r in range(R):
            e(f"vmovdqa {self.X[r]}, [rdx + {32 * r}]")
        self.tb = self.yb = 0
        if self.short:
            if self.d8:
                self.tb = self.yb = 128
                e("lea rax, [r8 + 128]")
                e("lea rbx, [rsi + 128]")
            else:
                e("mov rax, r8")
        for j in range(K + R - 1):
            self.column(j)

    def column(self, j):
        R, U, P = self.R, self.U, self.P
        if self.win and j < K:
            e(f"vmovdqu {self.W[j % R]}, {self.ymem(j)}")
        terms = [r for r in range(R) if 0 <= j - r < K]
        for n, r in enumerate(terms):
            src = self.W[(j - r) % R] if self.win else self.ymem(j - r)
            e(f"vpmuludq {P[n % 2]}, {self.X[r]}, {src}")
            if n % 2 == 1 or n == len(terms) - 1:
                for m in range(n - n % 2, n + 1):
                    if m == 0:
                        e(f"vpaddq {U}, {P[0]}, {self.tmem(j)}")
                    else:
                        e(f"vpaddq {U}, {U}, {P[m % 2]}")
        e(f"vmovdqa {self.tmem(j)}, {U}")


def func(name, cfg, flat, npass):
    R = cfg[0]
    p = Pass(*cfg)
    out.extend([f"global {name}", "align 64", f"{name}:"])
    e("push rbx")
    out.append(".rep:")
    e("mov r8, rdi")
    if flat:
        for _ in range(npass):
            p.body()
            e(f"add r8, {32 * R}")
    else:
        e(f"mov r9d, {npass}")
        out.extend(["align 32", ".pass:"])
        p.body()
        e(f"add r8, {32 * R}")
        e("dec r9d")
        e("jnz .pass")
    e("dec rcx")
    e("jnz .rep")
    e("pop rbx")
    e("vzeroupper")
    e("ret")


out.extend(["default rel", "section .text"])
for nm, cfg in VARIANTS.items():
    R = cfg[0]
    func(f"spike_{nm}_loop", cfg, False, NROWS // R)
    func(f"spike_{nm}_flat", cfg, True, NROWS // R)
    func(f"spike_{nm}_flat2", cfg, True, 2)
out.append("section .note.GNU-stack noalloc noexec nowrite progbits")
open(sys.argv[1], "w").write("\n".join(out) + "\n")
