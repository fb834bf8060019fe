#!/usr/bin/env python3
"""Smoke test of `bigmont speed`: a tiny run (--seconds 0.05 --bits 1024
--threads 1,2) must succeed, print its tables, and write JSON that parses
and holds a measurement of every implementation it claims (the newest
OpenSSL, of the cryptography wheel, with its version in the same run as
the system's, or the reason it is missing), with locks per
operation (none for ours, some for OpenSSL's EVP_PKEY_decrypt) and the
thread table's efficiency with its range; usage errors must exit 2 with a
"bigmont: error:" message and write no JSON; `--kernels` must print its
tables with one calibration of ticks per cycle (in 64-bit builds the table
read and the squaring with the table read, each row with five timings) or,
with 32-bit chunks, say why it cannot and exit 1; its peak lines (the
multiplier measured, or not in a build without the assembly) and, where the
peak is measured, each Montgomery and radix-2^52 ifma kernel's bound and %
of peak, in the text and in the JSON's "kernels" (peaks within 0.25..2);
its tables run a small --seconds, which scales their trials: each
table's "best of N" and the JSON's "kernels.trials" must be the count
bench_kernel_trials (bench/cycles.h) gives for it.
Intel's ipp-crypto: measured with its version and CPU features where its
libraries load (mb8 n/a with the reason on a CPU without AVX-512 IFMA);
a libippcp that does not load leaves it out with the reason; a stand-in
that answers zero (IPP_STANDIN, tests/support/ipp_standin.c) fails the run
saying so, as libippcp and, beside the real libippcp, as libcrypto_mb.

usage: bench_smoke.py BIGMONT WORKDIR [IPP_STANDIN]
"""
import importlib.machinery
import importlib.util
import json
import os
import re
import subprocess
import sys

# Under an emulator (the aarch64 cross build's qemu, BIGMONT_EMULATOR)
# every program runs about ten times slower.
SLOWER = 10 if os.environ.get("BIGMONT_EMULATOR") else 1

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "bench"))
import benchlib  # noqa: E402

failures = []

# Words of x86-64's instructions and extensions that an aarch64 build's
# report and --kernels tables must not print (issue 45): the OpenSSL
# no-IFMA row, the mulx/IFMA/AVX2 peaks and bounds, rdtsc.
X86_WORDS = ("noifma", "no-ifma", "ifma", "mulx", "vpmuludq", "vpmadd52", "avx512",
             "avx-512", "avx2", "rdtsc", "ia32cap")
# ipp-crypto's reason off x86-64 (bench/ipp.h, BENCH_IPP_NOT_X86).
IPP_NOT_X86 = "ipp-crypto is x86-64 only"


def x86_words_in(text):
    low = text.lower()
    return [w for w in X86_WORDS if w in low]


# A stand-in for the wheel's python (argv: -I -c SCRIPT, ignored): mode
# "zeros" signs and decrypts to zero bytes, "err" fails every operation.
FAKE_WHEEL = """#!%s
import sys
mode = %r
print("hello 50.0.2 OpenSSL 4.0.3 (stand-in)", flush=True)
size = 0
for line in sys.stdin.buffer:
    w = line.split()
    if w and w[0] == b"key":
        sys.stdin.buffer.read(int(w[1]))
        size = 128
        print("ok %%d" %% size, flush=True)
    elif w and w[0] in (b"sig", b"oaep"):
        print("out " + "00" * size if mode == "zeros" else "err boom", flush=True)
    elif w and w[0] == b"quit":
        break
    else:
        print("err unexpected", flush=True)
"""


def check(cond, what):
    if not cond:
        failures.append(what)
        print("FAIL: " + what)


def check_wheel(doc, report):
    """The newest OpenSSL's column: a version and a measurement from the
    same run as the system's OpenSSL, or no measurement and a reason."""
    m, claimed = doc["machine"], doc["settings"]["implementations"]
    version, note = m.get("openssl_wheel_version"), m.get("openssl_wheel_note")
    check(bool(version) != bool(note), "the wheel has a version or a reason, not both "
          "(%r, %r)" % (version, note))
    recs = {(r["implementation"], r["key"]) for r in doc["records"]
            if r["threads"] == 1 and r["samples"] > 0}
    if version:
        check(version.startswith("OpenSSL "), "the wheel's version %r" % version)
        check("wheel     %s (PyPI cryptography" % version in report,
              "the report names the wheel's OpenSSL")
        for impl in ("openssl-wheel", "openssl-wheel-oaep"):
            check(impl in claimed, "%s is claimed" % impl)
        for key in {k for _, k in recs}:
            # One document is one run: both OpenSSL figures of a key in it.
            check(("openssl", key) in recs and ("openssl-wheel", key) in recs and
                  ("openssl-wheel-oaep", key) in recs,
                  "both OpenSSL figures for %s in the same run" % key)
        for rec in doc["records"]:
            if rec["implementation"].startswith("openssl-wheel"):
                check(rec["blinding"] is True, "the wheel's OpenSSL blinds")
                ovh = rec.get("call_overhead_ns")
                check(isinstance(ovh, (int, float)) and 0 < ovh < rec["median_ns"],
                      "the Python layer's cost per call is measured (%r)" % ovh)
                check(rec["locks_per_op"] is None, "no lock count from the wheel's child")
                check(rec["cycles_per_op"] is None, "no cycles from the wheel's child")
    else:
        check(not any(i.startswith("openssl-wheel") for i in claimed),
              "openssl-wheel is not claimed without it")
        check("wheel     OpenSSL of the cryptography wheel not measured: %s" % note in report,
              "the report says why the wheel is not measured")


def cpu_has_ifma():
    with open("/proc/cpuinfo") as f:
        for line in f:
            if line.startswith("flags"):
                return "avx512ifma" in line.split()
    return False


def check_ipp(doc, report):
    """ipp-crypto's columns: a version, its CPU features and a measurement
    from the same run as OpenSSL's, mb8 measured or n/a with the reason
    (n/a without AVX-512 IFMA); or neither claimed and the reason."""
    m, claimed = doc["machine"], doc["settings"]["implementations"]
    version, note = m.get("ipp_version"), m.get("ipp_note")
    check(bool(version) != bool(note), "ipp-crypto has a version or a reason, not both "
          "(%r, %r)" % (version, note))
    if not version:
        check(not any(i.startswith("ipp-crypto") for i in claimed),
              "ipp-crypto is not claimed without it")
        check("ipp       ipp-crypto not measured: %s" % note in report,
              "the report says why ipp-crypto is not measured")
        return
    check("ipp       %s" % version in report and "enabled CPU features 0x" in report,
          "the header names ipp-crypto and the CPU features it enabled")
    check(m.get("ipp_features", "").startswith("0x"), "ipp_features %r" % m.get("ipp_features"))
    for impl in ("ipp-crypto", "ipp-crypto-mb8"):
        check(impl in claimed, "%s is claimed" % impl)
    recs = [r for r in doc["records"] if r["threads"] == 1]
    for key in {r["key"] for r in recs}:
        single = [r for r in recs if r["key"] == key and r["implementation"] == "ipp-crypto"]
        check(len(single) == 1 and single[0]["samples"] > 0 and single[0]["blinding"] is False,
              "ipp-crypto measured on %s, without blinding" % key)
        mb = [r for r in recs if r["key"] == key and r["implementation"] == "ipp-crypto-mb8"]
        check(len(mb) == 1, "one ipp-crypto-mb8 record for %s" % key)
        if not mb:
            continue
        if cpu_has_ifma() and m.get("ipp_mb_version"):
            check(mb[0]["samples"] > 0, "ipp-crypto-mb8 measured on %s" % key)
        else:
            check(mb[0]["samples"] == 0 and "not measured: " in (mb[0]["note"] or "") and
                  m.get("ipp_mb_note"), "ipp-crypto-mb8 n/a with the reason (%r)" % mb[0])
    if not cpu_has_ifma():
        check("mbx_is_crypto_mb_applicable says this CPU cannot run it" in
              (m.get("ipp_mb_note") or ""), "mb8 refused where the CPU lacks AVX-512 IFMA: %r"
              % m.get("ipp_mb_note"))
        check("ipp-crypto-mb8     n/a      not measured: libcrypto_mb" in report,
              "the table says why mb8 is n/a")


