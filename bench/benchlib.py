"""Shared code of bench/run and bench/merge, and of profiles/record and
compare for their options (python3, standard library only).

Reads the JSON that `bigmont speed --json` writes (schema in bench/README.md),
aggregates the runs of several builds and rounds, and renders the tables
(text and markdown), the bench/run result file and the gnuplot data.

Ratios are time ratios, ours/other: below 1 means ours is faster.
"""

import argparse
import json
import math
import os
import re
import statistics

SPEED_SCHEMA = "bigmont-speed/1"
BATCH_SCHEMA = "bigmont-speed-batch/1"
RUN_SCHEMA = "bigmont-bench-run/1"

OTHERS = ("gmp", "openssl-noblind", "openssl", "openssl-noifma", "openssl-wheel",
          "openssl-wheel-oaep", "ipp-crypto", "ipp-crypto-mb8")
# Claimed by a run but measured only where the CPU and the library run it:
# otherwise the run records why not (a record with a note).
OPTIONAL = ("ipp-crypto-mb8",)
# Measured where the key has room for them (below 784 bits OAEP SHA-256
# has none for a 32-byte message, below 496 a PKCS #1 v1.5 SHA-256
# signature none): otherwise a record with a note too.
OPTIONAL_BY_KEY = ("openssl-wheel", "openssl-wheel-oaep")
OTHER_TITLES = {
    "gmp": "GMP",
    "openssl-noblind": "OpenSSL no blinding",
    "openssl": "OpenSSL (blinded)",
    "openssl-noifma": "OpenSSL no IFMA",
    "openssl-wheel": "OpenSSL (wheel)",
    "openssl-wheel-oaep": "OpenSSL (wheel) OAEP",
    "ipp-crypto": "ipp-crypto",
    "ipp-crypto-mb8": "ipp-crypto mb8",
}


# Measured on x86-64 only: OpenSSL with its IFMA code masked through
# OPENSSL_ia32cap, x86-64's CPUID bits.
X86_ONLY = ("openssl-noifma",)


def repeated_option(parser, argv):
    """The first option of the argparse parser that argv gives twice (as
    spelt the second time), or None; options that collect a list
    (action="append") may repeat.  The scripts refuse a repeat as
    `bigmont speed` does, rather than let the last one win."""
    seen = set()
    for token in argv:
        if token == "--":
            break
        name = token.split("=", 1)[0]
        action = parser._option_string_actions.get(name)
        if action is None or isinstance(action, argparse._AppendAction):
            continue
        if action in seen:
            return name
        seen.add(action)
    return None


def is_x86_64(machine):
    """Whether the run was on x86-64: an aarch64 build's flags are asimd
    and sve (`bigmont speed`'s machine.flags); no machine: x86-64."""
    return "asimd" not in (machine or {}).get("flags", {})


def others_of(machine):
    """The references a run of this machine can have: off x86-64, not
    the x86-only ones."""
    return OTHERS if is_x86_64(machine) else tuple(o for o in OTHERS if o not in X86_ONLY)


def ipp_short_version(text):
    """'Intel® Cryptography Primitives Library (l9) (ver: 2.3.0 (13.3) ...'
    -> '2.3.0 (l9)': the library's version and the code path it chose."""
    m = re.search(r"ver: ([0-9.]+)", text or "")
    path = re.search(r"\((\w\d)\)", text or "")
    if not m:
        return text or ""
    return m.group(1) + (" (%s)" % path.group(1) if path else "")


def short_version(text):
    """'OpenSSL 3.0.19 27 Jan 2026' -> 'OpenSSL 3.0.19'; None stays None."""
    return " ".join(text.split()[:2]) if text else None


def openssl_label(machine, wheel=False):
    """'OpenSSL 3.0.19 (system)', 'OpenSSL 4.0.3 (wheel)': which OpenSSL a
    figure is, by the version the run recorded."""
    v = short_version(machine.get("openssl_wheel_version" if wheel else "openssl_version"))
    return "%s (%s)" % (v or "OpenSSL", "wheel" if wheel else "system")


def other_title(other, machine):
    """A reference's row title, OpenSSL's with its version."""
    if other == "openssl-wheel":
        return openssl_label(machine, wheel=True)
    if other == "openssl-wheel-oaep":
        return openssl_label(machine, wheel=True) + " OAEP"
    if other in ("ipp-crypto", "ipp-crypto-mb8") and machine.get("ipp_version"):
        return "%s %s" % (OTHER_TITLES[other], ipp_short_version(machine["ipp_version"]))
    how = {"openssl": "blinded", "openssl-noblind": "no blinding",
           "openssl-noifma": "no IFMA"}
    if other in how and machine:
        return "%s %s" % (openssl_label(machine), how[other])
    return OTHER_TITLES[other]
# The order builds appear in tables: 32-bit C, 64-bit C, then assembly.
BUILD_ORDER = ("chunk32", "chunk64", "chunk64-asm/c", "chunk64-asm/baseline",
               "chunk64-asm/adx", "chunk64-asm/ifma")


def slug(text):
    """'AMD EPYC 7R13 Processor' -> 'amd-epyc-7r13-processor'."""
    s = re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")
    return s or "unknown-cpu"


def cpu_name(machine):
    """The model name, with family and model where the run recorded them
    ('AMD EPYC family 25 model 1'): a VM's bare 'AMD EPYC' covers several
    generations."""
    fam, mod = machine.get("cpu_family", -1), machine.get("cpu_model", -1)
    if fam is not None and mod is not None and fam >= 0 and mod >= 0:
        return "%s family %d model %d" % (machine["cpu"], fam, mod)
    return machine["cpu"]


def build_label(machine):
    """chunk32, chunk64, or chunk64-asm/<variant> for an assembly build."""
    if machine.get("asm"):
        return "%s/%s" % (machine["build"], machine["variant"])
    return machine["build"]


def build_sort_key(label):
    base = label.replace(", blinded", "")
    rank = BUILD_ORDER.index(base) if base in BUILD_ORDER else len(BUILD_ORDER)
    return (rank, label)


def load_speed_json(path, schema=SPEED_SCHEMA):
    """A `bigmont speed --json` document (schema BATCH_SCHEMA: with
    --batch), checked for its schema.  OSError when the file cannot be
    read, ValueError (saying why) when it is not JSON or not such a
    document."""
    with open(path, "rb") as f:
        data = f.read()
    try:
        doc = json.loads(data.decode("utf-8"))
    except ValueError as e:  # JSONDecodeError and UnicodeDecodeError alike
        raise ValueError("%s: not JSON (%s)" % (path, e))
    if not isinstance(doc, dict) or doc.get("schema") != schema:
        raise ValueError("%s: not a %s document" % (path, schema))
    return doc


def command_failed(shown, r):
    """'<shown> failed (exit N): <the last line of r's stderr>' ('no
    message' without one), r a subprocess.run result with text stderr."""
    lines = r.stderr.strip().splitlines()
    return "%s failed (exit %d): %s" % (shown, r.returncode, lines[-1] if lines else "no message")


