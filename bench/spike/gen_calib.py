#!/usr/bin/env python3
"""Generates calib.asm: throughput probes, void f(const void *p, long iters),
16 independent instructions (or pairs) a loop iteration."""
import sys
probes = {
    "cal_mul": lambda i: [f"vpmuludq ymm{8 + i % 8}, ymm0, ymm1"],
    "cal_load": lambda i: [f"vmovdqu ymm{8 + i % 8}, [rdi + {64 * i}]"],
    "cal_load128": lambda i: [f"vmovdqu xmm{8 + i % 8}, [rdi + {64 * i}]"],
    "cal_mulmem": lambda i: [f"vpmuludq ymm{8 + i % 8}, ymm0, [rdi + {64 * i}]"],
    "cal_addmem": lambda i: [f"vpaddq ymm{8 + i % 8}, ymm0, [rdi + {64 * i}]"],
    "cal_add": lambda i: [f"vpaddq ymm{8 + i % 8}, ymm0, ymm1"],
    "cal_muladd": lambda i: [f"vpmuludq ymm{8 + i % 4}, ymm0, ymm1", f"vpaddq ymm{12 + i % 4}, ymm2, ymm3"],
    "cal_mulmemadd": lambda i: [f"vpmuludq ymm{8 + i % 4}, ymm0, [rdi + {64 * i}]", f"vpaddq ymm{12 + i % 4}, ymm2, ymm3"],
    "cal_dep": lambda i: ["vpaddq ymm8, ymm8, ymm1"],
    "cal_storemix": lambda i: [f"vpmuludq ymm{8 + i % 4}, ymm0, ymm1", f"vpaddq ymm{12 + i % 4}, ymm2, ymm3", f"vmovdqa [rdi + {4096 + 64 * (i % 8)}], ymm0"],
    "cal_store": lambda i: [f"vmovdqa [rdi + {4096 + 64 * i}], ymm0"],
    "cal_load_store": lambda i: [f"vmovdqu ymm{8 + i % 8}, [rdi + {64 * i}]", f"vmovdqa [rdi + {4096 + 64 * i}], ymm0"],
}
out = ["default rel", "section .text"]
for name, f in probes.items():
    out += [f"global {name}", "align 64", f"{name}:", "align 32", ".l:"]
    for i in range(16):
        out += ["\t" + s for s in f(i)]
    out += ["\tdec rsi", "\tjnz .l", "\tvzeroupper", "\tret"]
out.append("section .note.GNU-stack noalloc noexec nowrite progbits")
open(sys.argv[1], "w").write("\n".join(out) + "\n")
