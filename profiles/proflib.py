"""profiles/proflib.py -- shared by profiles/record, compare and selftest.

What is here:
  * which profiler can run on this machine (perf with hardware cycles, perf
    with the cpu-clock software event, or valgrind's callgrind);
  * the CPU slug, computed with the same rule as the benchmark
    (bench/machine.c slugify, bench/benchlib.py slug), so that
    profiles/<cpu-slug>/ matches results/<cpu-slug>/;
  * the function table: building it from `perf script` call chains or from
    callgrind_annotate, writing it, and reading it back from a profile file.

Python 3 standard library only.
"""

import bisect
import os
import re
import shutil
import subprocess

# A profile file's table sits between these two lines, so that compare and
# selftest read exactly what record wrote.
TABLE_BEGIN = "--- function table ---"
TABLE_END = "--- end of function table ---"

# The library's multiply kernels, whatever the build and variant:
# big_mul_add_vec (and its _c/_base/_adx variants), big_mont_mul_vec*,
# big_mont_sqr_vec*, and in the ifma variant the radix-2^52 code (r52_*,
# whose inlined steps have rows of their own) and the IFMA intrinsics it
# inlines (_mm256_madd52lo_epu64, ...), and its 20-digit NASM kernels
# (big_r52_dual_sqr20_ifma_amd/_intel, the top of an RSA-2048 profile).
KERNEL_RE = re.compile(r"^(big_(mul_add_vec|mont_mul_vec|mont_sqr_vec)\w*|(big_)?r52_\w+|_mm\d*_madd52\w+)$")

# Functions under which every sample of the benchmark's steady-state loop
# falls (--batch: bench/batch.c's time_rounds); record checks that their
# inclusive share is close to 100 %.
LOOP_FUNCTIONS = ("bench_measure", "bench_time_ops", "time_rounds")
# With --threads T > 1, the entry of bench/threads.c's threads, whose
# windows run beside the main thread's loop.
THREAD_LOOP_FUNCTION = "thread_main"


def slug(text):
    """'AMD EPYC 7R13 Processor' -> 'amd-epyc-7r13-processor': runs of
    non-alphanumerics become one '-', lowercased, no '-' at either end."""
    s = re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")
    return s or "unknown-cpu"


def _cpuinfo_field(name):
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                key, sep, value = line.partition(":")
                if sep and key.strip() == name:
                    return value.strip()
    except OSError:
        pass
    return None


def cpu_model():
    return _cpuinfo_field("model name") or "unknown CPU"


def cpu_slug():
    """The model name's slug plus '-family<F>-model<M>' where /proc/cpuinfo
    gives them: virtual machines often say only 'AMD EPYC', which names
    several generations (bench/machine.c, the same rule)."""
    s = slug(cpu_model())
    family, model = _cpuinfo_field("cpu family"), _cpuinfo_field("model")
    if family and model and family.isdigit() and model.isdigit():
        s += "-family%s-model%s" % (family, model)
    return s


# ---- which tool can run -------------------------------------------------

def _run(cmd, timeout=60):
    try:
        p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           universal_newlines=True, timeout=timeout)
        return p.returncode, p.stdout + p.stderr
    except (OSError, subprocess.SubprocessError) as e:
        return -1, str(e)


def perf_event():
    """('cycles' | 'cpu-clock', why) when perf can sample here, else
    (None, why).  `perf stat -x,` prints '<not supported>' for an event the
    machine lacks (a VM without a virtual PMU), and fails outright when
    perf_event_paranoid forbids everything."""
    if shutil.which("perf") is None:
        return None, "perf is not installed"
    why = []
    for ev in ("cycles", "cpu-clock"):
        rc, out = _run(["perf", "stat", "-x,", "-e", ev, "true"])
        ok = rc == 0 and not re.search(r"<not (supported|counted)>", out)
        if ok:
            return ev, "; ".join(why) if why else ""
        first = out.strip().splitlines()[0] if out.strip() else "rc=%d" % rc
        why.append("perf -e %s: %s" % (ev, first[:160]))
    return None, "; ".join(why)