def command_json(shown, r, path, schema=SPEED_SCHEMA):
    """(doc, None) for a finished command r (subprocess.run's result) that
    wrote the document path, else (None, why): command_failed's line,
    '<shown>: exit 0 but no JSON document (<why>)' (path is the run's
    temporary file: its name tells nothing), or '<shown>: <load_speed_json's
    reason>'."""
    if r.returncode != 0:
        return None, command_failed(shown, r)
    try:
        return load_speed_json(path, schema), None
    except OSError as e:
        return None, "%s: exit 0 but no JSON document (%s)" % (shown, e.strerror or e)
    except ValueError as e:
        return None, "%s: %s" % (shown, e)


def _is_number(v):
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def _is_int(v):
    return isinstance(v, int) and not isinstance(v, bool)


# What bench/run's tables and files read of a speed document, by type:
# a document without it is refused by check_speed_doc, not met as a
# KeyError or TypeError half way through the report.
SPEED_MACHINE_FIELDS = (("cpu", str), ("build", str), ("date", str), ("kernel", str),
                        ("compiler", str), ("cflags", str), ("gmp_version", str),
                        ("openssl_version", str), ("logical_cores", _is_int),
                        ("physical_cores", _is_int))
SPEED_MACHINE_TEXTS = ("openssl_wheel_version", "openssl_wheel_cryptography",
                       "openssl_wheel_note", "ipp_version", "ipp_features", "ipp_note",
                       "ipp_mb_version", "ipp_mb_note")
SPEED_RECORD_FIELDS = (("implementation", str), ("bits", _is_int), ("threads", _is_int),
                       ("samples", lambda v: _is_int(v) and v >= 0), ("blinding", None),
                       ("fault_check", None), ("ops_per_s", None), ("cycles_per_op", None))


def _type_ok(value, want):
    if want is None:
        return True
    if isinstance(want, type):
        return isinstance(value, want)
    return want(value)


def speed_doc_shape(doc):
    """Problems with a speed document's shape: machine, settings and
    records as bench/run reads them (the fields above, the optional texts
    strings or null; a measured record's median, min and max ns finite
    numbers).  Empty when all are there."""
    problems = []
    m = doc.get("machine")
    if not isinstance(m, dict):
        problems.append("no machine object")
    else:
        fields = SPEED_MACHINE_FIELDS + ((("variant", str),) if m.get("asm") else ())
        for key, want in fields:
            if not _type_ok(m.get(key), want):
                problems.append("machine.%s missing or not a %s" % (
                    key, "string" if want is str else "whole number"))
        if "flags" in m and not isinstance(m["flags"], dict):
            problems.append("machine.flags not an object")
        for key in SPEED_MACHINE_TEXTS:
            if m.get(key) is not None and not isinstance(m[key], str):
                problems.append("machine.%s not a string or null" % key)
        for key in ("cpu_family", "cpu_model"):
            if m.get(key) is not None and not _is_int(m[key]):
                problems.append("machine.%s not a whole number" % key)
        # bench/run's results/<cpu_slug>/: a slug as bigmont makes it, never
        # a path out of --results
        cs = m.get("cpu_slug")
        if cs is not None and not isinstance(cs, str):
            problems.append("machine.cpu_slug not a string or null")
        elif cs is not None and not re.fullmatch(r"[a-z0-9]+(-[a-z0-9]+)*", cs):
            problems.append("machine.cpu_slug %s is not a slug (a-z, 0-9, single -)"
                            % json.dumps(cs[:80]))
    impls = doc.get("settings", {}).get("implementations") \
        if isinstance(doc.get("settings"), dict) else None
    if not (isinstance(impls, list) and all(isinstance(i, str) for i in impls)):
        problems.append("settings.implementations missing or not a list of names")
    recs = doc.get("records")
    if not isinstance(recs, list):
        problems.append("no records list")
        return problems
    for i, r in enumerate(recs):
        if not isinstance(r, dict):
            problems.append("records[%d] not an object" % i)
            continue
        bad = [k for k, want in SPEED_RECORD_FIELDS if k not in r or not _type_ok(r[k], want)]
        if not bad and r["samples"] > 0:
            bad = [k for k in ("median_ns", "min_ns", "max_ns")
                   if not (_is_number(r.get(k)) and math.isfinite(r[k]))]
        if bad:
            problems.append("records[%d]: %s missing or mistyped" % (i, ", ".join(bad)))
    return problems


def check_speed_doc(doc):
    """Problems with a speed document: its shape (speed_doc_shape), then
    every implementation it claims must have a measured record (samples >
    0, finite ns) for every key size."""
    problems = speed_doc_shape(doc)
    if problems:
        return problems
    recs = doc.get("records", [])
    bits = sorted({r["bits"] for r in recs})
    for impl in doc.get("settings", {}).get("implementations", []):
        for b in bits:
            ok = [r for r in recs if r["implementation"] == impl and
                  r["bits"] == b and r["threads"] == 1 and (
                      (r["samples"] > 0 and isinstance(r["median_ns"], (int, float)) and
                       r["median_ns"] > 0) or
                      (impl in OPTIONAL + OPTIONAL_BY_KEY and not r["samples"] and
                       r.get("note")))]
            if not ok:
                problems.append("no measurement of %s at %d bits" % (impl, b))
    # The wheel's OpenSSL is measured exactly when the run names its
    # version, in the same run as the system's.
    m, claimed = doc.get("machine", {}), doc.get("settings", {}).get("implementations", [])
    for impl in ("openssl-wheel", "openssl-wheel-oaep"):
        if m.get("openssl_wheel_version") and "openssl" in claimed and \
                impl not in claimed:
            problems.append("the wheel's OpenSSL has a version but no %s" % impl)
        if impl in claimed and not m.get("openssl_wheel_version"):
            problems.append("%s measured without a version" % impl)
    # ipp-crypto likewise: claimed exactly when the run names its version.
    for impl in ("ipp-crypto", "ipp-crypto-mb8"):
        if m.get("ipp_version") and "openssl" in claimed and impl not in claimed:
            problems.append("ipp-crypto has a version but no %s" % impl)
        if impl in claimed and not m.get("ipp_version"):
            problems.append("%s measured without a version" % impl)
    if not bits:
        problems.append("no records")
    return problems


def _median(values):
    values = [v for v in values if isinstance(v, (int, float)) and math.isfinite(v)]
    return statistics.median(values) if values else None


def _extreme(pick, values):
    values = [v for v in values if isinstance(v, (int, float)) and math.isfinite(v)]
    return pick(values) if values else None