def speed_1024_json(exe, out, env, ipp_lib, **extra):
    """`bigmont speed` on the 1024-bit key against OpenSSL, briefly, with
    ipp-crypto from ipp_lib, no wheel, the JSON into out (removed first)."""
    if os.path.exists(out):
        os.remove(out)
    return subprocess.run([exe, "speed", "--seconds", "0.02", "--bits", "1024",
                           "--compare", "openssl", "--json", out],
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          universal_newlines=True,
                          env=dict(env, BIGMONT_IPP_LIB=ipp_lib, BIGMONT_WHEEL_VENV="", **extra),
                          timeout=60 * SLOWER)


def check_ipp_standins(exe, work, env, standin, real_dir, x86=True):
    """A libippcp that does not load: left out with the reason, exit 0.
    The stand-in answering zero as libippcp, and as libcrypto_mb beside the
    real libippcp: the run fails saying which gives a wrong result.  Off
    x86-64 nothing is loaded: every case runs, saying ipp-crypto is x86-64
    only."""
    out = os.path.join(work, "ipp.json")
    broken = os.path.join(work, "ipp-broken")
    os.makedirs(broken, exist_ok=True)
    with open(os.path.join(broken, "libippcp.so"), "w") as f:
        f.write("not a shared library\n")
    cases = [(broken, 0, None)]
    if standin:
        wrong = os.path.join(work, "ipp-wrong")
        cases.append((wrong, 1, "ipp-crypto gives a wrong result on the key"))
        libs = ["libippcp.so", "libcrypto_mb.so", "libintlc.so.5", "libimf.so", "libsvml.so",
                "libirng.so"]
        links = [(wrong, name, standin) for name in libs]
        if real_dir:
            # the real libippcp alone: mb8's note names the missing
            # libcrypto_mb.so, not the Intel runtime it would need
            alone = os.path.join(work, "ipp-no-mb")
            cases.append((alone, 0, None))
            links.append((alone, "libippcp.so", os.path.join(real_dir, "libippcp.so")))
            mixed = os.path.join(work, "ipp-wrong-mb8")
            cases.append((mixed, 1, "ipp-crypto-mb8 gives a wrong result on the key"))
            links += [(mixed, "libippcp.so", os.path.join(real_dir, "libippcp.so"))]
            links += [(mixed, name, standin) for name in libs[1:]]
        for d, name, target in links:
            os.makedirs(d, exist_ok=True)
            path = os.path.join(d, name)
            if os.path.lexists(path):
                os.remove(path)
            os.symlink(target, path)
    for d, code, want in cases:
        r = speed_1024_json(exe, out, env, d)
        name = os.path.basename(d)
        if not x86:
            note = None
            if r.returncode == 0:
                note = benchlib.load_speed_json(out)["machine"]["ipp_note"] or ""
            check(r.returncode == 0 and note.startswith(IPP_NOT_X86) and
                  "ipp-crypto not measured: " + note in r.stdout,
                  "%s off x86-64: exit 0, ipp-crypto x86-64 only, nothing loaded (got %d, "
                  "%r, %s)" % (name, r.returncode, note, r.stderr))
            continue
        if code == 0:
            check(r.returncode == 0, "%s: exit 0 (got %d, %s)" % (name, r.returncode, r.stderr))
            if r.returncode == 0 and d == broken:
                doc = benchlib.load_speed_json(out)
                check("does not load" in (doc["machine"]["ipp_note"] or ""),
                      "%s: the note says it does not load (%r)" % (name,
                                                                 doc["machine"]["ipp_note"]))
                check_ipp(doc, r.stdout)
            elif r.returncode == 0:
                mb_note = benchlib.load_speed_json(out)["machine"].get("ipp_mb_note") or ""
                check(mb_note.startswith("no libcrypto_mb.so in %s " % d),
                      "%s: mb8's note names the missing libcrypto_mb.so (%r)" % (name, mb_note))
        else:
            check(r.returncode == 1 and want in r.stderr,
                  "%s: exit 1 saying %r (got %d, %s)" % (name, want, r.returncode,
                                                         r.stderr.strip()))
            check(not os.path.exists(out), "%s: no JSON written" % name)
    if standin and real_dir and x86:
        # libcrypto_mb without a CRT method for the key's size: mb8 n/a
        # with the reason, the run goes on.
        r = speed_1024_json(exe, out, env, os.path.join(work, "ipp-wrong-mb8"),
                            IPP_STANDIN_NO_CRT_METHOD="1")
        check(r.returncode == 0, "no CRT method: exit 0 (got %d, %s)" % (r.returncode,
                                                                         r.stderr))
        if r.returncode == 0:
            mb = [x for x in benchlib.load_speed_json(out)["records"]
                  if x["implementation"] == "ipp-crypto-mb8"]
            want = "no CRT method for 1024-bit keys"
            check(len(mb) == 1 and mb[0]["samples"] == 0 and want in (mb[0]["note"] or ""),
                  "no CRT method: mb8 n/a saying %r (%r)" % (want, mb))
    r = subprocess.run([exe, "speed", "--seconds", "0.02", "--bits", "1024",
                        "--compare", "openssl"], stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, universal_newlines=True,
                       env=dict(env, BIGMONT_IPP_LIB="", BIGMONT_WHEEL_VENV=""), timeout=60 * SLOWER)
    check(r.returncode == 0 and ("ipp-crypto not measured: BIGMONT_IPP_LIB is empty" if x86
                                 else "ipp-crypto not measured: " + IPP_NOT_X86) in r.stdout,
          "an empty BIGMONT_IPP_LIB turns ipp-crypto off, saying so")


