#!/usr/bin/env python3
"""bench/spike/insn_count.py -- instructions and code bytes a call of a lane
product or squaring at 37 digits (spike, issue 43), counted from the
object's disassembly: the stream body runs twice, each loop's body (a
backward jne: the product's group passes, the reduction's) 8 times a
stream, the carry pass once.

  python3 bench/spike/insn_count.py OBJ FUNCTION [OBJ FUNCTION ...]

e.g. the build's lanes_sqr37_avx2.asm.o big_lanes_sqr37_avx2_asm and
/tmp/hybrid.o big_lanes_sqr37_hybrid_avx2.  Divided by a call's core
cycles it gives the instructions a cycle the front end delivered.
"""
import os
import re
import subprocess
import sys


def count(obj, fn):
    if not os.path.isfile(obj):
        sys.exit(f'insn_count: no file {obj}')
    out = subprocess.run(['objdump', '-d', '-M', 'intel', obj],
                         capture_output=True, text=True, check=True).stdout
    head = '<' + fn + '>:'
    if head not in out:
        sys.exit(f'insn_count: no function {fn} in {obj}')
    ins = []  # (bytes, text) or (None, label)
    for line in out[out.index(head):].splitlines()[1:]:
        m = re.match(r'^ +([0-9a-f]+):\t([0-9a-f ]+)\t(.*)$', line)
        if m:
            ins.append((len(m.group(2).split()), m.group(3),
                        int(m.group(1), 16)))
        elif re.match(r'^[0-9a-f]+ <', line):
            label = line.split('<', 1)[1]
            if not (label.startswith(fn + '.') or label.startswith('..@')):
                break
            ins.append((None, label, None))
    ret = next(i for i, x in enumerate(ins)
               if x[0] and x[1].startswith('ret'))
    carry = next(i for i, x in enumerate(ins)
                 if x[0] is None and x[1].startswith(fn + '.carry'))
    # the loops: each backward jne, to its label (the label's address is
    # the first instruction after it); at 37 digits each runs LN_G - 1 = 8
    # times a stream
    addr = {}
    pos = 0
    for i, x in enumerate(ins):
        if x[0]:
            pos = i
    loops = []
    for i, x in enumerate(ins):
        m = re.match(r'jne\s+([0-9a-f]+) <', x[1]) if x[0] else None
        if m and i < carry:
            target = int(m.group(1), 16)
            start = next(j for j, y in enumerate(ins)
                         if y[0] and y[2] == target)
            if start < i:
                loops.append((start, i))

    def real(xs):
        return [x for x in xs if x[0]]
    body, tail = real(ins[:carry]), real(ins[carry:ret + 1])
    n = 2 * len(body) + len(tail)
    b = 2 * sum(x[0] for x in body) + sum(x[0] for x in tail)
    for start, end in loops:
        lb = real(ins[start:end + 1])
        n += 2 * 7 * len(lb)
        b += 2 * 7 * sum(x[0] for x in lb)
    static = real(ins[:ret + 1])
    print(f'{fn}: {n} instructions, {b} bytes a call; the code '
          f'{len(static)} instructions, {sum(x[0] for x in static)} bytes; '
          f'loops of ' +
          ', '.join(str(len(real(ins[s:e + 1]))) for s, e in loops) +
          ' instructions, each run 16 times')


if len(sys.argv) < 3 or len(sys.argv) % 2 == 0:
    sys.exit('usage: insn_count.py OBJ FUNCTION [OBJ FUNCTION ...]')
for i in range(1, len(sys.argv), 2):
    count(sys.argv[i], sys.argv[i + 1])