def aggregate(runs):
    """Combine the records of many `bigmont speed` documents.

    runs: list of (round, doc).  Returns a list of summary records, one per
    (implementation, build label, bits, threads), with the median over
    rounds of the per-run medians, the min and max over every batch, the
    per-run ratios against each reference (median over rounds), locks per
    operation (median; None where not counted, as in files written before
    they were), and how many runs went into it.  GMP and OpenSSL records keep the label of the build
    whose run measured them, and are also pooled under build "all".
    """
    groups = {}
    for rnd, doc in runs:
        label = build_label(doc["machine"])
        recs = doc["records"]
        by_key = {(r["implementation"], r["bits"], r["threads"]): r for r in recs}
        for r in recs:
            if not r["samples"]:
                continue
            impl = r["implementation"]
            labels = [label]
            if impl not in ("ours", "ours-blinded"):
                labels.append("all")
            for lab in labels:
                g = groups.setdefault((impl, lab, r["bits"], r["threads"]), {
                    "implementation": impl, "build": lab, "bits": r["bits"],
                    "threads": r["threads"], "blinding": r["blinding"],
                    "fault_check": r["fault_check"], "medians": [], "mins": [],
                    "maxs": [], "cycles": [], "samples": 0,
                    "efficiency": [], "eff_mins": [], "eff_maxs": [], "single": [],
                    "cpu_share": [], "locks": [], "once": [], "overhead": [],
                    "notes": [], "ratios": {}, "runs": 0, "by_round": {}})
                g["medians"].append(r["median_ns"])
                g["by_round"].setdefault(rnd, []).append(r["median_ns"])
                g["mins"].append(r["min_ns"])
                g["maxs"].append(r["max_ns"])
                g["cycles"].append(r["cycles_per_op"])
                g["samples"] += r["samples"]
                g["efficiency"].append(r.get("efficiency"))
                g["eff_mins"].append(r.get("efficiency_min"))
                g["eff_maxs"].append(r.get("efficiency_max"))
                g["single"].append(r.get("single_thread_ops_per_s"))
                g["cpu_share"].append(r.get("cpu_share"))
                g["locks"].append(r.get("locks_per_op"))
                g["once"].append(r.get("once_per_op"))
                g["overhead"].append(r.get("call_overhead_ns"))
                g["notes"].append(r.get("note"))
                g["runs"] += 1
                if impl.startswith("ours") and r["threads"] == 1:
                    for other in OTHERS:
                        o = by_key.get((other, r["bits"], 1))
                        if o and o["samples"] and o["median_ns"]:
                            g["ratios"].setdefault(other, []).append(
                                r["median_ns"] / o["median_ns"])
    out = []
    for g in groups.values():
        med = _median(g["medians"])
        # Each round's median (a reference pooled under "all" has a run per
        # build in a round): the spread is over rounds for every row alike.
        per_round = [m for m in (_median(v) for v in g["by_round"].values()) if m is not None]
        rec = {
            "implementation": g["implementation"], "build": g["build"],
            "bits": g["bits"], "threads": g["threads"],
            "blinding": g["blinding"], "fault_check": g["fault_check"],
            "median_ns": med,
            "run_min_ns": min(per_round) if per_round else None,
            "run_max_ns": max(per_round) if per_round else None,
            "rounds": len(per_round),
            "spread": None,  # below: run_spread
            "min_ns": min(v for v in g["mins"] if v is not None),
            "max_ns": max(v for v in g["maxs"] if v is not None),
            # The schema's 1e9 / median_ns: a median of the runs' own
            # ops/s differs from it when the count of runs is even.
            "ops_per_s": 1e9 / med if med else None,
            "cycles_per_op": _median(g["cycles"]),
            "samples": g["samples"], "runs": g["runs"],
            "efficiency": _median(g["efficiency"]),
            "efficiency_min": _extreme(min, g["eff_mins"]),
            "efficiency_max": _extreme(max, g["eff_maxs"]),
            "single_thread_ops_per_s": _median(g["single"]),
            "cpu_share": _median(g["cpu_share"]),
            "locks_per_op": _median(g["locks"]),
            "once_per_op": _median(g["once"]),
            "call_overhead_ns": _median(g["overhead"]),
            "ratio": {k: _median(v) for k, v in sorted(g["ratios"].items())},
            # the lowest and highest of the runs' own ratios
            "ratio_range": {k: [min(v), max(v)] for k, v in sorted(g["ratios"].items()) if v},
            # what the runs' records said (an efficiency withheld and why)
            "note": "; ".join(sorted({n for n in g["notes"] if n})) or None,
        }
        rec["spread"] = run_spread(rec)
        out.append(rec)
    out.sort(key=lambda r: (r["bits"], r["threads"], r["implementation"],
                            build_sort_key(r["build"])))
    return out


def find(summary, impl, build, bits, threads=1):
    for r in summary:
        if (r["implementation"] == impl and r["build"] == build and
                r["bits"] == bits and r["threads"] == threads):
            return r
    return None


def speedups(summary, bits):
    """The headline ratios for one key size: 64-bit over 32-bit chunks,
    assembly over C.  {name: time(slower)/time(faster)}."""
    def ns(build):
        r = find(summary, "ours", build, bits)
        return r["median_ns"] if r else None
    pairs = [
        ("64-bit over 32-bit chunks (C)", "chunk32", "chunk64"),
        ("asm baseline over C (64-bit)", "chunk64", "chunk64-asm/baseline"),
        ("asm adx over C (64-bit)", "chunk64", "chunk64-asm/adx"),
        ("asm adx over asm baseline", "chunk64-asm/baseline", "chunk64-asm/adx"),
        ("asm adx over 32-bit chunks", "chunk32", "chunk64-asm/adx"),
        ("asm ifma over asm adx", "chunk64-asm/adx", "chunk64-asm/ifma"),
    ]
    out = []
    for name, slow, fast in pairs:
        a, b = ns(slow), ns(fast)
        if a and b:
            out.append((name, a / b))
    return out


def fmt_ns(v):
    if v is None:
        return "-"
    return "{:,.0f}".format(v)


def fmt_ratio(v):
    return "-" if v is None else "%.2f" % v


def fmt_locks(v):
    """Locks per operation: '0', '5.25', '26.5'; '-' where not counted."""
    return "-" if v is None else "%.3g" % v


def fmt_percent(v):
    return "-" if v is None else "%.0f%%" % (100 * v)


def fmt_efficiency(v):
    """A thread efficiency: '-' where there is none (withheld: above 100 %
    in every round), '*' above 100 % (the 1-thread windows were
    disturbed)."""
    if not isinstance(v, (int, float)) or not math.isfinite(v):
        return "-"
    if v > 1 and round(100 * v) <= 100:
        # 1.004 is above 100 % and would print as 100%*: a decimal shows it.
        return "%.1f%%*" % (math.ceil(1000 * v) / 10)
    return fmt_percent(v) + ("*" if v > 1 else "")


# The fewest rounds whose medians give a spread: with two, their median is
# their midpoint and every spread reads -x%/+x%; with one there is none.
# Ours and the references alike (a reference has a run per build in each
# round, pooled into one median per round).
SPREAD_MIN_RUNS = 3


def run_spread(r):
    """{"low": a, "high": b}: how far below and above median_ns the lowest
    and highest round medians lie, as fractions of it; None below
    SPREAD_MIN_RUNS rounds (or without a median).  A summary written
    before rounds were counted has its runs instead."""
    m = r.get("median_ns")
    if not m or r.get("rounds", r.get("runs", 1)) < SPREAD_MIN_RUNS or \
            r.get("run_min_ns") is None:
        return None
    return {"low": round((m - r["run_min_ns"]) / m, 4),
            "high": round((r["run_max_ns"] - m) / m, 4)}


def fmt_spread(r):
    """How far the rounds' medians strayed from their median: "-3%/+5%";
    "n/a" below three rounds, "-" without a median."""
    if not r.get("median_ns"):
        return "-"
    sp = run_spread(r)
    if sp is None:
        return "n/a"
    return "-%.0f%%/+%.0f%%" % (100 * sp["low"], 100 * sp["high"])