def check_ipp_refusals(exe, work, env, standin):
    """libippcp failing its ippcpInit, or refusing the features
    OPENSSL_ia32cap leaves it (the stand-in needs AVX2, which ":~0x20"
    takes): ipp-crypto left out with the reason, the run goes on."""
    d = os.path.join(work, "ipp-refuses")
    os.makedirs(d, exist_ok=True)
    path = os.path.join(d, "libippcp.so")
    if not os.path.lexists(path):
        os.symlink(standin, path)
    out = os.path.join(work, "ipp-refuses.json")
    for extra, want in (({"IPP_STANDIN_INIT_FAILS": "1"}, "libippcp: ippcpInit fails (-1)"),
                        ({"OPENSSL_ia32cap": ":~0x20"},
                         "ipp-crypto refuses the features OPENSSL_ia32cap leaves it (0x0)")):
        r = speed_1024_json(exe, out, env, d, **extra)
        check(r.returncode == 0, "%r: exit 0 (got %d, %s)" % (extra, r.returncode, r.stderr))
        if r.returncode == 0:
            note = benchlib.load_speed_json(out)["machine"].get("ipp_note") or ""
            check(note == want and "ipp-crypto not measured: " + want in r.stdout,
                  "%r: ipp-crypto left out saying %r (%r)" % (extra, want, note))


def check_ipp_masked(exe, work, env, real_dir):
    """OPENSSL_ia32cap masking AVX-512 IFMA limits ipp-crypto the same way
    (bench/ipp.h): its features without avx512ifma, mb8 out with the
    reason, its single operation still measured and right."""
    out = os.path.join(work, "ipp-masked.json")
    r = subprocess.run([exe, "speed", "--seconds", "0.02", "--bits", "1024",
                        "--compare", "openssl", "--json", out],
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, universal_newlines=True,
                       env=dict(env, BIGMONT_IPP_LIB=real_dir, BIGMONT_WHEEL_VENV="",
                                OPENSSL_ia32cap=":~0x200000"), timeout=60 * SLOWER)
    check(r.returncode == 0, "IFMA masked: exit 0 (got %d, %s)" % (r.returncode, r.stderr))
    if r.returncode != 0:
        return
    m = benchlib.load_speed_json(out)["machine"]
    check("avx512ifma" not in (m.get("ipp_features") or "avx512ifma"),
          "IFMA masked: ipp-crypto's features without it (%r)" % m.get("ipp_features"))
    check("OPENSSL_ia32cap masks AVX-512 IFMA" in (m.get("ipp_mb_note") or ""),
          "IFMA masked: mb8 out, saying why (%r)" % m.get("ipp_mb_note"))
    recs = [x for x in benchlib.load_speed_json(out)["records"]
            if x["implementation"] == "ipp-crypto"]
    check(len(recs) == 1 and recs[0]["samples"] > 0,
          "IFMA masked: ipp-crypto's single operation measured (%r)" % recs)


# 2 a cycle and the calibration's 5 % (bench/peak.h, BENCH_PEAK_SLACK).
PEAK_MAX = 2.1

# --seconds of the --kernels runs: their trials scale with it (bench/cycles.h).
KERNEL_SECONDS = "0.05"
# Each table's trials at --seconds 1 (BENCH_<TABLE>_TRIALS in bench/*_kernels.h)
# and the start of its heading's line, before "best of N".
KERNEL_TRIALS = {"vector": 1000, "montgomery": 300, "radix52": 300, "lanes": 100,
                 "lanes52": 100, "paired": 30, "vertical": 30, "vertical_zmm": 30}
KERNEL_HEADINGS = {"vector": "best of ", "montgomery": "Montgomery kernels, per call (",
                   "radix52": "radix-2^52 dual kernels, both CRT halves per call (",
                   "lanes": "lane kernels, 8 lanes (",
                   "paired": "CRT exponentiations of both halves, the two sides of CRT_PAIRED8",
                   "vertical": "CRT exponentiations of both halves, the two sides of VERTICAL ",
                   "vertical_zmm": "CRT exponentiations of both halves, the two sides of VERTICAL_ZMM",
                   "lanes52": "lane kernels, 8 lanes (4 RSA operations x 2 CRT halves) per "
                   "call, radix 2^52"}


