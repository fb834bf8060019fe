#!/usr/bin/env python3
"""bench/spike/unroll_gen.py -- spike (issue 43): does scalar work ride free
beside the lane kernels' column step, and does that depend on where the
front end gets the instructions from?  Emits NASM for three loops:

  vec_only   NV columns of the lane kernels' step (window load, 4 vpmuludq,
             4 vpaddq, column load and store);
  sca_only   NR rows of 8 mulx with adcx/adox into 8 register accumulators;
  both       the two interleaved evenly (a row cut in 4 pieces, flags kept
             between them: only vector instructions in between);

each body repeated U times in the loop.  With a small body the loop runs
from the op cache; with U large the body outgrows it (Zen 3: 4K ops) and
runs from the legacy decoders (4 instructions a cycle), as the unrolled
lane kernels do (bench/spike/insn_count.py).

  NV=16 NR=4 U=1 python3 bench/spike/unroll_gen.py > /tmp/unroll.asm
  nasm -f elf64 /tmp/unroll.asm -o /tmp/unroll.o
  gcc -O2 bench/spike/unroll_main.c /tmp/unroll.o -o /tmp/unroll
  taskset -c 1 /tmp/unroll 16     # ticks per body copy (divides by U)
"""
import os
import sys

NV = int(os.environ.get('NV', 16))
NR = int(os.environ.get('NR', 4))
U = int(os.environ.get('U', 1))
if NV < 1 or NR < 1 or U < 1 or NV > 64:
    sys.exit('unroll_gen: NV (1..64), NR, U must be positive numbers')


def vcol(c):
    w = 4 + c % 4
    o = 32 * c
    return [f'vmovdqa ymm{w}, [rsi+{o}]',
            f'vpmuludq ymm8, ymm0, ymm{4 + c % 4}',
            f'vpmuludq ymm9, ymm1, ymm{4 + (c + 3) % 4}',
            f'vpaddq ymm8, ymm8, [rdi+{o}]',
            'vpaddq ymm8, ymm8, ymm9',
            f'vpmuludq ymm10, ymm2, ymm{4 + (c + 2) % 4}',
            f'vpmuludq ymm11, ymm3, ymm{4 + (c + 1) % 4}',
            'vpaddq ymm10, ymm10, ymm11',
            'vpaddq ymm8, ymm8, ymm10',
            f'vmovdqa [rdi+{o}], ymm8']


ACC = ['r8', 'r9', 'r10', 'r11', 'r12', 'r13', 'r14', 'r15']


def srow(r):
    """a row in 4 pieces: a_r b_0..7 into the accumulators, chains closed
    at the end of the last piece"""
    acc = ACC[r % 8:] + ACC[:r % 8]
    body = []
    for j in range(8):
        body += [f'mulx rbx, rax, [rbp+{64 + 8 * j}]',
                 f'adcx {acc[j]}, rax', f'adox {acc[(j + 1) % 8]}, rbx']
    pieces = [body[i:i + 6] for i in range(0, 24, 6)]
    pieces[0] = [f'mov rdx, [rbp+{8 * (r % 8)}]', 'xor eax, eax'] + pieces[0]
    pieces[-1] += ['mov eax, 0', f'adcx {acc[0]}, rax', f'adox {acc[0]}, rax']
    return pieces


def fn(name, body):
    return '\n'.join(
        [f'global {name}', f'{name}:', 'push rbx', 'push rbp', 'push r12',
         'push r13', 'push r14', 'push r15', 'mov rbp, rdx'] +
        [f'xor {r}d, {r}d' for r in ACC] +
        [f'vpxor ymm{i}, ymm{i}, ymm{i}' for i in range(4)] +
        ['.loop:'] + body * U +
        ['dec rcx', 'jnz .loop', 'vzeroupper', 'pop r15', 'pop r14',
         'pop r13', 'pop r12', 'pop rbp', 'pop rbx', 'ret']) + '\n'


vb = [x for c in range(NV) for x in vcol(c)]
pieces = [p for r in range(NR) for p in srow(r)]
sb = [x for p in pieces for x in p]
at = {}
for i, p in enumerate(pieces):
    at.setdefault(i * NV // len(pieces), []).extend(p)
ib = [x for c in range(NV) for x in vcol(c) + at.get(c, [])]
# f(rdi = columns, rsi = window, rdx = scalar operands, rcx = iterations)
print('default rel\nsection .text')
for name, body in (('vec_only', vb), ('sca_only', sb), ('both', ib)):
    print(fn(name, body))
print('section .note.GNU-stack noalloc noexec nowrite progbits')