def key_table_rows(summary, bits, machine=None):
    """Rows of the table of one key size: each build of ours (and blinded,
    when measured), then the references pooled over every run (OpenSSL's
    titled with the versions in machine)."""
    rows = []
    others = others_of(machine)
    ours = [r for r in summary if r["bits"] == bits and r["threads"] == 1 and
            r["implementation"] in ("ours", "ours-blinded")]
    ours.sort(key=lambda r: (build_sort_key(r["build"]), r["implementation"]))
    for r in ours:
        name = r["build"] + (", blinded" if r["implementation"] == "ours-blinded" else "")
        rows.append([name, fmt_ns(r["median_ns"]), fmt_spread(r)] +
                    [fmt_ratio(r["ratio"].get(o)) for o in others] +
                    [fmt_locks(r.get("locks_per_op"))])
    for other in others:
        r = find(summary, other, "all", bits)
        if r:
            rows.append([other_title(other, machine or {}), fmt_ns(r["median_ns"]),
                         fmt_spread(r)] + [""] * len(others) +
                        [fmt_locks(r.get("locks_per_op"))])
    return rows


TABLE_HEADER = ["build", "ns/op", "spread", "/GMP", "/OpenSSL no-blind",
                "/OpenSSL blinded", "/OpenSSL no-IFMA", "/OpenSSL wheel",
                "/OpenSSL wheel OAEP", "/ipp-crypto", "/ipp-crypto mb8", "locks/op"]


def table_header(machine):
    """TABLE_HEADER, off x86-64 without the x86-only references' columns."""
    if is_x86_64(machine):
        return TABLE_HEADER
    return [h for h in TABLE_HEADER if h != "/OpenSSL no-IFMA"]


# Batches, not single operations: set against our batch (the batch
# table's batch/mb8), not against a single operation in best/peer.
BATCH_PEERS = ("ipp-crypto-mb8",)


def best_peer(rec):
    """(peer, ratio): our record's same-run ratio to the fastest peer,
    the largest of its ratios (ours/peer time) over every single-operation
    peer the run measured; (None, None) without any."""
    ratios = [(v, k) for k, v in (rec or {}).get("ratio", {}).items()
              if k in OTHERS and k not in BATCH_PEERS and v is not None]
    if not ratios:
        return None, None
    v, k = max(ratios)
    return k, v


def peer_range(doc, rec, peer):
    """The lowest and highest of the runs' own ratios behind rec's median
    ratio to peer, [lo, hi]; from the document's raw runs where its records
    predate ratio_range; None where neither has them."""
    if rec is None or peer is None:
        return None
    span = rec.get("ratio_range", {}).get(peer)
    if span is None and doc.get("runs"):
        # Once a document, not once a cell.
        if "_runs_aggregate" not in doc:
            doc["_runs_aggregate"] = aggregate([(x["round"], x["speed"]) for x in doc["runs"]])
        again = find(doc["_runs_aggregate"], rec["implementation"], rec["build"], rec["bits"],
                     rec["threads"])
        span = again.get("ratio_range", {}).get(peer) if again else None
    return span


def best_line(summary, bits, machine):
    """Our fastest build against the fastest peer of the same runs."""
    ours = [r for r in summary if r["bits"] == bits and r["threads"] == 1 and
            r["implementation"] == "ours" and r["median_ns"]]
    if not ours:
        return None
    best = min(ours, key=lambda r: r["median_ns"])
    peer, ratio = best_peer(best)
    if peer is None:
        return None
    return ("best/peer: %s against the fastest peer of the same runs, %s: %.2f "
            "(median over rounds of the same-run time ratio; below 1: ours faster)"
            % (best["build"], other_title(peer, machine or {}), ratio))


def ipp_line(machine):
    """What the ipp-crypto rows are, or why there are none."""
    if not machine.get("ipp_version"):
        return "ipp-crypto: not measured: %s" % (machine.get("ipp_note") or "not in this run")
    mb = ("mb8: mbx_rsa_private_crt_mb8, 8 operations per call, time per "
          "operation = call time / 8" if machine.get("ipp_mb_version") else
          "mb8: not measured: %s" % (machine.get("ipp_mb_note") or "not in this run"))
    return ("ipp-crypto: %s, CPU features enabled %s: ippsRSA_Decrypt on a type-2 (CRT) "
            "key, no blinding, the conversion to its big numbers outside the timed "
            "call; %s" % (machine["ipp_version"], machine.get("ipp_features") or "?", mb))


def wheel_line(summary, bits, machine):
    """What the wheel's row is, or why there is none."""
    if not machine.get("openssl_wheel_version"):
        return "OpenSSL of the cryptography wheel: not measured: %s" % (
            machine.get("openssl_wheel_note") or "not in this run")
    ovh = []
    for impl in ("openssl-wheel", "openssl-wheel-oaep"):
        r = find(summary, impl, "all", bits)
        v = r.get("call_overhead_ns") if r else None
        ovh.append("?" if v is None else "%.0f" % v)
    return ("%s: %s of PyPI cryptography %s through its Python API, blinded "
            "(OpenSSL's default): PKCS #1 v1.5 SHA-256 signatures, and OAEP SHA-256 "
            "decryption (the OAEP row), timed around the Python loop, which costs %s and %s ns "
            "per call with a no-op call (included)"
            % (openssl_label(machine, wheel=True), machine["openssl_wheel_version"],
               machine.get("openssl_wheel_cryptography", "?"), ovh[0], ovh[1]))


def text_table(header, rows):
    widths = [max(len(str(x)) for x in col) for col in zip(header, *rows)]
    lines = []
    for i, row in enumerate([header] + rows):
        cells = [str(c).ljust(w) if j == 0 else str(c).rjust(w)
                 for j, (c, w) in enumerate(zip(row, widths))]
        lines.append("  ".join(cells).rstrip())
        if i == 0:
            lines.append("  ".join("-" * w for w in widths))
    return "\n".join(lines)


def md_table(header, rows):
    lines = ["| " + " | ".join(header) + " |",
             "|" + "|".join("---" if i == 0 else "---:" for i in range(len(header))) + "|"]
    for row in rows:
        lines.append("| " + " | ".join(str(c) for c in row) + " |")
    return "\n".join(lines)


# Below this share of min(T, cores) cores the threads did not get their
# cores: the thread table says "low" beside it and the chart labels the point.
LOW_CPU_SHARE = 0.9


def fmt_cpu_share(v):
    """'98%'; '62% low' below LOW_CPU_SHARE; '-' where not measured."""
    if v is None:
        return "-"
    if v >= LOW_CPU_SHARE:
        return fmt_percent(v)
    # 0.898 is low and would print as 90%: a decimal keeps the two apart.
    shown = fmt_percent(v)
    if round(100 * v) >= round(100 * LOW_CPU_SHARE):
        shown = "%.1f%%" % (math.floor(1000 * v) / 10)
    return shown + " low"


def thread_rows(summary, bits):
    """Ours per build, then OpenSSL pooled over every run."""
    rows = []
    sel = [r for r in summary if r["bits"] == bits and r["threads"] > 1 and
           ((r["implementation"] == "ours" and r["build"] != "all") or
            (r["implementation"] == "openssl" and r["build"] == "all"))]
    sel.sort(key=lambda r: (r["implementation"] != "ours", build_sort_key(r["build"]),
                            r["threads"]))
    for r in sel:
        name = r["build"] if r["implementation"] == "ours" else "OpenSSL"
        lo, hi = r.get("efficiency_min"), r.get("efficiency_max")
        eff = r["efficiency"]
        rows.append([name, str(r["threads"]),
                     fmt_ns(r["single_thread_ops_per_s"]),
                     fmt_ns(r["ops_per_s"]),
                     fmt_efficiency(eff),
                     "-" if lo is None or hi is None else "%.0f-%.0f%%" % (100 * lo, 100 * hi),
                     fmt_cpu_share(r.get("cpu_share")),
                     fmt_locks(r.get("locks_per_op"))])
    return rows