def kernel_trials(n, seconds, sanitized):
    """bench_kernel_trials (bench/cycles.h): round(n * --seconds), a tenth
    of that under a sanitizer, at least 3."""
    t = int(n * seconds + 0.5)
    return max(3, t // 10 if sanitized else t)


def check_kernel_trials(report, seconds, doc_trials=None):
    """Every table's "best of N" is the count --seconds gives it (below the
    default's), the same for all tables with or without the sanitizers'
    tenth, and the JSON's kernels.trials says the same."""
    printed = {}
    for line in report.splitlines():
        for table, head in KERNEL_HEADINGS.items():
            at = line.find("best of ")
            if line.startswith(head) and at >= 0 and table not in printed:
                printed[table] = int(line[at + len("best of "):].split()[0].rstrip(","))
    check("lanes" in printed, "--kernels prints the lane table's trials: %r" % printed)
    builds = [s for s in (False, True)
              if all(printed[t] == kernel_trials(KERNEL_TRIALS[t], seconds, s) for t in printed)]
    check(builds and all(printed[t] < KERNEL_TRIALS[t] for t in printed),
          "--kernels --seconds %g: each table's best of N follows --seconds (%r)"
          % (seconds, printed))
    if doc_trials is not None:
        check(set(doc_trials) == set(KERNEL_TRIALS) and
              all(doc_trials[t] == printed.get(t, doc_trials[t]) for t in doc_trials),
              "kernels.trials %r says what the text printed %r" % (doc_trials, printed))


def check_peak_text(report):
    """The peak lines, and the bound table of each kernel table whose peak
    was measured: a bound per size and a positive % of peak per kernel.
    And no table of a tuning choice's two sides found their words differ
    (bench/lanes52_kernels.c: "not run: the ... sides differ")."""
    check("sides differ" not in report,
          "--kernels: each tuning choice's two sides give the same words")
    lines = report.splitlines()
    peaks = {l.split(":")[0]: l for l in lines if l.startswith("peak ")}
    for name, title, kernels in (
            ("peak mulx", "Montgomery kernels against the peak", ("c", "base", "adx")),
            ("peak vpmadd52luq", "radix-2^52 dual kernels against the peak", ("ifma",))):
        line = peaks.get(name, "")
        at = [i for i, l in enumerate(lines) if l.startswith(title)]
        check(len(at) == 1, "--kernels prints '%s' once" % title)
        if "not measured" in line:
            check(any(why in line for why in ("this build has no assembly", "has no BMI2",
                                              "lacks AVX-512 IFMA")),
                  "%s not measured, with the reason: %r" % (name, line))
            check(len(at) != 1 or "no bound" in lines[at[0]],
                  "%s not measured: no bound" % name)
            continue
        if name == "peak mulx":
            rate = float(line.split()[2])
        else:  # "zmm 1.00, ymm 1.00 8-lane multiply-adds ..."
            words = line.split()
            rate = max(float(words[3].rstrip(",")), float(words[5]))
        check(0.25 <= rate <= PEAK_MAX, "%s within 0.25..2 (%r)" % (name, line))
        if len(at) != 1:
            continue
        rows = {}
        for l in lines[at[0] + 1:]:
            if not l or l.startswith(("table read", "tuning")):
                break
            f = l.split()
            if len(f) > 2 and f[0] in ("bound",) + kernels:
                rows.setdefault((f[0], f[1]), f)
        for op in ("mul", "sqr"):
            f = rows.get(("bound", op), [])
            check(len(f) > 2 and float(f[2]) > 0, "%s: a bound row for %s" % (title, op))
        pct = [f for k, f in rows.items() if k[0] != "bound"]
        check(pct, "%s: rows with %% of peak" % title)
        for f in pct:
            values = [x.rstrip("*") for x in f[2:] if x.rstrip("*").endswith("%")]
            check(values and all(float(x[:-1]) > 0 for x in values) and "peak:" in f,
                  "%s: row %s %s has a positive %% of peak per size" % (title, f[0], f[1]))
            # above 100 %: marked '*', and said to be a measurement error
            for x in f[2:]:
                if x.endswith("%") and float(x[:-1]) > 100 or x.endswith("%*"):
                    check(x.endswith("%*") and float(x[:-2]) > 100
                          and "a measurement error" in report,
                          "%s: %s above 100 %% flagged as a measurement error" % (title, x))


def check_kernels_json(exe, work, env):
    """--kernels with a key writes the tables into the JSON's "kernels":
    the peaks within 0.25..2 (or null with a note), and every Montgomery
    and radix-2^52 ifma row with its bound and a positive % of peak."""
    out = os.path.join(work, "kernels.json")
    if os.path.exists(out):
        os.remove(out)
    r = subprocess.run([exe, "speed", "--kernels", "--bits", "1024", "--seconds", "0.01",
                        "--compare", "none", "--json", out], stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, universal_newlines=True, env=env, timeout=60 * SLOWER)
    check(r.returncode == 0, "--kernels --bits 1024 --json exits 0 (got %d, %r)"
          % (r.returncode, r.stderr))
    if r.returncode != 0:
        return
    with open(out) as f:
        doc = json.load(f)
    check({"schema", "machine", "settings", "records"} <= set(doc),
          "the document keeps its keys beside kernels")
    k = doc.get("kernels")
    check(isinstance(k, dict), "the document has kernels")
    if not isinstance(k, dict):
        return
    check(k.get("trial_scale") == 0.01, "kernels.trial_scale is --seconds: %r"
          % k.get("trial_scale"))
    check_kernel_trials(r.stdout, 0.01, k.get("trials", {}))
    peak = k.get("peak", {})
    for key in ("mulx_per_cycle", "mulx_note", "ifma_zmm_per_cycle", "ifma_ymm_per_cycle",
                "ifma_ymm_instructions_per_cycle", "ifma_per_cycle", "ifma_note", "min",
                "max"):
        check(key in peak, "kernels.peak has %s" % key)
    check(peak.get("timings") in (2, 3, 4),
          "kernels.peak.timings: before the tables, after, at most twice again (%r)"
          % peak.get("timings"))
    check(k.get("ticks_per_cycle") is None or k["ticks_per_cycle"] > 0,
          "kernels.ticks_per_cycle positive")
    for rate, note in (("mulx_per_cycle", "mulx_note"), ("ifma_per_cycle", "ifma_note"),
                       ("ifma_zmm_per_cycle", "ifma_note"), ("ifma_ymm_per_cycle", "ifma_note")):
        v = peak.get(rate)
        if v is None:
            check(bool(peak.get(note)), "kernels.peak.%s null with a note" % rate)
        else:
            check(0.25 <= v <= PEAK_MAX and peak.get(note) is None,
                  "kernels.peak.%s within 0.25..2 (%r)" % (rate, v))
    # The zmm lanes' peak and rows: where the CPU has AVX-512F (the rows),
    # else a null rate with the reason.
    v = peak.get("vpmuludq_zmm_per_cycle")
    if v is None:
        check(bool(peak.get("vpmuludq_zmm_note")),
              "kernels.peak.vpmuludq_zmm_per_cycle null with a note")
    else:
        check(0.25 <= v <= PEAK_MAX and 0.25 <= peak.get("vpmuludq_vpaddq_zmm_per_cycle", 0)
              <= v * 1.05, "kernels.peak vpmuludq zmm and its pairs within range (%r)" % peak)
    zrows = [x for x in k.get("lanes", []) if x.get("build") == "avx512"]
    check(len(zrows) == (8 if v is not None else 0),
          "kernels.lanes has the avx512 rows where the zmm peak was measured: %r" % zrows)
    for x in zrows:
        check(x.get("vpmuludq_zmm", 0) > 0 and x.get("pct_of_peak", 0) > 0,
              "an avx512 lane row's zmm count and %% of peak: %r" % x)
    mont, r52 = k.get("montgomery", []), k.get("radix52", [])
    check(len(mont) >= 10, "kernels.montgomery has each variant's rows")
    for table, size, count, rate, bounded in (
            (mont, "chunks", "mulx", peak.get("mulx_per_cycle"), lambda x: True),
            (r52, "digits", "vpmadd52_zmm", peak.get("ifma_per_cycle"),
             lambda x: x["build"] == "ifma")):
        for x in table:
            for key in ("op", size, "ticks", "cycles", count, "bound_cycles", "pct_of_peak"):
                check(key in x, "kernel row has %s" % key)
            if k.get("ticks_unit") == "ns":  # no core clock (aarch64): no cycles
                check(x.get("cycles", 0) is None and x.get("ticks", 0) > 0,
                      "kernel row in ns, cycles null: %r" % x)
            else:
                check(x.get("cycles", 0) > 0, "kernel row cycles positive: %r" % x)
            if rate is not None and bounded(x):
                check(x[count] > 0 and x["bound_cycles"] > 0 and x["pct_of_peak"] > 0,
                      "kernel row bound and %% of peak positive: %r" % x)
            elif not bounded(x):
                check(x["bound_cycles"] is None and x["pct_of_peak"] is None,
                      "the C twin's rows have no bound: %r" % x)
    # Each kernel's own count (bench/peak.h): Karatsuba's 464 mulx for the
    # adx product at 16 chunks (the adx row and kara16), 528 by rows.
    for x in mont:
        if x["chunks"] == 16:
            kara = x["op"] == "mul" and (x.get("tuning") or x["variant"]) in ("adx", "kara16")
            want = 408 if x["op"] == "sqr" else 464 if kara else 528
            check(x["mulx"] == want, "16 chunks: %d mulx (%r)" % (want, x))
        check(x.get("above_peak") in (True, False, None), "above_peak a boolean: %r" % x)
    for x in r52:
        # the 20-digit NASM kernels issue 435 zmm vpmadd52 a product, 349 a squaring
        if x["digits"] == 20 and x["build"] == "ifma":
            check(x["vpmadd52_zmm"] == (435 if x["op"] == "mul" else 349),
                  "20 digits: 435 zmm vpmadd52 a product, 349 a squaring (%r)" % x)
    mul16 = [x for x in mont if x.get("tuning") in ("kara16", "rows16")]
    check(not mul16 or len(mul16) == 2, "the 16-chunk product both ways: %r" % mul16)
    # The CRT's two exponentiations by each side of CRT_PAIRED8, VERTICAL
    # and VERTICAL_ZMM (bench/crt_pow_kernels.c): the paired table at 8
    # and 16 chunks in every 64-bit build; the vertical ones none where
    # they cannot run, else both sides at 24 and 32 chunks, timed.
    paired = k.get("paired", [])
    check(isinstance(paired, list) and
          sorted((x.get("side"), x.get("chunks")) for x in paired) ==
          [("paired", 8), ("paired", 16), ("radix64", 8), ("radix64", 16)] and
          all(x.get("op") == "pow" and x.get("ticks", 0) > 0 for x in paired),
          "kernels.paired: both sides at 8 and 16 chunks: %r" % paired)
    for key, side in (("vertical", "vertical"), ("vertical_zmm", "zmm")):
        rows = k.get(key, [])
        check(isinstance(rows, list) and
              sorted((x.get("side"), x.get("chunks")) for x in rows) in
              ([], [("radix64", 24), ("radix64", 32), (side, 24), (side, 32)]) and
              all(x.get("op") == "pow" and x.get("ticks", 0) > 0 for x in rows),
              "kernels.%s: both sides at 24 and 32 chunks, or none: %r" % (key, rows))


def check_batch(exe, work, env, x86=True):
    """--batch: every implementation's answers checked against GMP, then
    timed; the text table and the JSON (schema bigmont-speed-batch/1) hold
    ours-single, the batch rows (IFMA and AVX2 where the CPU has them, and
    the C lanes) and openssl-noblind with positive times and ratios; with
    --threads 1,2 the thread table and JSON threads[] hold ours-single and
    the batch the library takes at T = 1 and 2, per core, the efficiency
    and single/batch at the same T; --batch with --kernels or --compare is
    refused, and so is a bad --threads (0, an empty value in the list):
    exit 2, one error line, no JSON written; BIGMONT_BATCH=c (and avx2,
    ifma where they ran) times that lane row alone, the others saying why; the
    command profiles/record --batch profiles runs."""
    out = os.path.join(work, "batch.json")
    if os.path.exists(out):
        os.remove(out)
    r = subprocess.run([exe, "speed", "--batch", "--bits", "1024", "--seconds", "0.01",
                        "--threads", "1,2", "--json", out], stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, universal_newlines=True, env=env,
                       timeout=120 * SLOWER)
    print(r.stdout)
    check(r.returncode == 0, "--batch exits 0 (got %d, %r)" % (r.returncode, r.stderr))
    if r.returncode != 0:
        return
    check("RSA-1024 private key" in r.stdout and "ours-batch-c" in r.stdout and
          "calls of at least 1 ms" in r.stdout, "--batch prints its table")
    if not x86:  # the AVX2 lanes are x86-64's: not even a "not run" row
        check(not x86_words_in(r.stdout), "no x86 names in the --batch report off x86-64: %s"
              % x86_words_in(r.stdout))
    with open(out) as f:
        doc = json.load(f)
    check(doc.get("schema") == "bigmont-speed-batch/1", "--batch JSON schema")
    keys = doc.get("keys", [])
    check(len(keys) == 1 and keys[0].get("bits") == 1024, "--batch JSON has the key")
    for key in keys:
        impls = {x["name"]: x for x in key.get("implementations", [])}
        for name in ("ours-single", "ours-batch-c", "openssl-noblind") + (
                ("ours-batch-avx2", "ours-batch-fma", "ours-batch-avx512", "ours-batch-fma512",
                 "ours-batch-ifma", "ipp-crypto-mb8") if x86 else ()):
            check(name in impls, "--batch JSON has %s" % name)
        check(x86 or not any(n in impls for n in ("ours-batch-avx2", "ours-batch-fma",
                                                   "ours-batch-avx512", "ours-batch-fma512",
                                                   "ours-batch-ifma", "ipp-crypto-mb8")),
              "--batch JSON off x86-64 has no AVX2, FMA, AVX-512F, IFMA or mb8 row")
        for name, x in impls.items():
            if x.get("measured"):
                check(x["median_ns_per_op"] > 0 and x["min_ns_per_op"] > 0 and
                      x["ops_per_s"] > 0 and x["ratio_to_single"] > 0 and x["rounds"] >= 5,
                      "--batch %s measured: %r" % (name, x))
                # As many calls a round as last 1 ms by the warm-up call,
                # which is no faster than the fastest round's calls.
                calls = x.get("calls_per_round")
                check(isinstance(calls, int) and 1 <= calls <= 1000 and
                      (calls - 1) * key.get("ops_per_call", 0) * x["min_ns_per_op"] < 1.1e6,
                      "--batch %s: calls a round for 1 ms: %r" % (name, x))
            else:
                check(name in ("ours-batch-avx2", "ours-batch-fma", "ours-batch-avx512",
                               "ours-batch-fma512", "ours-batch-ifma", "ipp-crypto-mb8") and
                      x.get("kernel"),
                      "only the AVX2, FMA, AVX-512F, IFMA and mb8 rows may be absent, with a "
                      "reason: %r" % x)
        check(impls.get("ours-single", {}).get("ratio_to_single") == 1 and
              impls.get("ours-single", {}).get("ratio_to_single_rounds") == 1,
              "ours-single is the ratios' base")
        mb8 = impls.get("ipp-crypto-mb8", {}).get("measured")
        for name, x in impls.items():
            # Each round's own ratios: every measured row has one to the
            # single operation, and to mb8 where mb8 ran (else null).
            check(not x.get("measured") or (
                x["ratio_to_single_rounds"] > 0 and
                (x["ratio_to_mb8_rounds"] > 0 if mb8 else x["ratio_to_mb8_rounds"] is None)),
                  "--batch %s round ratios: %r" % (name, x))
        batch = next(n for n in ("ours-batch-ifma", "ours-batch-fma512", "ours-batch-avx512",
                                 "ours-batch-fma", "ours-batch-avx2", "ours-batch-c")
                     if impls.get(n, {}).get("measured") or n == "ours-batch-c")
        rows = {(x.get("name"), x.get("threads")): x for x in key.get("threads", [])}
        check(sorted(rows) == sorted((n, t) for n in ("ours-single", batch) for t in (1, 2)),
              "--batch --threads 1,2: ours-single and %s at T = 1, 2: %r" % (batch, sorted(rows)))
        for (name, t), x in rows.items():
            check(x["ops_per_s"] > 0 and x["ns_per_op_per_core"] > 0 and
                  abs(x["ops_per_s_per_core"] * x["ns_per_op_per_core"] - 1e9) < 1e5 and
                  0 < x["cpu_share"] <= 1.5 and x["single_thread_ops_per_cpu_s"] > 0 and
                  x["ratio_to_single"] > 0,
                  "--batch thread row %s T=%d: %r" % (name, t, x))
            cores = doc.get("cores", 0)
            check(abs(x["ops_per_s_per_core"] * min(t, cores) - x["ops_per_s"]) <
                  1e-4 * x["ops_per_s"], "ops/s per core of min(T, cores): %r" % x)
            check(x["efficiency"] is None or x["efficiency"] > 0 or x["note"],
                  "an efficiency, or a note why not: %r" % x)
        for t in (1, 2):
            if (("ours-single", t) in rows) and ((batch, t) in rows):
                check(rows[("ours-single", t)]["ratio_to_single"] == 1 and abs(
                    rows[(batch, t)]["ratio_to_single"] - rows[("ours-single", t)]["ops_per_s"] /
                    rows[(batch, t)]["ops_per_s"]) < 1e-3 * rows[(batch, t)]["ratio_to_single"],
                      "batch/single at T=%d is single's ops/s over the batch's" % t)
    check(doc.get("thread_counts") == [1, 2], "--batch JSON thread_counts")
    check("threads on one shared key" in r.stdout and batch in r.stdout.split(
        "threads on one shared key")[-1], "--batch --threads prints the thread table")
    # The bad --threads lists and --compare: test_cli_speed's
    # BatchThreadsRefusedWhenBad.
    os.remove(out)
    r = subprocess.run([exe, "speed", "--batch", "--bits", "1024", "--json", out, "--kernels"],
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       universal_newlines=True, env=env, timeout=60 * SLOWER)
    check(r.returncode == 2 and "--batch" in r.stderr and len(r.stderr.splitlines()) == 1 and
          r.stdout == "" and not os.path.exists(out),
          "--batch --kernels refused, no JSON written: %d %r" % (r.returncode, r.stderr))
    # BIGMONT_BATCH=c or avx2 times that lane row alone (profiles/record
    # --batch sets it); the other lane row says why it did not run.
    ran = {x.get("name") for key in keys for x in key.get("implementations", [])
           if x.get("measured")}
    for lanes in ("c",) + tuple(x for x in ("avx2", "fma", "avx512", "fma512", "ifma")
                                if "ours-batch-" + x in ran):
        others = [n for n in ("ours-batch-c", "ours-batch-avx2", "ours-batch-fma",
                              "ours-batch-avx512", "ours-batch-fma512", "ours-batch-ifma")
                  if n != "ours-batch-" + lanes]
        r = subprocess.run([exe, "speed", "--batch", "--bits", "1024", "--seconds", "0.01",
                            "--json", out], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           universal_newlines=True, env=dict(env, BIGMONT_BATCH=lanes),
                           timeout=60 * SLOWER)
        check(r.returncode == 0, "--batch with BIGMONT_BATCH=%s exits 0: %r" % (lanes, r.stderr))
        if r.returncode != 0:
            continue
        with open(out) as f:
            impls = {x["name"]: x for x in json.load(f)["keys"][0]["implementations"]}
        check(impls["ours-batch-" + lanes]["measured"], "BIGMONT_BATCH=%s: its row measured"
              % lanes)
        # The header names the lanes the library takes under it, and the ask.
        check("lane kernel '%s' (BIGMONT_BATCH=%s: only that lane row)" % (lanes, lanes)
              in r.stdout, "BIGMONT_BATCH=%s: the header names it: %r"
              % (lanes, [l for l in r.stdout.splitlines() if "lane kernel" in l]))
        for other in others:
            if other in ran:  # else it did not run anyway, saying why (above)
                check(not impls[other]["measured"] and
                      impls[other]["kernel"] == "not run: BIGMONT_BATCH=" + lanes and
                      "not run: BIGMONT_BATCH=" + lanes in r.stdout,
                      "BIGMONT_BATCH=%s: %s not run, saying why: %r" % (lanes, other,
                                                                        impls[other]))
    # Lanes asked for where they cannot run: the header says so, and every
    # lane row that runs is timed (here the C lanes at least).
    absent = [x for x in ("avx2", "fma", "avx512", "fma512", "ifma")
              if "ours-batch-" + x not in ran]
    if absent:
        r = subprocess.run([exe, "speed", "--batch", "--bits", "1024", "--seconds", "0.01"],
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           universal_newlines=True, env=dict(env, BIGMONT_BATCH=absent[0]),
                           timeout=60 * SLOWER)
        check(r.returncode == 0 and "(BIGMONT_BATCH=%s: not in this build or CPU, so every "
              "lane row)" % absent[0] in r.stdout and
              re.search(r"^\s*ours-batch-c\s+portable C lanes", r.stdout, re.M) is not None,
              "BIGMONT_BATCH=%s, lanes not here: said in the header, C lanes timed: %d %r"
              % (absent[0], r.returncode,
                 [l for l in r.stdout.splitlines() if "lane" in l][:3]))
    # A value that names no lane build is refused before anything runs.
    r = subprocess.run([exe, "speed", "--batch", "--bits", "1024", "--seconds", "0.01"],
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, universal_newlines=True,
                       env=dict(env, BIGMONT_BATCH="avx3"), timeout=60 * SLOWER)
    check(r.returncode == 2 and r.stdout == "" and
          "BIGMONT_BATCH='avx3' is not one of c, avx2, fma, avx512, fma512, ifma" in r.stderr,
          "--batch with BIGMONT_BATCH=avx3 refused: %d %r" % (r.returncode, r.stderr))
    # The command profiles/record --batch profiles is one bigmont takes.
    loader = importlib.machinery.SourceFileLoader(
        "profiles_record", os.path.join(os.path.dirname(HERE), "profiles", "record"))
    record = importlib.util.module_from_spec(importlib.util.spec_from_loader("profiles_record",
                                                                             loader))
    loader.exec_module(record)
    cmd = record.speed_command(exe, record.parse_args(["--batch", "--bits", "1024",
                                                      "--seconds", "0.01"]))
    r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       universal_newlines=True, env=env, timeout=60 * SLOWER)
    check(r.returncode == 0, "profiles/record --batch's command %s: exit %d %r"
          % (" ".join(cmd[1:]), r.returncode, r.stderr))