def callgrind_ok():
    """(True, '') when valgrind --tool=callgrind and callgrind_annotate run."""
    if shutil.which("valgrind") is None:
        return False, "valgrind is not installed"
    if shutil.which("callgrind_annotate") is None:
        return False, "callgrind_annotate is not installed"
    rc, out = _run(["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null",
                    "true"])
    if rc != 0:
        return False, "valgrind --tool=callgrind true failed: %s" % out.strip()[:160]
    return True, ""


# ---- the table ----------------------------------------------------------

class Row(object):
    __slots__ = ("excl_pct", "incl_pct", "excl", "incl", "name", "dso")

    def __init__(self, excl_pct, incl_pct, excl, incl, name, dso):
        self.excl_pct, self.incl_pct = excl_pct, incl_pct
        self.excl, self.incl = excl, incl
        self.name, self.dso = name, dso


def table_from_counts(excl, incl, total, threshold=0.1):
    """Rows for every function whose exclusive or inclusive share is at
    least threshold %, sorted by exclusive share, then inclusive.
    excl, incl: {(name, dso): count}."""
    rows = []
    for key in set(excl) | set(incl):
        e, i = excl.get(key, 0), incl.get(key, 0)
        ep = 100.0 * e / total if total else 0.0
        ip = 100.0 * i / total if total else 0.0
        if ep >= threshold or ip >= threshold:
            rows.append(Row(ep, ip, e, i, key[0], key[1]))
    rows.sort(key=lambda r: (-r.excl, -r.incl, r.name))
    return rows


def format_table(rows, unit):
    """The table as text; unit names the counts (samples, Ir)."""
    w = max([len(unit) + 6] + [len("%d" % r.incl) for r in rows])
    head = "%8s %8s  %*s  %*s  %s  %s" % (
        "Excl. %", "Incl. %", w, "Excl. " + unit, w, "Incl. " + unit,
        "Function", "[object]")
    out = [TABLE_BEGIN, head]
    for r in rows:
        out.append("%8.2f %8.2f  %*d  %*d  %s  [%s]" % (
            r.excl_pct, r.incl_pct, w, r.excl, w, r.incl, r.name, r.dso))
    out.append(TABLE_END)
    return "\n".join(out) + "\n"


_ROW_RE = re.compile(r"^\s*([0-9.]+)\s+([0-9.]+)\s+(\d+)\s+(\d+)\s+(.+?)\s+\[([^\]]*)\]\s*$")


def read_profile(path):
    """(header lines, rows) of a profile file written by profiles/record.
    Raises ValueError, naming the file and line, if the table is missing
    or a row does not parse."""
    with open(path, errors="replace") as f:
        lines = f.read().splitlines()
    try:
        start = lines.index(TABLE_BEGIN)
        end = lines.index(TABLE_END, start)
    except ValueError:
        raise ValueError("%s: no function table (expected a '%s' line)" % (path, TABLE_BEGIN))
    rows = []
    for n, line in enumerate(lines[start + 2:end], start + 3):
        m = _ROW_RE.match(line)
        if m is None:
            raise ValueError("%s:%d: not a table row: %r" % (path, n, line))
        rows.append(Row(float(m.group(1)), float(m.group(2)), int(m.group(3)),
                        int(m.group(4)), m.group(5), m.group(6)))
    return lines[:start], rows


# ---- perf script -> counts ----------------------------------------------

_FRAME_RE = re.compile(r"^\s+([0-9a-f]+)\s+(.*?)\s+\((.*)\)\s*$")


def short_dso(dso):
    """'/usr/lib/.../libc.so.6' -> 'libc.so.6', '[kernel.kallsyms]' -> 'kernel'
    (no brackets, so that the table's '[object]' column parses back)."""
    if dso.startswith("/"):
        return os.path.basename(dso)
    if dso == "[kernel.kallsyms]":
        return "kernel"
    return dso.strip("[]") or "?"