# efficiency: ops/s against min(T, cores) x the one-thread rate (per CPU
# second of that thread), median over runs; range: the lowest and highest
# round; cpu: the share of min(T, cores) cores the threads had.
THREAD_HEADER = ["implementation", "threads", "1-thread ops/s", "ops/s", "efficiency",
                 "range", "cpu", "locks/op"]


def report(summary, machine, markdown=False):
    """The whole bench/run report, text or markdown."""
    out = []
    table = md_table if markdown else text_table
    bits_list = sorted({r["bits"] for r in summary})
    for bits in bits_list:
        title = "RSA-%d private key, ns per operation (median over rounds); " \
                "ratios are ours/other time (below 1: ours faster)" % bits
        out.append(("### " if markdown else "") + title)
        out.append("")
        out.append(table(table_header(machine), key_table_rows(summary, bits, machine)))
        out.append("")
        # Each note its own paragraph (markdown runs adjacent lines together).
        out.append(wheel_line(summary, bits, machine))
        out.append("")
        out.append(ipp_line(machine))
        best = best_line(summary, bits, machine)
        if best:
            out.append("")
            out.append(best)
        ups = speedups(summary, bits)
        if ups:
            out.append("")
            out.append("speed-up (medians of builds run in different processes, less "
                       "steady than the ratios): " +
                       ", ".join("%s %.2fx" % u for u in ups))
        trows = thread_rows(summary, bits)
        if trows:
            out.append("")
            out.append(table(THREAD_HEADER, trows))
        out.append("")
    out.append(LEGEND if is_x86_64(machine) else LEGEND.replace(LEGEND_NOIFMA, ""))
    return "\n".join(out)


LEGEND_NOIFMA = " (OpenSSL no-IFMA runs in a child: '-')"


LEGEND = ("locks/op: pthread mutex and rwlock acquisitions per private-key operation, "
          "counted in the benchmark's process (OpenSSL no-IFMA runs in a child: '-'). "
          "Threads share one key (OpenSSL: one EVP_PKEY, a context per operation); "
          "efficiency = ops/s / (min(T, cores) x one thread's ops per CPU second), "
          "each round's T-thread window against its own 1-thread window, the median "
          "over rounds (so not the printed columns divided), "
          "range = the lowest and highest round, cpu = the share of min(T, cores) "
          "cores the threads had; efficiency '-': withheld, above 100 % in every "
          "round (a measurement error); '*': above 100 %, the 1-thread row was "
          "disturbed (slowed): rerun on a quiet machine. cpu 'low' (below " +
          "%.0f %%" % (100 * LOW_CPU_SHARE) + ", the chart labels the point): the "
          "threads had less CPU time than their cores give, because other processes ran on the machine or the threads waited, so that "
          "row's ops/s and efficiency understate what the code does with the cores to "
          "itself; rerun on a quiet machine. "
          "spread: the lowest and highest round's median against the median, for ours "
          "and the references alike (a reference's round: the median of its runs beside "
          "each build); n/a below three rounds (two rounds give no spread).\n")


def machine_lines(machine, markdown=False):
    f = machine.get("flags", {})
    flags = ", ".join("%s %s" % (k, "yes" if f.get(k) else "no")
                      for k in (("bmi2", "adx", "avx512ifma") if is_x86_64(machine)
                                else ("asimd", "sve")))
    items = [
        ("CPU", "%s (%d logical, %d physical cores)" % (
            cpu_name(machine), machine["logical_cores"], machine["physical_cores"])),
        ("flags", flags),
        ("kernel", machine["kernel"]),
        ("compiler", "%s, %s" % (machine["compiler"], machine["cflags"])),
        ("GMP", machine["gmp_version"]),
        ("OpenSSL", machine["openssl_version"] + " (system)"),
        ("wheel", "%s (PyPI cryptography %s)" % (
            machine["openssl_wheel_version"], machine.get("openssl_wheel_cryptography"))
         if machine.get("openssl_wheel_version") else
         "not measured: %s" % (machine.get("openssl_wheel_note") or "not in this run")),
        ("ipp", "%s, enabled CPU features %s" % (machine["ipp_version"],
                                                 machine.get("ipp_features"))
         if machine.get("ipp_version") else
         "not measured: %s" % (machine.get("ipp_note") or "not in this run")),
        ("date", machine["date"]),
    ]
    if markdown:
        return "\n".join("- %s: %s" % kv for kv in items)
    return "\n".join("%-9s %s" % kv for kv in items)


# ---- merge: one table per key size, one row per CPU --------------------------

MERGE_COLUMNS = ["chunk32", "chunk64", "chunk64-asm/baseline", "chunk64-asm/adx",
                 "chunk64-asm/ifma"]


def na_lines(notes):
    """The merged tables' notes, {(cpu, column): why}, as markdown
    paragraphs: one a CPU and reason, naming every column it explains."""
    by_reason = {}
    for cpu, what in sorted(notes):
        by_reason.setdefault((cpu, notes[(cpu, what)]), []).append(what)
    out = []
    for (cpu, why), whats in sorted(by_reason.items(), key=lambda x: (x[0][0], x[1])):
        out += ["n/a (%s), %s: %s" % (", ".join(whats), cpu, why), ""]
    return out