def main():
    exe, work = sys.argv[1], sys.argv[2]
    standin = sys.argv[3] if len(sys.argv) > 3 else None
    os.makedirs(work, exist_ok=True)
    out = os.path.join(work, "speed.json")
    if os.path.exists(out):
        os.remove(out)
    env = dict(os.environ)
    env.pop("BIGMONT_CPU", None)
    r = subprocess.run([exe, "speed", "--seconds", "0.05", "--bits", "1024",
                        "--threads", "1,2", "--json", out],
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       universal_newlines=True, env=env, timeout=120 * SLOWER)
    print(r.stdout)
    print(r.stderr, file=sys.stderr)
    check(r.returncode == 0, "bigmont speed exits 0 (got %d)" % r.returncode)
    check("RSA-1024 private key" in r.stdout, "the table is printed")
    for word in ("cpu", "flags", "compiler", "build", "GMP", "OpenSSL"):
        check(word in r.stdout, "the header mentions %s" % word)
    kernel = next((l for l in r.stdout.splitlines() if l.startswith("  kernel ")), "")
    x86 = kernel.endswith(" x86_64")
    if not x86:
        # Nothing x86-specific in a portable build's report (issue 45).
        check(not x86_words_in(r.stdout), "no x86 names in the %s report: %s"
              % (kernel.split()[-1] if kernel else "?", x86_words_in(r.stdout)))
    if kernel.endswith(" aarch64"):
        # The CPU from /proc/cpuinfo's aarch64 fields only (under qemu-user
        # the file is the host's: then the header says it found none).
        check("counter   cntvct_el0, the generic timer at" in r.stdout,
              "the header names the aarch64 counter")
        for word in ("bmi2", "family", "avx512ifma"):
            check(word not in r.stdout, "no x86 field (%s) in an aarch64 header" % word)
        with open("/proc/cpuinfo") as f:
            arm_fields = "CPU implementer" in f.read()
        if not arm_fields:
            check("cpu       unknown aarch64 CPU" in r.stdout and
                  "/proc/cpuinfo has no CPU implementer and part" in r.stdout,
                  "the header says it found no aarch64 fields")
    else:
        check("bmi2" in r.stdout, "the header mentions bmi2")
    if r.returncode == 0:
        doc = benchlib.load_speed_json(out)
        claimed = doc["settings"]["implementations"]
        for impl in ("ours", "gmp", "openssl", "openssl-noblind") + (("openssl-noifma",)
                                                                     if x86 else ()):
            check(impl in claimed, "%s is claimed" % impl)
        if not x86:  # OPENSSL_ia32cap masks x86-64 CPUID bits: no such row elsewhere
            check("openssl-noifma" not in claimed and
                  not any(x["implementation"] == "openssl-noifma" for x in doc["records"]),
                  "openssl-noifma neither claimed nor recorded off x86-64")
        problems = benchlib.check_speed_doc(doc)
        check(not problems, "every claimed implementation measured: %s" % problems)
        for rec in doc["records"]:
            for field in ("implementation", "build", "variant", "bits", "threads",
                          "median_ns", "min_ns", "max_ns", "ops_per_s",
                          "cycles_per_op", "samples"):
                check(field in rec, "record has %s" % field)
            if rec["samples"]:
                check(rec["min_ns"] <= rec["median_ns"] <= rec["max_ns"],
                      "%s: min <= median <= max" % rec["implementation"])
        threaded = {r["implementation"] for r in doc["records"] if r["threads"] == 2}
        check({"ours", "openssl"} <= threaded, "2-thread records for ours and openssl")
        check(doc["settings"]["locks_counted"], "locks are counted in the bigmont command")
        for rec in doc["records"]:
            locks = rec["locks_per_op"]
            if rec["implementation"] in ("ours", "ours-blinded"):
                check(locks == 0, "%s takes no lock (%s per op, %d threads)"
                      % (rec["implementation"], locks, rec["threads"]))
            elif rec["implementation"] == "openssl":
                check(isinstance(locks, (int, float)) and locks > 0,
                      "EVP_PKEY_decrypt's locks are counted (%s per op)" % locks)
            elif rec["implementation"] == "openssl-noifma":
                check(locks is None, "no lock count from the child process")
            elif rec["implementation"].startswith("ipp-crypto") and rec["samples"]:
                # In this process, timed by its own batch hook: counted.
                check(isinstance(locks, (int, float)) and locks >= 0,
                      "%s's locks are counted (%r per op)" % (rec["implementation"], locks))
            if rec["threads"] > 1:
                lo, hi, eff = rec["efficiency_min"], rec["efficiency_max"], rec["efficiency"]
                check(lo <= hi, "%s efficiency range %s..%s" % (rec["implementation"], lo, hi))
                check(eff is None or lo <= eff <= hi,
                      "%s efficiency %s within its range" % (rec["implementation"], eff))
                check(eff is not None or lo > 1, "efficiency withheld only above 100 %")
        # The embedded 1024-bit key has equal-length primes: the ifma
        # variant takes the radix-2^52 path for it, every other radix64,
        # its halves side by side where the tuning binds CRT_PAIRED8 (one
        # path for every ours row of the run).
        paths = set(rec.get("crt_path") for rec in doc["records"]
                    if rec["implementation"].startswith("ours"))
        wanted = (["radix52-ifma"] if doc["machine"]["variant"] == "ifma"
                  else ["radix64", "radix64-paired"])
        check(len(paths) == 1 and paths <= set(wanted),
              "ours' crt_path: one of %r (%r)" % (wanted, paths))
        want_path = paths.pop() if len(paths) == 1 else wanted[0]
        for rec in doc["records"]:
            if not rec["implementation"].startswith("ours"):
                check("crt_path" not in rec, "%s has no crt_path" % rec["implementation"])
        check("ours' CRT path: %s " % want_path in r.stdout, "the report names ours' CRT path")
        m = doc["machine"]
        for field in ("cpu", "logical_cores", "physical_cores", "flags", "kernel",
                      "compiler", "chunk_bits", "variant", "gmp_version",
                      "openssl_version"):
            check(field in m, "machine has %s" % field)
        # Where the tuning came from: this CPU's model named in the table,
        # its family's majority, or none; only where the table applies.
        table = m.get("tuning_table")
        if m.get("asm") and x86:
            check(table in ("model", "family", "none"), "machine.tuning_table %r" % table)
            check(("\n  tuning    %s" % {"model": "bignum/tuning.h's rows for this CPU model",
                                        "family": "this CPU model is not in bignum/tuning.h",
                                        "none": "bignum/tuning.h names fewer than two"}.get(table, "?"))
                  in r.stdout, "the report's tuning line says %r" % table)
        else:
            check(table == "" and "\n  tuning " not in r.stdout,
                  "no tuning line without the table (%r)" % table)
        check_wheel(doc, r.stdout)
        check_ipp(doc, r.stdout)
        real = doc["machine"].get("ipp_dir") if doc["machine"].get("ipp_version") else None
        if not x86:
            check(doc["machine"]["ipp_note"].startswith(IPP_NOT_X86) and
                  doc["machine"]["ipp_mb_note"].startswith(IPP_NOT_X86),
                  "ipp-crypto x86-64 only, not loaded: %r" % doc["machine"]["ipp_note"])
        check_ipp_standins(exe, work, env, standin, real, x86)
        if real:
            check_ipp_masked(exe, work, env, real)
        if standin and x86:
            check_ipp_refusals(exe, work, env, standin)

    # Without its environment the wheel is left out, with the reason, and
    # the run goes on.
    off = dict(env, BIGMONT_WHEEL_VENV=os.path.join(work, "no-venv"))
    r = subprocess.run([exe, "speed", "--seconds", "0.02", "--bits", "1024",
                        "--compare", "openssl", "--json", out],
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       universal_newlines=True, env=off, timeout=60 * SLOWER)
    check(r.returncode == 0, "without the wheel: exit 0 (got %d, %s)" % (r.returncode, r.stderr))
    if r.returncode == 0:
        doc = benchlib.load_speed_json(out)
        check("no Python environment at" in (doc["machine"]["openssl_wheel_note"] or ""),
              "without the wheel: the note says why (%r)" % doc["machine"]["openssl_wheel_note"])
        check_wheel(doc, r.stdout)

    # A wheel that answers wrongly, or fails with its own reason, fails the
    # run with that said and no JSON: a stand-in python speaking the
    # protocol (bench/wheel.h) with zero signatures, or "err" replies.
    for mode, want in (("zeros", "openssl-wheel gives a wrong result"),
                       ("err", "the wheel's python: boom")):
        fake = os.path.join(work, "fake-venv-" + mode)
        os.makedirs(os.path.join(fake, "bin"), exist_ok=True)
        open(os.path.join(fake, "pyvenv.cfg"), "w").close()
        py = os.path.join(fake, "bin", "python3")
        with open(py, "w") as f:
            f.write(FAKE_WHEEL % (sys.executable, mode))
        os.chmod(py, 0o755)
        bad = os.path.join(work, "fake.json")
        r = subprocess.run([exe, "speed", "--seconds", "0.02", "--bits", "1024",
                            "--compare", "openssl", "--json", bad],
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           universal_newlines=True, env=dict(env, BIGMONT_WHEEL_VENV=fake),
                           timeout=60 * SLOWER)
        check(r.returncode == 1 and want in r.stderr,
              "a %s wheel: exit 1 saying %r (got %d, %s)" % (mode, want, r.returncode,
                                                             r.stderr.strip()))
        check(not os.path.exists(bad), "a %s wheel: no JSON written" % mode)

    for args, what in ((["--bits", "1000"], "no such embedded key"),
                       (["--seconds", "0"], "bad --seconds"),
                       (["--compare", "gmp,none"], "bad --compare"),
                       (["--threads", "0"], "bad --threads"),
                       (["--frobnicate"], "unknown option"),
                       (["--json"], "missing value")):
        bad = os.path.join(work, "bad.json")
        r = subprocess.run([exe, "speed"] + args + (["--json", bad] if args != ["--json"] else []),
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           universal_newlines=True, env=env, timeout=60 * SLOWER)
        check(r.returncode == 2, "%s: exit 2 (got %d)" % (what, r.returncode))
        check(r.stderr.startswith("bigmont: error: "), "%s: error message" % what)
        check(not os.path.exists(bad), "%s: no JSON written" % what)
    r = subprocess.run([exe, "speed", "--key", os.path.join(work, "missing.pem")],
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       universal_newlines=True, env=env, timeout=60 * SLOWER)
    check(r.returncode == 1 and "bigmont: error: cannot open key file" in r.stderr,
          "a missing key file is a clear error")
    check(r.stdout == "", "nothing printed before a key error")
    # --kernels: the per-kernel tables only.  The Montgomery part exists in
    # 64-bit builds; there the table read and the squaring with the table
    # read must show both forms at every length.
    # With --json too: the document has the kernels and no records.
    alone = os.path.join(work, "kernels-alone.json")
    if os.path.exists(alone):
        os.remove(alone)
    r = subprocess.run([exe, "speed", "--kernels", "--seconds", KERNEL_SECONDS, "--json", alone],
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, universal_newlines=True,
                       env=env, timeout=60 * SLOWER)
    check("RSA-1024 private key" not in r.stdout, "--kernels alone times no keys")
    if r.returncode == 0:
        with open(alone) as f:
            doc = json.load(f)
        check(doc.get("schema") == benchlib.SPEED_SCHEMA and doc.get("records") == [] and
              doc["settings"]["implementations"] == [] and isinstance(doc.get("kernels"), dict),
              "--kernels --json alone: a document with the kernels, no records and no "
              "implementations")
        check_kernel_trials(r.stdout, float(KERNEL_SECONDS), doc["kernels"].get("trials", {}))
    else:
        check(not os.path.exists(alone), "--kernels --json failing: no JSON written")
        check_kernel_trials(r.stdout, float(KERNEL_SECONDS))  # 32-bit chunks: the lane table
    chunk32 = "not measured (needs 64-bit chunks)" in r.stdout
    # Not x86-64 (aarch64): the tables are in ns of the clock, and there is
    # no core clock to calibrate against.
    in_ns = "counter   cntvct_el0" in r.stdout
    if in_ns:
        check("ticks per core cycle:" not in r.stdout and "core cycles" not in r.stdout,
              "--kernels without a core clock prints no core cycles")
    elif not chunk32:
        check(r.stdout.count("ticks per core cycle:") == 1,
              "--kernels prints one calibration of ticks per cycle")
    if x86:
        check(r.stdout.count("peak mulx: ") == 1 and r.stdout.count("peak vpmadd52luq: ") == 1,
              "--kernels prints the peak lines once")
    else:  # the peaks and bounds are x86-64's instructions (bench/peak.h)
        check(not x86_words_in(r.stdout) and "against the peak" not in r.stdout and
              "peak " not in r.stdout,
              "--kernels off x86-64: no peak, bound or x86 name: %s" % x86_words_in(r.stdout))
        check(r.stdout.count("x86-64 vector kernels and peaks: not part of this build") == 1,
              "--kernels off x86-64 says once that the x86-64 tables are not in this build")
    if chunk32:  # 32-bit chunks: a clear error, exit 1
        check(r.returncode == 1 and r.stderr.startswith("bigmont: error: --kernels:"),
              "--kernels without 64-bit chunks: exit 1 and an error (got %d, %r)"
              % (r.returncode, r.stderr))
    else:
        check(r.returncode == 0, "--kernels exits 0 (got %d)" % r.returncode)
    if "Montgomery kernels," in r.stdout:
        lines = r.stdout.splitlines()
        for title, rows in (("table read of 32 entries", ("c ", "avx2 ")),
                            ("squaring + table read of 32 entries", ("one call", "two"))):
            at = [i for i, line in enumerate(lines) if line.startswith(title)]
            check(len(at) == 1, "--kernels prints '%s' once" % title)
            if len(at) == 1:
                body = lines[at[0] + 1:at[0] + 1 + len(rows)]
                for want, line in zip(rows, body):
                    # avx2 only where the CPU has it: then the row is there.
                    if want == "avx2 " and "bound to avx2" not in lines[at[0]]:
                        continue
                    fields = line.split()
                    check(line.startswith(want) and fields[-1] == ("ns" if in_ns else "ticks") and
                          all(float(x) > 0 for x in fields[-6:-1]),
                          "--kernels '%s': row '%s' has 5 positive timings" % (title, want))
    if not chunk32:
        if x86:
            check_peak_text(r.stdout)
        check_kernels_json(exe, work, env)
    check_batch(exe, work, env, x86)
    r = subprocess.run([exe, "speed", "--help"], stdout=subprocess.PIPE,
                       universal_newlines=True, env=env, timeout=60 * SLOWER)
    check(r.returncode == 0 and "--compare" in r.stdout, "--help")
    if not x86:
        check(not x86_words_in(r.stdout) and "ipp-crypto" not in r.stdout,
              "--help off x86-64 names no x86 extension nor ipp-crypto: %s"
              % x86_words_in(r.stdout))

    if failures:
        print("%d failures" % len(failures))
        return 1
    print("bench smoke: ok")
    return 0


if __name__ == "__main__":
    sys.exit(main())