def perf_counts(script_text, repair=None, real_excl=None):
    """Parse `perf script -F comm,pid,tid,period,event,ip,sym,dso` output
    (with call chains).  Returns (excl, incl, total, samples, broken):
    counts weighted by each sample's period; a function counts once per
    sample in incl even when it recurses; broken = weight of samples whose
    chain does not reach a process or thread entry point (main,
    start_thread, _start, a kernel-only chain), i.e. could not be unwound.
    repair, if given, maps each chain [(sym, dso), ...] (leaf first) to the
    chain to count.  real_excl, if given, a dict, takes each sample's weight
    under its innermost frame that is not an inlined function (perf's
    '[inlined]' object): the function whose code ran, with what the
    compiler inlined into it."""
    excl, incl = {}, {}
    total = samples = broken = 0
    frames, period = [], 0
    roots = ("main", "__libc_start_call_main", "__libc_start_main", "_start",
             "start_thread", "clone", "clone3", "_dl_start_user", "_dl_start")

    def flush():
        nonlocal total, samples, broken, frames
        if not frames:
            return
        if repair is not None:
            frames = repair(frames)
        keys = []
        for sym, dso in frames:
            if sym == "[unknown]":
                sym = "[unknown]"
            keys.append((sym, short_dso(dso)))
        w = period or 1
        total += w
        samples += 1
        excl[keys[0]] = excl.get(keys[0], 0) + w
        if real_excl is not None:
            own = next((k for k in keys if k[1] != "inlined"), keys[0])
            real_excl[own] = real_excl.get(own, 0) + w
        for k in set(keys):
            incl[k] = incl.get(k, 0) + w
        user = [s for s, d in frames if d != "[kernel.kallsyms]"]
        if user and user[-1] not in roots:
            broken += w

    for line in script_text.splitlines():
        if not line.strip():
            flush()
            frames, period = [], 0
            continue
        if line[0] not in " \t":
            flush()
            frames = []
            # "comm pid/tid period event:" -- the period is the number
            # right before the event name.
            m = re.search(r"\s(\d+)\s+\S+:\s*$", line)
            period = int(m.group(1)) if m else 1
            continue
        m = _FRAME_RE.match(line)
        if m:
            frames.append((m.group(2), m.group(3)))
    flush()
    return excl, incl, total, samples, broken


# ---- which functions are NASM kernels -----------------------------------

def nasm_kernel_symbols(readelf_text):
    """The NASM kernels among the symbols `readelf -sW` lists: the library's
    (big_*) defined FUNC symbols of size 0.  NASM gives every `global
    NAME:function` size 0 (the kernels set none) while the C compiler gives
    each function its size, so this finds every kernel under whatever name
    the .asm file builds for it (big_mont_sqr_vec_adx_16,
    big_r52_dual_sqr20_ifma_intel and _amd, big_r52_dual20_ifma_wipe, ...)
    with no list to keep up to date.  (Size 0 alone would also take the C
    runtime's frame_dummy, _init, ... and the linker's *.cold pieces.)  The
    ifunc names the C code calls (big_r52_dual_sqr20_ifma_asm,
    big_mont_sqr_vec) are IFUNC symbols, not FUNC: perf never shows them."""
    names = set()
    for line in readelf_text.splitlines():
        f = line.split()
        # Num: Value Size Type Bind Vis Ndx Name
        if len(f) >= 8 and f[0].endswith(":") and f[3] == "FUNC" and f[6] != "UND":
            try:
                size = int(f[2], 0)
            except ValueError:
                continue
            name = f[7].split("@")[0]
            if size == 0 and name.startswith("big_") and "." not in name:
                names.add(name)
    return names


def nasm_kernels(exe):
    """nasm_kernel_symbols of the executable exe (readelf, of binutils, as
    static_calls' objdump); an empty set when it cannot be read."""
    try:
        r = subprocess.run(["readelf", "-sW", exe], stdout=subprocess.PIPE,
                           stderr=subprocess.DEVNULL, universal_newlines=True)
    except OSError:
        return set()
    return nasm_kernel_symbols(r.stdout) if r.returncode == 0 else set()