def merge(run_docs):
    """run_docs: list of bench/run result documents (any machines, any
    dates).  Keeps one document per CPU slug, the newest full run (a --quick
    run only when the CPU has no full one), and returns markdown: one table
    per key size, a row per CPU, µs per operation.  best/OpenSSL is the
    fastest build's same-run ratio to OpenSSL (blinded, its default): the
    median over rounds of each round's ratio, the number the run's .md
    gives in its /OpenSSL blinded column; best/wheel the same against the
    cryptography wheel's OpenSSL (its /OpenSSL wheel column).  The two OpenSSL columns, the
    system's and the cryptography wheel's, are headed with their versions
    where every row has the same; else each cell names its own.  A run
    before the wheel was measured shows '-', one that could not measure it
    'n/a' and the reason under the tables; ipp-crypto's two columns
    likewise.  best/ipp is the fastest build's same-run ratio to
    ipp-crypto (single operations), best/peer to the fastest peer of that
    run (GMP, every OpenSSL, ipp-crypto; not mb8, a batch): the largest of
    its same-run ratios, with the lowest and highest of that peer's
    per-run ratios beside it.  Last, where a document carries "file" (bench/merge
    sets it: the report's name beside its JSON), each CPU's report and the
    commit its run measured."""
    def rank(doc):
        return (not doc.get("settings", {}).get("quick", False), doc["machine"]["date"])
    newest = {}
    quick = {}  # the newest --quick run per CPU, to say when it is passed over
    for doc in run_docs:
        if doc.get("schema") != RUN_SCHEMA:
            continue
        m = doc["machine"]
        s = m.get("cpu_slug") or slug(m["cpu"])
        if s not in newest or rank(doc) > rank(newest[s]):
            newest[s] = doc
        if doc.get("settings", {}).get("quick", False) and \
                (s not in quick or m["date"] > quick[s]["machine"]["date"]):
            quick[s] = doc
    if not newest:
        return "(no results)\n"
    bits_all = sorted({r["bits"] for d in newest.values() for r in d["records"]})
    versions = {}
    for wheel in (False, True):
        key = "openssl_wheel_version" if wheel else "openssl_version"
        seen = {short_version(d["machine"].get(key)) for d in newest.values()} - {None}
        versions[wheel] = seen.pop() if len(seen) == 1 else None
    header = ["CPU", "date"] + MERGE_COLUMNS + [
        "GMP", "%s (system)" % (versions[False] or "OpenSSL"), "OpenSSL no-IFMA",
        "%s (wheel)" % (versions[True] or "OpenSSL"), "ipp-crypto", "ipp-crypto mb8",
        "best/OpenSSL", "best/wheel", "best/ipp", "best/peer"]
    notes = {}
    out = []
    for bits in bits_all:
        rows = []
        for s in sorted(newest):
            doc = newest[s]
            m = doc["machine"]
            recs = doc["records"]
            f = m.get("flags", {})
            feats = "+".join(x for x, k in (("adx", "adx"), ("ifma", "avx512ifma")) if f.get(k))
            cells = ["%s (%d threads%s)" % (cpu_name(m), m["logical_cores"],
                                            ", " + feats if feats else ""),
                     m["date"][:10]]
            best = None
            for b in MERGE_COLUMNS:
                r = find(recs, "ours", b, bits)
                v = r["median_ns"] if r else None
                cells.append("-" if v is None else "%.1f" % (v / 1000))
                if v is not None and (best is None or v < best["median_ns"]):
                    best = r
            for other in ("gmp", "openssl", "openssl-noifma", "openssl-wheel"):
                r = find(recs, other, "all", bits)
                v = r["median_ns"] if r else None
                cell = "-" if v is None else "%.1f" % (v / 1000)
                wheel = other == "openssl-wheel"
                mine = short_version(m.get("openssl_wheel_version" if wheel
                                           else "openssl_version"))
                if v is not None and other != "gmp" and other != "openssl-noifma" and \
                        mine and versions[wheel] is None:
                    cell += " (%s)" % mine
                if wheel and v is None and m.get("openssl_wheel_note"):
                    cell = "n/a"
                    notes[(cpu_name(m), "wheel")] = m["openssl_wheel_note"]
                cells.append(cell)
            for other, note in (("ipp-crypto", "ipp_note"), ("ipp-crypto-mb8", "ipp_mb_note")):
                r = find(recs, other, "all", bits)
                v = r["median_ns"] if r else None
                cell = "-" if v is None else "%.1f" % (v / 1000)
                if v is None and m.get(note):
                    cell = "n/a"
                    notes[(cpu_name(m), OTHER_TITLES[other])] = m[note]
                cells.append(cell)
            for other in ("openssl", "openssl-wheel", "ipp-crypto"):
                ratio = best.get("ratio", {}).get(other) if best else None
                cells.append("-" if ratio is None else "%.2f" % ratio)
            peer, ratio = best_peer(best)
            span = peer_range(doc, best, peer)
            cells.append("-" if ratio is None else "%.2f" % ratio +
                         ("" if span is None else " (%.2f-%.2f)" % tuple(span)))
            rows.append(cells)
        out.append("RSA-%d private key, µs per operation (lower is better):" % bits)
        out.append("")
        out.append(md_table(header, rows))
        out.append("")
    out += na_lines(notes)
    batch = merge_batch(newest, notes)
    if batch:
        out.append(batch)
    runs = ["%s: `%s` (%s)" % (cpu_name(newest[s]["machine"]), newest[s]["file"],
                               newest[s].get("settings", {}).get("commit") or "commit unknown")
            for s in sorted(newest) if newest[s].get("file")]
    if runs:
        out.append("Runs (`results/<cpu>/`, each row's report): %s." % "; ".join(runs))
        out.append("")
    passed = ["%s: `%s`" % (cpu_name(quick[s]["machine"]), quick[s].get("file") or
                            quick[s]["machine"]["date"])
              for s in sorted(quick)
              if quick[s] is not newest[s] and
              quick[s]["machine"]["date"] > newest[s]["machine"]["date"]]
    if passed:
        out.append("Not shown, newer but --quick (a quick run stands in only for a CPU "
                   "with no full run): %s." % "; ".join(passed))
        out.append("")
    return "\n".join(out)


COLORS = {
    "chunk32": "#9ecae1", "chunk64": "#6baed6", "chunk64-asm/c": "#4292c6",
    "chunk64-asm/baseline": "#2171b5", "chunk64-asm/adx": "#08306b",
    "chunk64-asm/ifma": "#54278f",
    "gmp": "#31a354", "openssl-noblind": "#fdae6b", "openssl": "#e6550d",
    "openssl-noifma": "#a63603", "openssl-wheel": "#756bb1",
    "openssl-wheel-oaep": "#9e9ac8", "OpenSSL": "#e6550d",
    "ipp-crypto": "#636363", "ipp-crypto-mb8": "#969696",
}


def _bar_entries(summary, bits, machine=None):
    """(label, ns, colour, blinded) for one key size, labelled as the
    key table's rows (OpenSSL's with the versions in machine): ours per
    build (the blinded run right after its build), then the references."""
    out = []
    ours = [r for r in summary if r["bits"] == bits and r["threads"] == 1 and
            r["implementation"] in ("ours", "ours-blinded") and r["build"] != "all"]
    ours.sort(key=lambda r: (build_sort_key(r["build"]), r["implementation"]))
    for r in ours:
        blinded = r["implementation"] == "ours-blinded"
        label = r["build"] + (", blinded" if blinded else "")
        out.append((label, r["median_ns"], COLORS.get(r["build"], "#4292c6"), blinded))
    for other in OTHERS:
        r = find(summary, other, "all", bits)
        if r and r["median_ns"]:
            out.append((other_title(other, machine or {}), r["median_ns"], COLORS[other],
                        other != "openssl-noblind" and other.startswith("openssl")))
    return out


def chart_versions(machine):
    """The OpenSSL versions for the chart's title: 'OpenSSL 3.0.19 (system),
    OpenSSL 4.0.3 (wheel)'; '' where the run recorded none."""
    names = [openssl_label(machine)] if machine and machine.get("openssl_version") else []
    if machine and machine.get("openssl_wheel_version"):
        names.append(openssl_label(machine, wheel=True))
    return ", ".join(names)


