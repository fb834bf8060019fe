#!/usr/bin/env python3
"""bench/spike/insn_count.py -- instructions and code bytes a call of a lane
squaring at 37 digits (spike, issue 43), counted from the object's
disassembly: the stream body runs twice, the group loop's body 8 times a
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
        m = re.match(r'^ +[0-9a-f]+:\t([0-9a-f ]+)\t(.*)$', line)
        if m:
            ins.append((len(m.group(1).split()), m.group(2)))
        elif re.match(r'^[0-9a-f]+ <', line):
            label = line.split('<', 1)[1]
            if not (label.startswith(fn + '.') or label.startswith('..@')):
                break
            ins.append((None, label))
    ret = next(i for i, x in enumerate(ins)
               if x[0] and x[1].startswith('ret'))
    carry = next(i for i, x in enumerate(ins)
                 if x[0] is None and x[1].startswith(fn + '.carry'))
    group = next(i for i, x in enumerate(ins)
                 if x[0] is None and '.group>' in x[1])
    jne = next(i for i, x in enumerate(ins)
               if i > group and x[0] and x[1].startswith('jne'))

    def real(xs):
        return [x for x in xs if x[0]]
    body, loop, tail = real(ins[:carry]), real(ins[group:jne + 1]), \
        real(ins[carry:ret + 1])
    n = 2 * len(body) + 2 * 7 * len(loop) + len(tail)
    b = sum(2 * x[0] for x in body) + sum(14 * x[0] for x in loop) + \
        sum(x[0] for x in tail)
    static = real(ins[:ret + 1])
    print(f'{fn}: {n} instructions, {b} bytes a call; the code '
          f'{len(static)} instructions, {sum(x[0] for x in static)} bytes '
          f'(group loop body {len(loop)} instructions, run 16 times)')


if len(sys.argv) < 3 or len(sys.argv) % 2 == 0:
    sys.exit('usage: insn_count.py OBJ FUNCTION [OBJ FUNCTION ...]')
for i in range(1, len(sys.argv), 2):
    count(sys.argv[i], sys.argv[i + 1])