def nasm_label_owners(readelf_text, kernels):
    """{label: kernel} for the local labels inside the NASM kernels, from
    `readelf -sW`: perf names a sample after the nearest symbol below it,
    so a kernel whose loops have labels (the lane kernels'
    big_lanes_sqr37_avx2_asm.stream, the macro-local ..@1560.group) shows
    as several pieces under names no function has.  A label's owner is the
    nearest function symbol at or below it in its section; it is mapped
    when that is one of kernels (nasm_kernel_symbols).  A name that
    labels places in two different kernels (NASM's ..@ numbering restarts
    in every file) is left out: it cannot be told apart by name."""
    funcs, labels = [], []
    for line in readelf_text.splitlines():
        f = line.split()
        if len(f) < 8 or not f[0].endswith(":") or f[6] in ("UND", "ABS"):
            continue
        try:
            value = int(f[1], 16)
        except ValueError:
            continue
        name = f[7].split("@")[0] if not f[7].startswith("..@") else f[7]
        if f[3] == "FUNC":
            funcs.append((f[6], value, name))
        elif f[3] == "NOTYPE" and f[4] == "LOCAL":
            labels.append((f[6], value, name))
    funcs.sort()
    keys = [(ndx, value) for ndx, value, _ in funcs]
    owners, ambiguous = {}, set()
    for ndx, value, name in labels:
        i = bisect.bisect_right(keys, (ndx, value)) - 1
        owner = funcs[i][2] if i >= 0 and funcs[i][0] == ndx else None
        if owner not in kernels or name in kernels:
            continue
        if owners.get(name, owner) != owner:
            ambiguous.add(name)
        owners[name] = owner
    for name in ambiguous:
        del owners[name]
    return owners


def nasm_labels(exe, kernels):
    """nasm_label_owners of the executable exe; {} when it cannot be read."""
    try:
        r = subprocess.run(["readelf", "-sW", exe], stdout=subprocess.PIPE,
                           stderr=subprocess.DEVNULL, universal_newlines=True)
    except OSError:
        return {}
    return nasm_label_owners(r.stdout, kernels) if r.returncode == 0 else {}


def fold_labels(owners, dso):
    """A chain map for perf_counts: every frame in the object dso (as
    short_dso names it) whose symbol is one of owners' labels, renamed to
    the kernel that holds it."""
    def fold(frames):
        return [(owners.get(sym, sym) if short_dso(d) == dso else sym, d)
                for sym, d in frames]
    return fold


# ---- the executable's PLT entries, named by their targets ---------------

def plt_entry_names(objdump_text, nm_text):
    """[(start, name), ...] sorted, for the PLT entries `objdump -d -j .plt
    -j .plt.sec` lists.  perf names the entries of a PLT that holds ifunc
    slots wrongly: an IRELATIVE relocation has no symbol, so perf's count
    of them slips and a sample in the stub of the ifunc big_mont_sqr_vec
    shows as munmap@plt, one in memcpy's as dlsym@plt.  objdump names each
    entry by its relocation: memcpy@plt, or *ABS*+0xADDR@plt for an ifunc,
    whose name nm gives at ADDR (type i).  The PLT's first entry, the
    resolver's trampoline (getegid@plt-0x10), is named [PLT0]."""
    ifuncs = {}
    for line in nm_text.splitlines():
        f = line.split()
        if len(f) == 3 and f[1] == "i":
            ifuncs.setdefault(int(f[0], 16), f[2])
    entries = []
    for m in re.finditer(r"^([0-9a-f]+) <([^>]+)>:$", objdump_text, re.M):
        start, name = int(m.group(1), 16), m.group(2)
        a = re.match(r"^\*ABS\*\+0x([0-9a-f]+)@plt$", name)
        if a:
            name = ifuncs.get(int(a.group(1), 16), name[:-4]) + "@plt"
        elif re.search(r"@plt[+-]0x[0-9a-f]+$", name):
            name = "[PLT0]"
        entries.append((start, name))
    return sorted(entries)


def plt_names(exe):
    """plt_entry_names of the executable exe; [] when objdump or nm cannot
    read it (the frames then keep perf's names)."""
    try:
        dis = subprocess.run(["objdump", "-d", "-j", ".plt", "-j", ".plt.sec", exe],
                             stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                             universal_newlines=True)
        nm = subprocess.run(["nm", exe], stdout=subprocess.PIPE,
                            stderr=subprocess.DEVNULL, universal_newlines=True)
    except OSError:
        return []
    if dis.returncode != 0:
        return []
    return plt_entry_names(dis.stdout, nm.stdout)