def gnuplot_data(summary, machine=None):
    """Data for bench/chart.gp.

    Returns (bars, threads, bits_list, units, series, thread_bits): `bars`
    holds one gnuplot index block per key size (lines: "label" time
    0xRRGGBB blinded), labelled as the key tables' rows, the time in the
    unit `units` names for that block (ns for every block, as the tables);
    `threads` one block per series (lines: threads ops/s cpu%, cpu% the
    share of its cores the threads had, 100 for the one-thread point) for
    one key size, the largest of 2048 and below that has thread runs;
    `series` names them as the thread table does."""
    bits_list = sorted({r["bits"] for r in summary if r["threads"] == 1})
    blocks, units = [], []
    for b in bits_list:
        entries = _bar_entries(summary, b, machine)
        # ns in every panel, as in the tables beside the chart.
        units.append("ns")
        lines = ['"%s" %.10g 0x%s %d' % (lab, v, c[1:], blind)
                 for lab, v, c, blind in entries]
        blocks.append("\n".join(lines))
    bars = "\n\n\n".join(blocks) + "\n"

    tbits = sorted({r["bits"] for r in summary if r["threads"] > 1})
    tb = max([b for b in tbits if b <= 2048] or tbits or [0])
    series = {}
    for r in summary:
        if r["bits"] != tb or r["threads"] <= 1:
            continue
        if r["implementation"] == "ours" and r["build"] != "all":
            name = r["build"]
        elif r["implementation"] == "openssl" and r["build"] == "all":
            name = "OpenSSL"
        else:
            continue
        s = series.setdefault(name, {1: (r["single_thread_ops_per_s"], None)})
        s[r["threads"]] = (r["ops_per_s"], r.get("cpu_share"))
    names = sorted(series, key=build_sort_key)
    tblocks = []
    for name in names:
        pts = []
        for t in sorted(series[name]):
            ops, cpu = series[name][t]
            pts.append("%d %s %s" % (t, "NaN" if ops is None else "%.6g" % ops,
                                     "100" if cpu is None else "%.0f" % (100 * cpu)))
        tblocks.append("\n".join(pts))
    threads = "\n\n\n".join(tblocks) + "\n"
    return bars, threads, bits_list, units, names, tb


# ---- the batch table: `bigmont speed --batch` ---------------------------------

def _number_or_null(v):
    return v is None or _is_number(v)


def batch_doc_shape(doc):
    """Problems with a batch document's shape as the batch table reads it:
    keys a list of objects, each with whole-number bits, implementations a
    list of objects (a measured one with its cpu_median_ns_per_op a
    positive number), and threads, if there, a list of objects with
    whole-number threads and ops_per_s_per_core and cpu_share numbers or
    null.  Empty when all are there."""
    keys = doc.get("keys", [])
    if not isinstance(keys, list):
        return ["keys not a list"]
    problems = []
    for i, k in enumerate(keys):
        where = "keys[%d]" % i
        if not isinstance(k, dict):
            problems.append("%s not an object" % where)
            continue
        if not _is_int(k.get("bits")):
            problems.append("%s.bits missing or not a whole number" % where)
        impls = k.get("implementations", [])
        if not isinstance(impls, list) or not all(isinstance(x, dict) for x in impls):
            problems.append("%s.implementations not a list of objects" % where)
        else:
            for j, x in enumerate(impls):
                if not isinstance(x.get("name"), str):
                    problems.append("%s.implementations[%d].name missing or not a string"
                                    % (where, j))
                v = x.get("cpu_median_ns_per_op")
                if x.get("measured") and not (_is_number(v) and v > 0):
                    problems.append("%s.implementations[%d] measured without a positive "
                                    "cpu_median_ns_per_op" % (where, j))
        trows = k.get("threads", [])
        if not isinstance(trows, list) or not all(isinstance(x, dict) for x in trows):
            problems.append("%s.threads not a list of objects" % where)
            continue
        for j, x in enumerate(trows):
            if not (_is_int(x.get("threads")) and _number_or_null(x.get("ops_per_s_per_core"))
                    and _number_or_null(x.get("cpu_share"))):
                problems.append("%s.threads[%d]: threads, ops_per_s_per_core or cpu_share "
                                "missing or mistyped" % (where, j))
    return problems


def check_batch_doc(doc):
    """Problems with a batch document: its shape (batch_doc_shape), then
    ours-single, ours-batch-c and OpenSSL measured with positive times at
    every key; the AVX2, AVX-512F, IFMA and ipp-crypto mb8 rows measured or
    saying why not."""
    problems = batch_doc_shape(doc)
    if problems:
        return problems
    keys = doc.get("keys", [])
    if not keys:
        problems.append("no keys")
    for k in keys:
        impls = {x.get("name"): x for x in k.get("implementations", [])}
        for name in ("ours-single", "ours-batch-c", "openssl-noblind"):
            x = impls.get(name)
            v = x.get("cpu_median_ns_per_op") if x else None
            if not (x and x.get("measured") and isinstance(v, (int, float)) and v > 0):
                problems.append("no measurement of %s at %s bits" % (name, k.get("bits")))
        for name in ("ours-batch-avx2", "ours-batch-fma", "ours-batch-avx512",
                     "ours-batch-fma512", "ours-batch-ifma", "ipp-crypto-mb8"):
            x = impls.get(name)
            if x and not x.get("measured") and not x.get("kernel"):
                problems.append("%s at %s bits neither measured nor saying why"
                                % (name, k.get("bits")))
    return problems


def _batch_impl(key, name):
    for x in key.get("implementations", []):
        if x.get("name") == name and x.get("measured"):
            return x
    return None


def _batch_thread(key, name, threads):
    for x in key.get("threads", []):
        if x.get("name") == name and x.get("threads") == threads:
            return x
    return None


def batch_mb8_cell(summary, bits, machine):
    """ipp-crypto mb8's ns per operation at bits from the run's speed
    records, or 'n/a' and the reason."""
    r = find(summary, "ipp-crypto-mb8", "all", bits) if summary else None
    v = r.get("median_ns") if r else None
    if isinstance(v, (int, float)) and v > 0:
        return fmt_ns(v), None
    why = machine.get("ipp_mb_note") or machine.get("ipp_note") or (r or {}).get("note") or \
        "not in this run"
    return "n/a", why


BATCH_LANES = ("ifma", "fma512", "avx512", "fma", "avx2", "c")  # the library's order of preference

BATCH_HEADER = ["bits", "single", "batch ifma", "batch fma512", "batch avx512", "batch fma",
                "batch avx2", "batch c", "ifma/single", "fma512/single", "avx512/single",
                "fma/single", "avx2/single", "c/single",
                "single ops/s/core", "batch ops/s/core",
                "OpenSSL single", "batch/OpenSSL", "ipp-crypto mb8", "batch/mb8"]


def batch_fastest(key):
    """The fastest lane row measured at this key (CPU median), or None."""
    rows = [x for x in (_batch_impl(key, "ours-batch-" + n) for n in BATCH_LANES) if x]
    return min(rows, key=lambda x: x["cpu_median_ns_per_op"]) if rows else None