def rename_plt_frames(script_text, entries, dso):
    """`perf script` text with every frame of the object dso (as short_dso
    names it) whose symbol ends in @plt renamed after the entry that holds
    its address (plt_entry_names; an entry ends where the next begins, the
    last 16 bytes on).  Other frames are left as they are."""
    if not entries:
        return script_text
    starts = [s for s, _ in entries]

    def name_at(ip):
        i = bisect.bisect_right(starts, ip) - 1
        if i < 0:
            return None
        end = starts[i + 1] if i + 1 < len(starts) else starts[i] + 16
        return entries[i][1] if ip < end else None

    out = []
    for line in script_text.splitlines(True):
        m = _FRAME_RE.match(line)
        if m and m.group(2).endswith("@plt") and short_dso(m.group(3)) == dso:
            name = name_at(int(m.group(1), 16))
            if name is not None:
                line = line[:m.start(2)] + name + line[m.end(2):]
        out.append(line)
    return "".join(out)


# ---- the direct callers of the assembly kernels -------------------------

def static_calls(exe):
    """{function: set of functions it calls or tail-jumps to} from
    `objdump -d`; calls through the PLT to an ifunc (*ABS*+0xADDR@plt) are
    resolved to the ifunc's name with nm.  {} when objdump is missing."""
    try:
        nm = subprocess.run(["nm", exe], stdout=subprocess.PIPE,
                            stderr=subprocess.DEVNULL, universal_newlines=True).stdout
        dis = subprocess.run(["objdump", "-d", "--no-show-raw-insn", exe],
                             stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                             universal_newlines=True).stdout
    except OSError:
        return {}
    ifunc = {}
    for line in nm.splitlines():
        f = line.split()
        if len(f) == 3 and f[1] in ("i", "T", "t"):
            ifunc.setdefault(int(f[0], 16), f[2])
    calls, cur = {}, None
    head = re.compile(r"^[0-9a-f]+ <([^>]+)>:$")
    ins = re.compile(r"^\s*[0-9a-f]+:\s+(call|jmp)\s+[0-9a-f]+ <([^>]+)>")
    for line in dis.splitlines():
        m = head.match(line)
        if m:
            cur = m.group(1)
            continue
        m = ins.match(line)
        if m is None or cur is None:
            continue
        target = m.group(2)
        a = re.match(r"^\*ABS\*\+0x([0-9a-f]+)@plt$", target)
        if a:
            target = ifunc.get(int(a.group(1), 16), target)
        elif target.endswith("@plt"):
            target = target[:-4]
        elif "+0x" in target or "-0x" in target:
            continue  # a jump inside a function, not a call
        calls.setdefault(cur, set()).add(target)
    return calls


def kernel_caller_repair(calls, is_kernel):
    """A function that, given one sample's call chain [(sym, dso), ...],
    puts back the frame perf cannot see when the sample is in a leaf
    assembly kernel: the C function that called it.  The chain shows the
    kernel, then its caller's caller X; the missing frame is the one
    function that X calls and that calls a kernel entry (directly or through
    an ifunc).  When there is not exactly one such function, the chain is
    left as it is.  Returns (repair, stats) where stats counts repaired and
    unrepaired kernel samples."""
    kernel_entries = {f for f in calls if is_kernel(f)}
    # Entries reached through the ifunc names (big_mont_sqr_vec -> _adx ->
    # _adx_16): any callee whose name begins a kernel's name.
    def calls_kernel(fn):
        for t in calls.get(fn, ()):
            if t in kernel_entries or any(k.startswith(t + "_") for k in kernel_entries):
                return True
        return False
    callers = {f for f in calls if not is_kernel(f) and calls_kernel(f)}
    memo = {}
    stats = {"repaired": 0, "left": 0}

    def repair(frames):
        # The first user-space frame (a sample taken in the Linux kernel
        # shows the kernel's frames first).
        i = 0
        while i < len(frames) and frames[i][1] == "[kernel.kallsyms]":
            i += 1
        if i + 1 >= len(frames) or not is_kernel(frames[i][0]):
            return frames
        x = frames[i + 1][0]
        if x not in memo:
            ys = [y for y in calls.get(x, ()) if y in callers]
            memo[x] = ys[0] if len(ys) == 1 else None
        y = memo[x]
        if y is None:
            stats["left"] += 1
            return frames
        stats["repaired"] += 1
        return frames[:i + 1] + [(y, frames[i][1])] + frames[i + 1:]
    return repair, stats