def batch_rows(batch, summary, machine):
    """The batch table's rows (one per key size) and the reasons for the
    n/a cells: CPU ns per operation, medians over the rounds of one
    `bigmont speed --batch` run (blinding off on every side), same-run
    ratios; "batch" is the fastest lane build measured; ipp-crypto mb8
    from the same --batch run (interleaved), or, in a run from before
    --batch had it, from the speed runs of the same bench/run."""
    rows, notes = [], {}
    for k in sorted(batch.get("keys", []), key=lambda k: k.get("bits", 0)):
        bits = k.get("bits")
        single = _batch_impl(k, "ours-single")
        lanes = {n: _batch_impl(k, "ours-batch-" + n) for n in BATCH_LANES}
        best = batch_fastest(k)
        ossl = _batch_impl(k, "openssl-noblind")

        def ns(x):
            return fmt_ns(x["cpu_median_ns_per_op"]) if x else "n/a"

        def ratio(x, y):
            if not x or not y:
                return "n/a"
            # The median of the rounds' own ratios where the run has them
            # (pairs timed side by side); a run from before, the medians'.
            if y is single and isinstance(x.get("ratio_to_single_rounds"), (int, float)):
                return "%.3f" % x["ratio_to_single_rounds"]
            return "%.3f" % (x["cpu_median_ns_per_op"] / y["cpu_median_ns_per_op"])

        def per_core(x):
            return fmt_ns(1e9 / x["cpu_median_ns_per_op"]) if x else "n/a"
        for n in ("ifma", "fma512", "avx512", "fma", "avx2"):
            if not lanes[n]:
                row = [x for x in k.get("implementations", [])
                       if x.get("name") == "ours-batch-" + n]
                notes["batch " + n] = (row[0].get("kernel") or "not measured") if row else \
                    "not in that run's --batch (it predates the row)"
        # mb8 from its row in this --batch run (measured, or why not);
        # from the speed runs only where the run predates the row.
        row = [x for x in k.get("implementations", []) if x.get("name") == "ipp-crypto-mb8"]
        mb8_ns = None
        if row and row[0].get("measured"):
            mb8_ns = row[0]["cpu_median_ns_per_op"]
            mb8 = fmt_ns(mb8_ns)
        elif row:
            mb8 = "n/a"
            notes["ipp-crypto mb8"] = row[0].get("kernel") or "not measured"
        else:
            mb8, why = batch_mb8_cell(summary, bits, machine)
            notes["ipp-crypto mb8"] = why or ("from the speed runs of that bench/run (its "
                                              "--batch predates the mb8 row)")
            r = find(summary, "ipp-crypto-mb8", "all", bits) if summary and not why else None
            mb8_ns = (r or {}).get("median_ns")
        over_mb8 = "%.3f" % (best["cpu_median_ns_per_op"] / mb8_ns) if best and isinstance(
            mb8_ns, (int, float)) and mb8_ns > 0 else "n/a"
        if best and row and row[0].get("measured") and isinstance(
                best.get("ratio_to_mb8_rounds"), (int, float)):
            over_mb8 = "%.3f" % best["ratio_to_mb8_rounds"]
        rows.append([bits, ns(single)] + [ns(lanes[n]) for n in BATCH_LANES] +
                    [ratio(lanes[n], single) for n in BATCH_LANES] +
                    [per_core(single), per_core(best), ns(ossl), ratio(best, ossl), mb8,
                     over_mb8])
    return rows, notes


BATCH_THREAD_HEADER = ["bits", "threads", "single ops/s/core", "batch ops/s/core",
                       "batch/single", "single efficiency", "batch efficiency", "cpu"]


def batch_thread_rows(batch):
    """Per key size and T: ours single and the batch (the lanes the library
    takes) in T threads sharing the key."""
    rows = []
    for k in sorted(batch.get("keys", []), key=lambda k: k.get("bits", 0)):
        ts = sorted({x.get("threads") for x in k.get("threads", [])})
        names = {x.get("name") for x in k.get("threads", [])}
        bname = next((n for n in ("ours-batch-" + x for x in BATCH_LANES) if n in names),
                     "ours-batch-c")
        for t in ts:
            s, b = _batch_thread(k, "ours-single", t), _batch_thread(k, bname, t)
            if not s or not b:
                continue
            rows.append([k.get("bits"), "%d (%s)" % (t, bname[len("ours-batch-"):]),
                         fmt_ns(s.get("ops_per_s_per_core")),
                         fmt_ns(b.get("ops_per_s_per_core")),
                         "%.3f" % b["ratio_to_single"] if isinstance(
                             b.get("ratio_to_single"), (int, float)) else "-",
                         fmt_efficiency(s.get("efficiency")), fmt_efficiency(b.get("efficiency")),
                         fmt_cpu_share(b.get("cpu_share"))])
    return rows


def batch_report(batch, summary, machine, markdown=False, command=None):
    """The bench/run report's batch section, or why there is none."""
    title = ("RSA private key in batches (rsa_private_batch, 8 operations a call), "
             "CPU ns per operation, median over rounds")
    out = [("### " if markdown else "") + title, ""]
    if not batch or not batch.get("doc"):
        out.append("not measured: %s" % ((batch or {}).get("note") or "not in this run"))
        out.append("")
        return "\n".join(out)
    doc = batch["doc"]
    table = md_table if markdown else text_table
    rows, notes = batch_rows(doc, summary, machine)
    out.append(table(BATCH_HEADER, rows))
    out.append("")
    out.append("%s, %s; blinding off on every side (OpenSSL single: RSA_private_decrypt "
               "without blinding), our fault check on; answers checked against GMP before "
               "timing; ratios are same-run time ratios (below 1: the batch faster): "
               "against single and mb8 the medians of each round's own ratio where the "
               "run has them, against OpenSSL the CPU medians' ratio; "
               "batch: the fastest lane build measured; "
               "each row's 8-operation calls back to back for at least 1 ms a round; "
               "ops/s/core = 1e9 / CPU ns per operation; ipp-crypto mb8: CPU time per "
               "operation of its 8-operation calls, timed in each round beside the IFMA "
               "batch where this build has it (before it in odd rounds, after it in even "
               "ones), else after our single operation; blinding off; and batch/mb8 "
               "against it" % (
                   "`%s`" % command if markdown and command else command or "bigmont speed --batch",
                   "lane kernel '%s'" % doc.get("batch_kernel", "?")))
    for what in sorted(notes):
        out.append("n/a (%s): %s" % (what, notes[what]))
    trows = batch_thread_rows(doc)
    if trows:
        out.append("")
        out.append(table(BATCH_THREAD_HEADER, trows))
        out.append("")
        out.append("threads: T (the lanes the library takes, whose row this is) share one "
                   "key; per core: of min(T, %s cores); batch/single: "
                   "time per operation at the same T; efficiency against min(T, cores) x "
                   "one thread (median over rounds; '-' at T = 1: the baseline itself, "
                   "above it: withheld, above 100 %% in every "
                   "round, a measurement error; '*': above 100 %%, the 1-thread windows "
                   "were disturbed: rerun on a quiet machine); cpu: the share of those "
                   "cores the batch threads had" % doc.get("cores", "?"))
    out.append("")
    return "\n".join(out)


def merge_batch(newest, said=None):
    """bench/merge's batch table: for each CPU's newest run that measured
    the batch, its batch table (batch_rows), a row per key size; the n/a
    reasons under it but those `said` (merge's, {(cpu, what): why})
    already gives."""
    header = ["CPU", "date"] + BATCH_HEADER
    rows, notes = [], {}
    for s in sorted(newest):
        doc = newest[s]
        batch = (doc.get("batch") or {}).get("doc")
        if not batch:
            continue
        m = doc["machine"]
        brows, bnotes = batch_rows(batch, doc.get("records", []), m)
        for r in brows:
            rows.append([cpu_name(m), m["date"][:10]] + r)
        for what, why in bnotes.items():
            if (said or {}).get((cpu_name(m), what)) != why:
                notes[(cpu_name(m), what)] = why
    if not rows:
        return ""
    out = ["RSA private key in batches (`bigmont speed --batch`, as bench/run runs it: "
           "rsa_private_batch, 8 operations a call), CPU ns per operation, median over "
           "rounds; ratios are same-run time ratios (below 1: the batch faster):", "",
           md_table(header, rows), ""]
    out += na_lines(notes)
    return "\n".join(out)
