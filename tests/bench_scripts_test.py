#!/usr/bin/env python3
"""Tests of bench/benchlib.py (aggregation, ratios, tables, merge, chart
data) and of bench/merge's command line, on synthetic `bigmont speed`
documents whose answers are known; of how bench/run, tests/run,
scripts/setup and the profiles scripts refuse bad arguments; and of how
bench/run stops, with one error line, when a speed run or its batch run
fails or writes no or malformed JSON, or a step's program cannot be
started, and how its kernel tables and chart go without a failed run's
file (stand-in bigmont, gnuplot, cmake-less PATH)."""
import contextlib
import io
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
BENCH = os.path.join(os.path.dirname(HERE), "bench")
sys.path.insert(0, BENCH)
import benchlib  # noqa: E402


def machine(build="chunk64", asm=False, variant="c", date="2026-01-01T00:00:00Z",
            cpu="Test CPU 9000"):
    return {"cpu": cpu, "cpu_slug": benchlib.slug(cpu), "logical_cores": 4,
            "physical_cores": 2, "flags": {"bmi2": True, "adx": True, "avx512ifma": False},
            "kernel": "Linux 6 x86_64", "hostname": "h", "date": date,
            "compiler": "GNU 12", "cflags": "-O2", "bigmont_version": "0.1.0",
            "build": build, "chunk_bits": 32 if build == "chunk32" else 64,
            "asm": asm, "variant": variant, "bigmont_cpu_env": "",
            "gmp_version": "6.2.1", "openssl_version": "OpenSSL 3.0",
            "openssl_ia32cap_env": ""}


def rec(impl, bits, ns, threads=1, samples=5, spread=0.1, eff=None, single=None,
        **extra):
    """A record as `bigmont speed --json` writes it; `extra` adds the fields
    newer files have (locks_per_op, efficiency_min, ...)."""
    return dict({"implementation": impl, "build": "x", "variant": "c", "bits": bits,
            "key": "embedded:rsa%d.pem" % bits, "threads": threads,
            "blinding": impl in ("openssl", "openssl-noifma"), "fault_check": True,
            "samples": samples, "ops": 100, "median_ns": ns if samples else None,
            "min_ns": ns * (1 - spread) if samples else None,
            "max_ns": ns * (1 + spread) if samples else None,
            "ops_per_s": (1e9 / ns if threads == 1 else 1e9 / ns) if samples else None,
            "cycles_per_op": ns * 2 if samples else None,
            "efficiency": eff, "single_thread_ops_per_s": single, "note": None}, **extra)


def speed_doc(m, ours_ns, gmp=2000.0, ossl=1000.0, bits=2048, extra=()):
    recs = [rec("ours", bits, ours_ns), rec("gmp", bits, gmp),
            rec("openssl", bits, ossl), rec("openssl-noblind", bits, ossl * 0.9),
            rec("openssl-noifma", bits, ossl * 2),
            rec("ours-blinded", bits, 0, samples=0)] + list(extra)
    return {"schema": benchlib.SPEED_SCHEMA, "machine": m,
            "settings": {"seconds": 0.1, "threads": [1], "compare": "gmp,openssl",
                         "implementations": ["ours", "gmp", "openssl",
                                             "openssl-noblind", "openssl-noifma"]},
            "records": recs}


def call_step(env, step):
    """step() with env added to the environment, stdout and stderr
    captured: (its exit status or None, what it returned, its stderr)."""
    import contextlib
    import io
    saved = dict(os.environ)
    os.environ.update(env)
    err, code, got = io.StringIO(), None, None
    try:
        with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
            got = step()
    except SystemExit as e:
        code = e.code
    finally:
        os.environ.clear()
        os.environ.update(saved)
    return code, got, err.getvalue()


class FakeBigmontSteps:
    """For tests of one step of bench/run: a stand-in bigmont
    (FAKE_BIGMONT_SH; with --kernels, a speed run without --json) at
    self.exe in a scratch directory, and assert_stopped for the results of
    call_step."""

    @classmethod
    def setUpClass(cls):
        cls.bench = load_bench_run()

    def setUp(self):
        self.tmp = tempfile.mkdtemp()
        self.addCleanup(shutil.rmtree, self.tmp)
        self.exe = os.path.join(self.tmp, "build", "cli", "bigmont")
        os.makedirs(os.path.dirname(self.exe))
        with open(self.exe, "w") as f:
            f.write(FAKE_BIGMONT_SH)
        os.chmod(self.exe, 0o755)

    def given(self, name, doc):
        """doc (dumped as JSON, or text written as it is) in a file of the
        scratch directory; "" (no file) for None."""
        if doc is None:
            return ""
        path = os.path.join(self.tmp, name)
        with open(path, "w") as f:
            f.write(doc if isinstance(doc, str) else json.dumps(doc))
        return path

    def quick_run(self, results, env):
        """bench/run --quick at 2048 bits on the stand-in, whole, in its own
        process."""
        return subprocess.run([sys.executable, os.path.join(BENCH, "run"), "--quick",
                               "--no-setup", "--no-build", "--builds", "chunk64",
                               "--bits", "2048", "--threads", "1",
                               "--build-dir", "chunk64=" + os.path.join(self.tmp, "build"),
                               "--results", results],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                              universal_newlines=True, timeout=120, env=env)

    def assert_stopped(self, result, error):
        code, got, err = result
        self.assertEqual((code, got), (1, None), err)
        self.assertEqual(err.splitlines()[-1], "bench/run: error: " + error)
        self.assertEqual(err.count("bench/run: error:"), 1, err)


def runs_fixture():
    """Two rounds of four builds; the machine 'drifts' 10% slower in round 1,
    which the per-run ratios must cancel."""
    runs = []
    for rnd, drift in ((0, 1.0), (1, 1.1)):
        for m, ours in ((machine("chunk32"), 1800.0), (machine("chunk64"), 1000.0),
                        (machine("chunk64-asm", True, "baseline"), 800.0),
                        (machine("chunk64-asm", True, "adx"), 500.0)):
            extra = ()
            if rnd == 1:
                extra = (rec("ours", 2048, ours / 1.8 * drift, threads=2, eff=0.9,
                             single=1e9 / (ours * drift)),
                         rec("openssl", 2048, 550.0 * drift, threads=2, eff=0.95,
                             single=1e9 / (1000 * drift)))
            runs.append((rnd, speed_doc(m, ours * drift, 2000 * drift, 1000 * drift,
                                        extra=extra)))
    return runs


class Aggregate(unittest.TestCase):
    def setUp(self):
        self.summary = benchlib.aggregate(runs_fixture())

    def test_labels_and_medians(self):
        adx = benchlib.find(self.summary, "ours", "chunk64-asm/adx", 2048)
        self.assertIsNotNone(adx)
        self.assertAlmostEqual(adx["median_ns"], (500 + 550) / 2)
        self.assertEqual(adx["runs"], 2)
        self.assertEqual(adx["samples"], 10)
        self.assertAlmostEqual(adx["min_ns"], 500 * 0.9)
        self.assertAlmostEqual(adx["max_ns"], 550 * 1.1)
        # 1e9 / median_ns, as the schema says; with two runs not the median
        # (the mean) of their own ops/s.
        self.assertAlmostEqual(adx["ops_per_s"], 1e9 / ((500 + 550) / 2))
        self.assertIsNotNone(benchlib.find(self.summary, "ours", "chunk32", 2048))
        # References are pooled over every run under "all".
        gmp = benchlib.find(self.summary, "gmp", "all", 2048)
        self.assertEqual(gmp["runs"], 8)

    def test_ratios_cancel_drift(self):
        adx = benchlib.find(self.summary, "ours", "chunk64-asm/adx", 2048)
        self.assertAlmostEqual(adx["ratio"]["gmp"], 0.25)
        self.assertAlmostEqual(adx["ratio"]["openssl"], 0.5)
        self.assertAlmostEqual(adx["ratio"]["openssl-noblind"], 0.5 / 0.9)
        self.assertAlmostEqual(adx["ratio"]["openssl-noifma"], 0.25)

    def test_ratio_range_over_runs(self):
        # OpenSSL without blinding: 0.5 / 0.9 in both rounds; with an outlier
        # round the range shows it where the median does not.
        adx = benchlib.find(self.summary, "ours", "chunk64-asm/adx", 2048)
        lo, hi = adx["ratio_range"]["openssl-noblind"]
        self.assertAlmostEqual(lo, 0.5 / 0.9)
        self.assertAlmostEqual(hi, 0.5 / 0.9)
        runs = runs_fixture()
        runs.append((2, speed_doc(machine("chunk64-asm", True, "adx"), 900.0, 2000.0, 1000.0)))
        adx = benchlib.find(benchlib.aggregate(runs), "ours", "chunk64-asm/adx", 2048)
        self.assertAlmostEqual(adx["ratio"]["openssl-noblind"], 0.5 / 0.9)
        self.assertAlmostEqual(adx["ratio_range"]["openssl-noblind"][1], 1.0)
        # A file whose records predate ratio_range: merge takes it from the
        # raw runs.
        doc = {"schema": benchlib.RUN_SCHEMA, "machine": runs[0][1]["machine"],
               "settings": {}, "records": benchlib.aggregate(runs),
               "runs": [{"round": r, "build": "", "speed": d} for r, d in runs]}
        for rec in doc["records"]:
            del rec["ratio_range"]
        rec = benchlib.find(doc["records"], "ours", "chunk64-asm/adx", 2048)
        lo, hi = benchlib.peer_range(doc, rec, "openssl-noblind")
        self.assertAlmostEqual(hi, 1.0)

    def test_unmeasured_records_are_skipped(self):
        self.assertIsNone(benchlib.find(self.summary, "ours-blinded", "chunk64", 2048))

    def test_speedups(self):
        ups = dict(benchlib.speedups(self.summary, 2048))
        self.assertAlmostEqual(ups["64-bit over 32-bit chunks (C)"], 1.8)
        self.assertAlmostEqual(ups["asm adx over C (64-bit)"], 2.0)
        self.assertAlmostEqual(ups["asm baseline over C (64-bit)"], 1.25)

    def test_threads(self):
        t = benchlib.find(self.summary, "ours", "chunk64", 2048, threads=2)
        self.assertAlmostEqual(t["efficiency"], 0.9)
        rows = benchlib.thread_rows(self.summary, 2048)
        self.assertEqual([r[0] for r in rows],
                         ["chunk32", "chunk64", "chunk64-asm/baseline",
                          "chunk64-asm/adx", "OpenSSL"])
        self.assertEqual(rows[1][4], "90%")

    def test_efficiency_above_100_is_flagged(self):
        runs = runs_fixture()
        for r in runs[-1][1]["records"]:  # the last round's chunk64-asm/adx
            if r["threads"] == 2 and r["implementation"] == "ours":
                r["efficiency"] = 1.08
        summary = benchlib.aggregate(runs)
        rows = {r[0]: r for r in benchlib.thread_rows(summary, 2048)}
        self.assertEqual(rows["chunk64-asm/adx"][4], "108%*")
        self.assertEqual(rows["chunk64"][4], "90%")
        self.assertIn("'*': above 100 %, the 1-thread row was disturbed",
                      benchlib.report(summary, {}))


def locks_fixture():
    """One round of one build whose records carry locks per operation and
    the thread table's efficiency range; then one from before those fields."""
    m = machine("chunk64-asm", True, "adx")
    doc = speed_doc(m, 500.0, extra=(
        rec("ours", 2048, 300.0, threads=2, eff=0.85, single=2e6, efficiency_min=0.8,
            efficiency_max=0.9, cpu_share=0.97, locks_per_op=0),
        rec("openssl", 2048, 600.0, threads=2, eff=0.7, single=1e6, efficiency_min=0.6,
            efficiency_max=0.75, cpu_share=0.9, locks_per_op=26.5)))
    for r in doc["records"]:
        if r["threads"] == 1:
            r["locks_per_op"] = {"ours": 0, "openssl": 5.25, "openssl-noblind": 4,
                                 "gmp": 0}.get(r["implementation"])
    return doc


class Locks(unittest.TestCase):
    def test_locks_and_efficiency_range(self):
        summary = benchlib.aggregate([(0, locks_fixture())])
        adx = benchlib.find(summary, "ours", "chunk64-asm/adx", 2048)
        self.assertEqual(adx["locks_per_op"], 0)
        rows = benchlib.key_table_rows(summary, 2048)
        self.assertEqual(benchlib.TABLE_HEADER[-1], "locks/op")
        self.assertEqual(rows[0][-1], "0")
        by_name = {r[0]: r for r in rows}
        self.assertEqual(by_name["OpenSSL (blinded)"][-1], "5.25")
        self.assertEqual(by_name["OpenSSL no IFMA"][-1], "-")  # another process
        trows = benchlib.thread_rows(summary, 2048)
        self.assertEqual(trows[0], ["chunk64-asm/adx", "2", "2,000,000", "3,333,333",
                                    "85%", "80-90%", "97%", "0"])
        self.assertEqual(trows[1][-1], "26.5")
        # 90 % is not low; below it the cell says so and the legend why.
        self.assertEqual(trows[1][6], "90%")
        self.assertEqual(benchlib.fmt_cpu_share(0.62), "62% low")
        # low, but 90% when rounded: a decimal, never "90% low"
        self.assertEqual(benchlib.fmt_cpu_share(0.898), "89.8% low")
        self.assertEqual(benchlib.fmt_cpu_share(0.8996), "89.9% low")
        self.assertEqual(benchlib.fmt_cpu_share(0.9), "90%")
        self.assertIn("cpu 'low' (below 90 %, the chart labels the point): the threads had "
                      "less CPU time", benchlib.report(summary, {}))

    def test_files_from_before_the_counts(self):
        summary = benchlib.aggregate(runs_fixture())
        rows = benchlib.key_table_rows(summary, 2048)
        self.assertTrue(all(r[-1] == "-" for r in rows))
        trows = benchlib.thread_rows(summary, 2048)
        self.assertEqual(trows[0][5:], ["-", "-", "-"])

    def test_merge_reads_the_committed_results(self):
        results = os.path.join(os.path.dirname(HERE), "results")
        if not os.path.isdir(results):
            self.skipTest("no results/ here")
        r = subprocess.run([sys.executable, os.path.join(BENCH, "merge"), "--results", results],
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           universal_newlines=True)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn("RSA-2048 private key", r.stdout)


class Tables(unittest.TestCase):
    def setUp(self):
        self.summary = benchlib.aggregate(runs_fixture())

    def test_key_table_order_and_values(self):
        rows = benchlib.key_table_rows(self.summary, 2048)
        self.assertEqual([r[0] for r in rows],
                         ["chunk32", "chunk64", "chunk64-asm/baseline", "chunk64-asm/adx",
                          "GMP", "OpenSSL no blinding", "OpenSSL (blinded)",
                          "OpenSSL no IFMA"])
        self.assertEqual(rows[3][1], "525")
        self.assertEqual(rows[3][3], "0.25")  # /GMP
        self.assertEqual(rows[3][5], "0.50")  # /OpenSSL blinded
        # Two rounds give no spread (their median is their midpoint, so it
        # would read -x%/+x% for every build): for ours and for the
        # references alike, although theirs pool 8 runs (4 a round).
        self.assertEqual(rows[3][2], "n/a")
        self.assertIsNone(benchlib.find(self.summary, "ours", "chunk64-asm/adx", 2048)["spread"])
        self.assertEqual(rows[4][2], "n/a")

    def test_spread_from_three_rounds(self):
        runs = runs_fixture()
        m = machine("chunk64-asm", True, "adx")
        runs.append((2, speed_doc(m, 520.0, 2000.0, 1000.0)))
        summary = benchlib.aggregate(runs)
        adx = benchlib.find(summary, "ours", "chunk64-asm/adx", 2048)
        self.assertEqual(adx["runs"], 3)
        self.assertEqual(adx["median_ns"], 520.0)  # of 500, 550, 520
        self.assertEqual(adx["spread"], {"low": round(20 / 520, 4), "high": round(30 / 520, 4)})
        row = [r for r in benchlib.key_table_rows(summary, 2048) if r[0] == "chunk64-asm/adx"][0]
        self.assertEqual(row[2], "-4%/+6%")
        # A reference's spread is over its rounds too: round 2 has one run
        # (2000 ns), rounds 0 and 1 four each (2000, 2200 ns).
        gmp = benchlib.find(summary, "gmp", "all", 2048)
        self.assertEqual((gmp["runs"], gmp["rounds"]), (9, 3))
        self.assertEqual(gmp["spread"], {"low": 0.0, "high": round(200 / 2000, 4)})
        self.assertEqual(benchlib.fmt_spread({"median_ns": 500.0, "runs": 1,
                                              "run_min_ns": 500.0, "run_max_ns": 500.0,
                                              "min_ns": 400.0, "max_ns": 600.0}), "n/a")

    def test_text_and_markdown(self):
        text = benchlib.report(self.summary, {}, markdown=False)
        self.assertIn("RSA-2048 private key", text)
        self.assertIn("64-bit over 32-bit chunks (C) 1.80x", text)
        md = benchlib.report(self.summary, {}, markdown=True)
        self.assertIn("| build | ns/op |", md)
        self.assertIn("| chunk64-asm/adx | 525 |", md)
        # Every markdown table row has the header's column count.
        for line in md.splitlines():
            if line.startswith("| build"):
                ncol = line.count("|")
            elif line.startswith("|") and "ns/op" not in line and "threads" not in line:
                self.assertIn(line.count("|"), (ncol, len(benchlib.THREAD_HEADER) + 1))

    def test_aarch64_report_has_no_x86_only_column(self):
        # An aarch64 build's runs (flags asimd and sve) have no OpenSSL
        # no-IFMA record: its report has no such column nor x86 flags;
        # x86-64's keeps the column.
        runs = []
        for rnd in (0, 1):
            for b, ours in (("chunk32", 1800.0), ("chunk64", 1000.0)):
                m = machine(b)
                m["flags"] = {"asimd": True, "sve": False}
                m["kernel"] = "Linux 6 aarch64"
                doc = speed_doc(m, ours)
                doc["records"] = [r for r in doc["records"]
                                  if r["implementation"] != "openssl-noifma"]
                doc["settings"]["implementations"].remove("openssl-noifma")
                runs.append((rnd, doc))
        summary = benchlib.aggregate(runs)
        m = runs[0][1]["machine"]
        self.assertEqual(benchlib.check_speed_doc(runs[0][1]), [])
        rows = benchlib.key_table_rows(summary, 2048, m)
        header = benchlib.table_header(m)
        self.assertNotIn("/OpenSSL no-IFMA", header)
        self.assertEqual({len(r) for r in rows}, {len(header)})
        self.assertEqual(rows[1][header.index("/OpenSSL blinded")], "1.00")
        for markdown in (False, True):
            text = benchlib.report(summary, m, markdown=markdown)
            for word in ("IFMA", "noifma", "ia32cap"):
                self.assertNotIn(word, text)
        lines = benchlib.machine_lines(m)
        self.assertIn("flags     asimd yes, sve no", lines)
        self.assertNotIn("bmi2", lines)
        x86 = benchlib.report(self.summary, machine(), markdown=True)
        self.assertIn("/OpenSSL no-IFMA", x86)
        self.assertIn("OpenSSL no-IFMA runs in a child", x86)
        self.assertIn("bmi2 yes, adx yes, avx512ifma no", benchlib.machine_lines(machine()))

    def test_text_table_alignment(self):
        t = benchlib.text_table(["a", "bb"], [["xxx", "1"], ["y", "22"]])
        self.assertEqual(t.splitlines(), ["a    bb", "---  --", "xxx   1", "y    22"])

    def test_check_speed_doc(self):
        doc = speed_doc(machine(), 1000.0)
        self.assertEqual(benchlib.check_speed_doc(doc), [])
        doc["records"] = [r for r in doc["records"] if r["implementation"] != "gmp"]
        self.assertEqual(benchlib.check_speed_doc(doc), ["no measurement of gmp at 2048 bits"])
        doc["records"] = []
        self.assertIn("no records", benchlib.check_speed_doc(doc))

    def test_gnuplot_data(self):
        # ns, as the tables; the bars named as the tables' rows, OpenSSL's
        # with the versions the run recorded.
        m = dict(machine(), openssl_version="OpenSSL 3.0.22 1 Jan 2027",
                 openssl_wheel_version="OpenSSL 4.0.3 29 Sep 2026")
        bars, threads, bits, units, series, tb = benchlib.gnuplot_data(self.summary, m)
        self.assertEqual(bits, [2048])
        self.assertEqual(units, ["ns"])
        self.assertEqual(tb, 2048)
        lines = bars.strip().splitlines()
        self.assertEqual(lines[0], '"chunk32" 1890 0x9ecae1 0')
        self.assertTrue(lines[6].endswith(" 1"), lines[6])  # OpenSSL, blinded
        self.assertEqual(lines[3].split(" ")[0:2], ['"chunk64-asm/adx"', "525"])
        self.assertEqual(lines[6].rsplit(" ", 3)[0], '"OpenSSL 3.0.22 (system) blinded"')
        rows = [r[0] for r in benchlib.key_table_rows(self.summary, 2048, m)]
        self.assertEqual([l.rsplit(" ", 3)[0].strip('"') for l in lines], rows)
        self.assertEqual(len(lines), 8)
        self.assertEqual(series[-1], "OpenSSL")
        self.assertEqual(threads.count("\n\n\n"), len(series) - 1)
        # Each thread point carries its cpu share (%), 100 for one thread.
        self.assertEqual(threads.split("\n\n\n")[0].splitlines()[0].split()[2], "100")
        self.assertEqual(benchlib.chart_versions(m),
                         "OpenSSL 3.0.22 (system), OpenSSL 4.0.3 (wheel)")

    def test_gnuplot_one_unit(self):
        # A slow key size stays in ns, like the others and the tables.
        runs = runs_fixture() + [(0, speed_doc(machine("chunk64"), 20e6, 30e6, 15e6,
                                               bits=4096))]
        bars, _, bits, units, _, _ = benchlib.gnuplot_data(benchlib.aggregate(runs))
        self.assertEqual(bits, [2048, 4096])
        self.assertEqual(units, ["ns", "ns"])
        self.assertIn('"chunk64" 20000000 ', bars)  # as the tables print it

    def test_slug(self):
        self.assertEqual(benchlib.slug("AMD EPYC 7R13 Processor"), "amd-epyc-7r13-processor")
        self.assertEqual(benchlib.cpu_name({"cpu": "AMD EPYC", "cpu_family": 25, "cpu_model": 1}),
                         "AMD EPYC family 25 model 1")
        self.assertEqual(benchlib.cpu_name({"cpu": "AMD EPYC"}), "AMD EPYC")
        self.assertEqual(benchlib.slug("  (R) "), "r")
        self.assertEqual(benchlib.slug("!!"), "unknown-cpu")


class Merge(unittest.TestCase):
    def run_doc(self, cpu, date, ours_adx, quick=False):
        runs = [(0, speed_doc(machine("chunk64-asm", True, "adx", date, cpu), ours_adx)),
                (0, speed_doc(machine("chunk64", False, "c", date, cpu), 900.0))]
        m = dict(runs[0][1]["machine"])
        return {"schema": benchlib.RUN_SCHEMA, "machine": m,
                "settings": {"quick": quick}, "records": benchlib.aggregate(runs)}

    def test_notes_one_line_a_cpu_and_reason(self):
        lines = benchlib.na_lines({("CPU B", "batch ifma"): "predates the row",
                                   ("CPU B", "batch avx512"): "predates the row",
                                   ("CPU B", "ipp-crypto mb8"): "needs IFMA",
                                   ("CPU A", "wheel"): "no wheel"})
        self.assertEqual([l for l in lines if l], [
            "n/a (wheel), CPU A: no wheel",
            "n/a (batch avx512, batch ifma), CPU B: predates the row",
            "n/a (ipp-crypto mb8), CPU B: needs IFMA"])
        self.assertEqual(benchlib.na_lines({}), [])

    def test_newest_full_run_per_cpu(self):
        docs = [self.run_doc("CPU A", "2026-01-01T00:00:00Z", 700.0),
                self.run_doc("CPU A", "2026-02-01T00:00:00Z", 600.0),
                self.run_doc("CPU A", "2026-03-01T00:00:00Z", 100.0, quick=True),
                self.run_doc("CPU B", "2026-01-05T00:00:00Z", 400.0, quick=True)]
        md = benchlib.merge(docs)
        rows = [l for l in md.splitlines() if l.startswith(("| CPU A", "| CPU B"))]
        self.assertEqual(len(rows), 2, md)
        self.assertIn("2026-02-01", rows[0])
        self.assertIn("| 0.6 |", rows[0])     # chunk64-asm/adx, µs
        self.assertIn("| 0.60 |", rows[0])    # best/OpenSSL
        # no wheel nor ipp-crypto: best/wheel and best/ipp '-'; best/peer
        # against the fastest peer, OpenSSL without blinding (900 ns), its
        # one run the lowest and highest
        self.assertTrue(rows[0].endswith("| 0.60 | - | - | 0.67 (0.67-0.67) |"), rows[0])
        self.assertIn("| best/OpenSSL | best/wheel | best/ipp | best/peer |", md)
        self.assertIn("2026-01-05", rows[1])  # only a quick run: used
        self.assertIn("RSA-2048", md)
        # the newer quick run passed over is named, once; CPU B's is shown
        self.assertEqual(md.count("Not shown, newer but --quick"), 1, md)
        self.assertIn("): CPU A: `2026-03-01T00:00:00Z`.", md)

    def test_command(self):
        tmp = tempfile.mkdtemp()
        try:
            d = os.path.join(tmp, "results", "cpu-a")
            os.makedirs(d)
            with open(os.path.join(d, "2026-01-01-0000.json"), "w") as f:
                json.dump(self.run_doc("CPU A", "2026-01-01T00:00:00Z", 700.0), f)
            readme = os.path.join(tmp, "README.md")
            with open(readme, "w") as f:
                f.write("# x\n\n<!-- RESULTS -->\nold\n<!-- /RESULTS -->\ntail\n")
            merge = os.path.join(BENCH, "merge")
            r = subprocess.run([sys.executable, merge, "--results",
                                os.path.join(tmp, "results"), "--readme", readme],
                               stdout=subprocess.PIPE, universal_newlines=True)
            self.assertEqual(r.returncode, 0)
            self.assertIn("| CPU A (4 threads, adx) |", r.stdout)
            with open(readme) as f:
                text = f.read()
            self.assertNotIn("old", text)
            self.assertTrue(text.endswith("<!-- /RESULTS -->\ntail\n"), text)
            self.assertIn("| CPU A (4 threads, adx) |", text)
            # Under the tables, each row's report and the commit measured
            # (none in this document).
            self.assertIn("Runs (`results/<cpu>/`, each row's report): CPU A: "
                          "`2026-01-01-0000.md` (commit unknown).", text)
            r = subprocess.run([sys.executable, merge, "--results", os.path.join(tmp, "none")],
                               stderr=subprocess.PIPE, universal_newlines=True)
            self.assertEqual(r.returncode, 1)
            self.assertIn("bench/merge: error: --results %s: no such directory"
                          % os.path.join(tmp, "none"), r.stderr)
            os.mkdir(os.path.join(tmp, "empty"))
            r = subprocess.run([sys.executable, merge, "--results", os.path.join(tmp, "empty")],
                               stderr=subprocess.PIPE, universal_newlines=True)
            self.assertEqual(r.returncode, 1)
            self.assertIn("bench/merge: error: no bench/run results under", r.stderr)
            r = subprocess.run([sys.executable, merge, "--readme", readme, "--readme", readme],
                               stderr=subprocess.PIPE, universal_newlines=True)
            self.assertEqual(r.returncode, 2)
            self.assertIn("option '--readme' given twice", r.stderr)
            r = subprocess.run([sys.executable, merge, "--nope"],
                               stderr=subprocess.PIPE, universal_newlines=True)
            self.assertEqual(r.returncode, 2)
            # A device or non-UTF-8 file as --readme is refused before
            # anything is printed; a result file with the schema but not
            # its fields is named.
            for bad in ("/dev/null", os.path.join(tmp, "latin1.md")):
                with open(os.path.join(tmp, "latin1.md"), "wb") as f:
                    f.write(b"\xe9t\xe9 <!-- RESULTS -->\n")
                r = subprocess.run([sys.executable, merge, "--results",
                                    os.path.join(tmp, "results"), "--readme", bad],
                                   stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                   universal_newlines=True)
                self.assertEqual(r.returncode, 2, r.stderr)
                self.assertEqual(r.stdout, "")
            with open(os.path.join(d, "2026-01-02-0000.json"), "w") as f:
                json.dump({"schema": benchlib.RUN_SCHEMA}, f)
            r = subprocess.run([sys.executable, merge, "--results", os.path.join(tmp, "results")],
                               stderr=subprocess.PIPE, universal_newlines=True)
            self.assertEqual(r.returncode, 1)
            self.assertIn("2026-01-02-0000.json: a %s document with missing or wrong fields"
                          % benchlib.RUN_SCHEMA, r.stderr)
        finally:
            shutil.rmtree(tmp)


WHEEL = "OpenSSL 4.0.3 29 Sep 2026"


def wheel_runs(wheel=True):
    """Two rounds of one build measuring the system's OpenSSL and, when
    wheel, the cryptography wheel's, the machine 10 % slower in round 1;
    else the run's reason for going without it."""
    runs = []
    for rnd, drift in ((0, 1.0), (1, 1.1)):
        m = machine("chunk64-asm", True, "adx")
        m["openssl_version"] = "OpenSSL 3.0.19 27 Jan 2026"
        if wheel:
            m.update(openssl_wheel_version=WHEEL, openssl_wheel_cryptography="50.0.2",
                     openssl_wheel_python="/v/bin/python3", openssl_wheel_note=None)
            extra = (rec("openssl-wheel", 2048, 800.0 * drift, call_overhead_ns=70.0 + rnd),
                     rec("openssl-wheel-oaep", 2048, 850.0 * drift, call_overhead_ns=60.0))
        else:
            m.update(openssl_wheel_version=None, openssl_wheel_note="no Python environment at /v")
            extra = ()
        doc = speed_doc(m, 500.0 * drift, 2000.0 * drift, 1000.0 * drift, extra=extra)
        if wheel:
            doc["settings"]["implementations"] += ["openssl-wheel", "openssl-wheel-oaep"]
        runs.append((rnd, doc))
    return runs


class Wheel(unittest.TestCase):
    """The newest OpenSSL (PyPI's cryptography wheel) beside the system's:
    from the same runs, titled with both versions, or the reason it is
    missing."""

    def test_same_runs_and_ratio(self):
        summary = benchlib.aggregate(wheel_runs())
        system = benchlib.find(summary, "openssl", "all", 2048)
        wheel = benchlib.find(summary, "openssl-wheel", "all", 2048)
        self.assertEqual(system["runs"], 2)
        self.assertEqual(wheel["runs"], system["runs"])
        self.assertAlmostEqual(wheel["call_overhead_ns"], 70.5)
        ours = benchlib.find(summary, "ours", "chunk64-asm/adx", 2048)
        self.assertAlmostEqual(ours["ratio"]["openssl-wheel"], 500.0 / 800.0)
        self.assertAlmostEqual(ours["ratio"]["openssl"], 0.5)

    def test_tables_name_both_versions(self):
        runs = wheel_runs()
        summary = benchlib.aggregate(runs)
        m = runs[0][1]["machine"]
        rows = benchlib.key_table_rows(summary, 2048, m)
        titles = [r[0] for r in rows]
        self.assertIn("OpenSSL 3.0.19 (system) blinded", titles)
        self.assertIn("OpenSSL 4.0.3 (wheel)", titles)
        self.assertIn("OpenSSL 4.0.3 (wheel) OAEP", titles)
        ours = rows[0]
        self.assertEqual(ours[benchlib.TABLE_HEADER.index("/OpenSSL wheel")], "0.62")
        md = benchlib.report(summary, m, markdown=True)
        self.assertIn("OpenSSL 4.0.3 (wheel): %s of PyPI cryptography 50.0.2" % WHEEL, md)
        self.assertIn("costs 70 and 60 ns per call", md)
        lines = benchlib.machine_lines(m, markdown=True)
        self.assertIn("- OpenSSL: OpenSSL 3.0.19 27 Jan 2026 (system)", lines)
        self.assertIn("- wheel: %s (PyPI cryptography 50.0.2)" % WHEEL, lines)

    def test_missing_wheel_says_why(self):
        runs = wheel_runs(wheel=False)
        summary = benchlib.aggregate(runs)
        m = runs[0][1]["machine"]
        self.assertEqual(benchlib.check_speed_doc(runs[0][1]), [])
        md = benchlib.report(summary, m, markdown=True)
        self.assertIn("OpenSSL of the cryptography wheel: not measured: no Python "
                      "environment at /v", md)
        doc = {"schema": benchlib.RUN_SCHEMA, "machine": m, "settings": {},
               "records": summary}
        merged = benchlib.merge([doc])
        self.assertIn("| OpenSSL 3.0.19 (system) |", merged)
        self.assertIn("| OpenSSL (wheel) |", merged)
        self.assertIn("| n/a |", merged)
        self.assertIn("no Python environment at /v", merged)

    def test_merge_columns(self):
        runs = wheel_runs()
        doc = {"schema": benchlib.RUN_SCHEMA, "machine": runs[0][1]["machine"],
               "settings": {}, "records": benchlib.aggregate(runs)}
        merged = benchlib.merge([doc])
        header = [l for l in merged.splitlines() if l.startswith("| CPU")][0]
        self.assertIn("| OpenSSL 3.0.19 (system) | OpenSSL no-IFMA | OpenSSL 4.0.3 (wheel) |",
                      header)
        row = [l for l in merged.splitlines() if l.startswith("| Test CPU")][0]
        # system, no-IFMA, wheel: µs, medians of the two rounds
        self.assertIn("| %.1f | %.1f | %.1f |" % (1.05, 2.1, 0.84), row)

    def test_check_speed_doc(self):
        doc = wheel_runs()[0][1]
        self.assertEqual(benchlib.check_speed_doc(doc), [])
        doc["settings"]["implementations"].remove("openssl-wheel")
        self.assertIn("the wheel's OpenSSL has a version but no openssl-wheel",
                      benchlib.check_speed_doc(doc))
        doc = wheel_runs()[0][1]
        doc["machine"]["openssl_wheel_version"] = None
        self.assertIn("openssl-wheel measured without a version",
                      benchlib.check_speed_doc(doc))


IPP = ("Intel\u00ae Cryptography Primitives Library (l9) (ver: 2.3.0 (13.3) "
       "(r0x565db05) build: Sep  8 2026)")
MB_NOTE = "libcrypto_mb: mbx_is_crypto_mb_applicable says this CPU cannot run it"


def ipp_runs(ipp=True, mb8=False):
    """Two rounds of one build with ipp-crypto at 450 ns (and mb8 at 300
    ns when mb8, else its n/a record), the machine 10 % slower in round 1;
    without ipp, the run's reason."""
    runs = []
    for rnd, drift in ((0, 1.0), (1, 1.1)):
        m = machine("chunk64-asm", True, "adx")
        extra = ()
        if ipp:
            m.update(ipp_version=IPP, ipp_features="0xd8000fefff (avx2 adx)",
                     ipp_note=None, ipp_mb_version="crypto_mb (k1)" if mb8 else None,
                     ipp_mb_note=None if mb8 else MB_NOTE)
            mb = (rec("ipp-crypto-mb8", 2048, 300.0 * drift) if mb8 else
                  dict(rec("ipp-crypto-mb8", 2048, 0, samples=0), note="not measured: " + MB_NOTE))
            extra = (rec("ipp-crypto", 2048, 450.0 * drift), mb)
        else:
            m.update(ipp_version=None, ipp_note="no libippcp.so in /v/lib")
        doc = speed_doc(m, 500.0 * drift, 2000.0 * drift, 1000.0 * drift, extra=extra)
        if ipp:
            doc["settings"]["implementations"] += ["ipp-crypto", "ipp-crypto-mb8"]
        runs.append((rnd, doc))
    return runs


class Ipp(unittest.TestCase):
    """Intel's ipp-crypto beside OpenSSL: its rows and ratios from the same
    runs, mb8 n/a with the reason where the CPU cannot run it, and our best
    against the fastest peer."""

    def test_check_speed_doc(self):
        doc = ipp_runs()[0][1]
        self.assertEqual(benchlib.check_speed_doc(doc), [])  # mb8 n/a with a note
        doc["records"][-1]["note"] = None
        self.assertIn("no measurement of ipp-crypto-mb8 at 2048 bits",
                      benchlib.check_speed_doc(doc))
        doc = ipp_runs()[0][1]
        doc["records"] = [r for r in doc["records"] if r["implementation"] != "ipp-crypto"]
        self.assertIn("no measurement of ipp-crypto at 2048 bits", benchlib.check_speed_doc(doc))
        doc = ipp_runs()[0][1]
        doc["settings"]["implementations"].remove("ipp-crypto")
        self.assertIn("ipp-crypto has a version but no ipp-crypto", benchlib.check_speed_doc(doc))
        doc = ipp_runs()[0][1]
        doc["machine"]["ipp_version"] = None
        self.assertIn("ipp-crypto measured without a version", benchlib.check_speed_doc(doc))
        self.assertEqual(benchlib.check_speed_doc(ipp_runs(ipp=False)[0][1]), [])

    def test_tables(self):
        runs = ipp_runs()
        summary = benchlib.aggregate(runs)
        m = runs[0][1]["machine"]
        rows = benchlib.key_table_rows(summary, 2048, m)
        self.assertIn("ipp-crypto 2.3.0 (l9)", [r[0] for r in rows])
        ours = rows[0]
        self.assertEqual(ours[benchlib.TABLE_HEADER.index("/ipp-crypto")], "1.11")
        self.assertEqual(ours[benchlib.TABLE_HEADER.index("/ipp-crypto mb8")], "-")
        md = benchlib.report(summary, m, markdown=True)
        self.assertIn("ipp-crypto: %s, CPU features enabled 0xd8000fefff (avx2 adx): "
                      "ippsRSA_Decrypt on a type-2 (CRT) key" % IPP, md)
        self.assertIn("mb8: not measured: " + MB_NOTE, md)
        # the fastest peer: ipp-crypto, 500/450
        self.assertIn("best/peer: chunk64-asm/adx against the fastest peer of the same "
                      "runs, ipp-crypto 2.3.0 (l9): 1.11", md)
        self.assertIn("- ipp: %s, enabled CPU features 0xd8000fefff" % IPP,
                      benchlib.machine_lines(m, markdown=True))

    def test_mb8_is_no_single_operation_peer(self):
        # mb8 does eight at a time: its ratio is kept, but best/peer is
        # against the fastest single operation (the batch table has
        # batch/mb8).
        summary = benchlib.aggregate(ipp_runs(mb8=True))
        ours = benchlib.find(summary, "ours", "chunk64-asm/adx", 2048)
        self.assertAlmostEqual(ours["ratio"]["ipp-crypto-mb8"], 500.0 / 300.0)
        self.assertEqual(benchlib.best_peer(ours)[0], "ipp-crypto")

    def test_merge_columns(self):
        for mb8, cells in ((False, "| 0.5 | n/a | 0.50 | - | 1.11 | 1.11 (1.11-1.11) |"),
                           (True, "| 0.5 | 0.3 | 0.50 | - | 1.11 | 1.11 (1.11-1.11) |")):
            runs = ipp_runs(mb8=mb8)
            doc = {"schema": benchlib.RUN_SCHEMA, "machine": runs[0][1]["machine"],
                   "settings": {}, "records": benchlib.aggregate(runs)}
            merged = benchlib.merge([doc])
            self.assertIn("| ipp-crypto | ipp-crypto mb8 | best/OpenSSL | best/wheel | "
                          "best/ipp | best/peer |", merged)
            row = [l for l in merged.splitlines() if l.startswith("| Test CPU")][0]
            self.assertTrue(row.endswith(cells), (mb8, row))
            self.assertEqual(MB_NOTE in merged, not mb8)
        runs = ipp_runs(ipp=False)
        doc = {"schema": benchlib.RUN_SCHEMA, "machine": runs[0][1]["machine"],
               "settings": {}, "records": benchlib.aggregate(runs)}
        merged = benchlib.merge([doc])
        self.assertIn("n/a (ipp-crypto), Test CPU 9000: no libippcp.so in /v/lib", merged)


def batch_doc(avx2=True, threads=True, ifma=False):
    """A `bigmont speed --batch --json` document at 2048 bits: CPU ns per
    operation single 1000, IFMA batch 400 (or not run), AVX2 batch 700 (or
    not run), C batch 20000, OpenSSL 1100; with threads, T = 1 and 2 on 2
    cores."""
    def impl(name, ns, kernel="k"):
        return {"name": name, "kernel": kernel, "measured": ns is not None, "rounds": 5,
                "median_ns_per_op": ns, "min_ns_per_op": ns, "cpu_median_ns_per_op": ns,
                "cpu_min_ns_per_op": ns, "ops_per_s": 1e9 / ns if ns else None,
                "ratio_to_single": ns / 1000.0 if ns else None,
                "ratio_to_openssl": ns / 1100.0 if ns else None}
    impls = [impl("ours-single", 1000.0), impl("ours-batch-ifma", 400.0) if ifma else
             impl("ours-batch-ifma", None, "not run: no IFMA build or CPU"),
             impl("ours-batch-avx2", 700.0) if avx2 else
             impl("ours-batch-avx2", None, "not run: no AVX2 build or CPU"),
             impl("ours-batch-c", 20000.0), impl("openssl-noblind", 1100.0)]
    trows = []
    batch = "ours-batch-ifma" if ifma else "ours-batch-avx2" if avx2 else "ours-batch-c"
    for t, share in ((1, 1.0), (2, 0.9)):
        for name, rate in (("ours-single", 1e6 * t * share), (batch, 1.5e6 * t * share)):
            trows.append({"name": name, "threads": t, "ops_per_s": rate,
                          "ops_per_s_per_core": rate / t, "ns_per_op_per_core": 1e9 * t / rate,
                          "efficiency": share if t > 1 else None,  # T = 1: the baseline
                          "efficiency_min": share if t > 1 else None,
                          "efficiency_max": share if t > 1 else None, "cpu_share": share,
                          "single_thread_ops_per_cpu_s": 1e6 if name == "ours-single" else 1.5e6,
                          "ratio_to_single": 1e6 * t * share / rate, "note": ""})
    return {"schema": benchlib.BATCH_SCHEMA, "machine": machine("chunk64-asm", True, "adx"),
            "batch_kernel": "avx2" if avx2 else "none", "min_rounds": 5, "cores": 2,
            "thread_counts": [1, 2] if threads else [1],
            "keys": [{"key": "embedded:rsa2048.pem", "bits": 2048, "ops_per_call": 8,
                      "implementations": impls, "threads": trows if threads else []}]}


class Batch(unittest.TestCase):
    """The batch table of bench/run's report and of bench/merge: CPU ns per
    operation of single and batch per lane build, same-run ratios, ops/s
    per core, OpenSSL single, ipp-crypto mb8 from the speed runs or n/a
    with the reason, and the rows per T."""

    def test_check_batch_doc(self):
        self.assertEqual(benchlib.check_batch_doc(batch_doc()), [])
        self.assertEqual(benchlib.check_batch_doc(batch_doc(avx2=False)), [])
        doc = batch_doc()
        doc["keys"][0]["implementations"].pop()  # openssl-noblind
        self.assertIn("no measurement of openssl-noblind at 2048 bits",
                      benchlib.check_batch_doc(doc))
        doc = batch_doc(avx2=False)
        doc["keys"][0]["implementations"][2]["kernel"] = ""
        self.assertIn("ours-batch-avx2 at 2048 bits neither measured nor saying why",
                      benchlib.check_batch_doc(doc))
        self.assertIn("no keys", benchlib.check_batch_doc(dict(batch_doc(), keys=[])))

    def test_rows_and_mb8(self):
        for mb8, cell in ((True, "315"), (False, "n/a")):
            runs = ipp_runs(mb8=mb8)
            summary = benchlib.aggregate(runs)
            rows, notes = benchlib.batch_rows(batch_doc(), summary, runs[0][1]["machine"])
            self.assertEqual(rows, [[2048, "1,000", "n/a", "n/a", "n/a", "n/a", "700", "20,000",
                                     "n/a", "n/a", "n/a", "n/a", "0.700", "20.000", "1,000,000",
                                     "1,428,571",
                                     "1,100", "0.636", cell,
                                     "2.222" if mb8 else "n/a"]])  # 700 / 315
            self.assertEqual(MB_NOTE in notes.get("ipp-crypto mb8", ""), not mb8, notes)
        rows, notes = benchlib.batch_rows(batch_doc(avx2=False), [], {"ipp_note": "no ipp"})
        self.assertEqual(rows[0][6], "n/a")
        self.assertEqual(rows[0][15], "50,000")  # batch ops/s/core: the C lanes, the only ones
        self.assertEqual(notes, {"batch avx2": "not run: no AVX2 build or CPU",
                                 "batch avx512": "not in that run's --batch (it predates the row)",
                                 "batch fma": "not in that run's --batch (it predates the row)",
                                 "batch fma512": "not in that run's --batch (it predates the row)",
                                 "batch ifma": "not run: no IFMA build or CPU",
                                 "ipp-crypto mb8": "no ipp"})
        # The IFMA row, where measured, is the batch the ratios take.
        doc = batch_doc(ifma=True)
        rows, notes = benchlib.batch_rows(doc, [], {"ipp_note": "no ipp"})
        self.assertEqual(rows[0][2:16], ["400", "n/a", "n/a", "n/a", "700", "20,000", "0.400",
                                         "n/a", "n/a", "n/a", "0.700", "20.000", "1,000,000",
                                         "2,500,000"])
        self.assertEqual(rows[0][17], "0.364")
        self.assertNotIn("batch ifma", notes)
        self.assertEqual(benchlib.check_batch_doc(doc), [])
        self.assertEqual(benchlib.batch_thread_rows(doc)[0][1], "1 (ifma)")
        # mb8 in the batch's own run, interleaved: taken before the speed runs'.
        doc["keys"][0]["implementations"].append(
            {"name": "ipp-crypto-mb8", "kernel": "8 lanes a call", "measured": True,
             "rounds": 5, "cpu_median_ns_per_op": 500.0})
        runs = ipp_runs(mb8=True)
        rows, notes = benchlib.batch_rows(doc, benchlib.aggregate(runs), runs[0][1]["machine"])
        self.assertEqual(rows[0][18:], ["500", "0.800"])
        self.assertNotIn("ipp-crypto mb8", notes)
        self.assertEqual(benchlib.check_batch_doc(doc), [])
        # A run with each round's own ratios: their medians, not the
        # medians' ratio, in the batch/single and batch/mb8 cells.
        ifma_row = doc["keys"][0]["implementations"][1]
        ifma_row.update(ratio_to_single_rounds=0.41, ratio_to_mb8_rounds=0.83)
        rows, notes = benchlib.batch_rows(doc, benchlib.aggregate(runs), runs[0][1]["machine"])
        self.assertEqual(rows[0][8], "0.410")
        self.assertEqual(rows[0][18:], ["500", "0.830"])
        ifma_row.update(ratio_to_single_rounds=None, ratio_to_mb8_rounds=None)
        # Its row there but not measured: n/a with the row's reason, not the
        # speed runs' figure.
        doc["keys"][0]["implementations"][-1].update(measured=False, kernel=MB_NOTE,
                                                     cpu_median_ns_per_op=None)
        rows, notes = benchlib.batch_rows(doc, benchlib.aggregate(runs), runs[0][1]["machine"])
        self.assertEqual(rows[0][18:], ["n/a", "n/a"])
        self.assertEqual(notes["ipp-crypto mb8"], MB_NOTE)
        self.assertEqual(benchlib.check_batch_doc(doc), [])

    def test_thread_rows(self):
        self.assertEqual(benchlib.batch_thread_rows(batch_doc()), [
            [2048, "1 (avx2)", "1,000,000", "1,500,000", "0.667", "-", "-", "100%"],
            [2048, "2 (avx2)", "900,000", "1,350,000", "0.667", "90%", "90%", "90%"]])
        self.assertEqual(benchlib.batch_thread_rows(batch_doc(threads=False)), [])
        self.assertEqual(benchlib.batch_thread_rows(batch_doc(avx2=False))[1][1], "2 (c)")

    def test_report_and_merge(self):
        runs = ipp_runs()
        summary = benchlib.aggregate(runs)
        m = runs[0][1]["machine"]
        batch = {"command": "bigmont speed --batch --bits 2048", "doc": batch_doc()}
        md = benchlib.batch_report(batch, summary, m, markdown=True, command=batch["command"])
        self.assertIn("| 2048 | 1,000 | n/a | n/a | n/a | n/a | 700 | 20,000 | n/a | n/a | n/a | n/a "
                      "| 0.700 |", md)
        self.assertIn("`bigmont speed --batch --bits 2048`, lane kernel 'avx2'", md)
        self.assertIn("n/a (ipp-crypto mb8): ", md)
        self.assertIn("| 2048 | 2 (avx2) | 900,000 | 1,350,000 | 0.667 |", md)
        self.assertIn("not measured: no 64-bit build",
                      benchlib.batch_report({"note": "no 64-bit build"}, summary, m))
        doc = {"schema": benchlib.RUN_SCHEMA, "machine": m, "settings": {},
               "records": summary, "batch": batch}
        merged = benchlib.merge([doc])
        self.assertIn("| Test CPU 9000 | 2026-01-01 | 2048 | 1,000 | n/a | n/a | n/a | n/a | 700 "
                      "| 20,000 |", merged)
        # mb8's reason once, under the first tables, not again under the batch's
        self.assertEqual(merged.count(MB_NOTE), 1, merged)
        del doc["batch"]  # a run from before the batch: no batch table
        self.assertNotIn("in batches", benchlib.merge([doc]))


def load_bench_run():
    """bench/run as a module (it has no .py name)."""
    import importlib.machinery
    import importlib.util
    loader = importlib.machinery.SourceFileLoader("bench_run", os.path.join(BENCH, "run"))
    spec = importlib.util.spec_from_loader("bench_run", loader)
    run = importlib.util.module_from_spec(spec)
    loader.exec_module(run)
    return run


class RunMachineBlock(unittest.TestCase):
    def test_what_each_build_says_of_itself_stays_in_its_runs(self):
        """The report's machine is the first build's without its own
        fields: a chunk32 build's empty tuning and table read would
        otherwise stand for the whole run."""
        run = load_bench_run()
        first = {"cpu": "Test CPU", "cpu_family": 6, "build": "chunk32", "chunk_bits": 32,
                 "asm": False, "variant": "c", "table_read": "c", "r52_tuning": "",
                 "tuning_table": "", "bigmont_cpu_env": "", "openssl_ia32cap_env": "",
                 "gmp_version": "6.2.1"}
        asm = dict(first, build="chunk64-asm", asm=True, variant="ifma", table_read="vl",
                   r52_tuning="intel", tuning_table="model")
        m = run.machine_block([{"machine": first}, {"machine": asm}])
        self.assertEqual(m, {"cpu": "Test CPU", "cpu_family": 6, "gmp_version": "6.2.1"})


class RunArguments(unittest.TestCase):
    """bench/run refuses a bad value before any setup, build or timing."""

    def test_sigterm_cleans_up_as_sigint(self):
        """timeout(1) sends SIGTERM: run() stops as on SIGINT (exit 130,
        one line) and removes the staging directory main made."""
        run = load_bench_run()
        staging = tempfile.mkdtemp(prefix=".bench-run-test-")

        def main(argv):
            run.STAGING.append(staging)
            os.kill(os.getpid(), signal.SIGTERM)
            time.sleep(5)
            return 0
        run.main = main
        err = io.StringIO()
        try:
            with contextlib.redirect_stderr(err):
                self.assertEqual(run.run([]), 130)
        finally:
            for sig in (signal.SIGTERM, signal.SIGHUP):
                signal.signal(sig, signal.SIG_DFL)
        self.assertFalse(os.path.exists(staging))
        self.assertIn("bench/run: interrupted; no result files written", err.getvalue())

    def test_refused_at_once(self):
        run = os.path.join(BENCH, "run")
        for args, says in ((["--rounds", "0"], "--rounds must be 1 to 100"),
                           (["--seconds", "0"], "--seconds must be from 0.01 to 60"),
                           (["--bits", "123"], "the embedded keys are of"),
                           (["--bits", "1024,1024"], "given twice"),
                           (["--quick", "--quick"], "option '--quick' given twice"),
                           (["--rounds", "1", "--rounds=2"], "option '--rounds' given twice"),
                           # an abbreviation is no option: it cannot
                           # slip a repeat past the check
                           (["--rounds", "2", "--round", "3"], "unrecognized arguments: --round"),
                           (["--builds", "chunk64,chunk64"], "'chunk64' is given twice"),
                           (["--build-dir", "chunk32=/x", "--build-dir", "chunk32=/y"],
                            "--build-dir: chunk32 is given twice"),
                           (["--threads", "2000"], "at most 1024"),
                           (["--builds", ""], "is not one of"),
                           (["--results", os.path.join(BENCH, "run")], "not a directory")):
            r = subprocess.run([sys.executable, run] + args, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, universal_newlines=True, timeout=60)
            self.assertEqual(r.returncode, 2, (args, r.stderr))
            self.assertIn(says, r.stderr)
            self.assertEqual(r.stdout, "", args)

    def test_results_never_replace_a_run(self):
        run = load_bench_run()
        tmp = tempfile.mkdtemp()
        try:
            self.assertEqual(run.unused_name(tmp, "2026-01-01-0000"), "2026-01-01-0000")
            open(os.path.join(tmp, "2026-01-01-0000-kernels.txt"), "w").close()
            self.assertEqual(run.unused_name(tmp, "2026-01-01-0000"), "2026-01-01-0000-2")
            open(os.path.join(tmp, "2026-01-01-0000-2.json"), "w").close()
            self.assertEqual(run.unused_name(tmp, "2026-01-01-0000"), "2026-01-01-0000-3")
        finally:
            shutil.rmtree(tmp)


FAKE_BIGMONT = """#!%s
import shutil, sys
a = sys.argv[1:]
if "--kernels" in a:
    print("fake kernel tables")
elif "--batch" in a:
    shutil.copy(%r.replace("speed.json", "batch.json"), a[a.index("--json") + 1])
elif "--json" in a:
    shutil.copy(%r, a[a.index("--json") + 1])
else:
    sys.exit(2)
"""


class RunOutput(unittest.TestCase):
    """What bench/run --quick prints, with a stand-in bigmont whose JSON is
    known: the kernel tables' header names the file they go to, only final
    paths are printed (never the staging directory), and two rounds give
    no spread."""

    def test_quick_run_prints_final_paths(self):
        tmp = tempfile.mkdtemp()
        try:
            doc = os.path.join(tmp, "speed.json")
            with open(doc, "w") as f:
                json.dump(speed_doc(machine("chunk64"), 1000.0), f)
            with open(os.path.join(tmp, "batch.json"), "w") as f:
                json.dump(batch_doc(threads=False), f)
            exe = os.path.join(tmp, "build", "cli", "bigmont")
            os.makedirs(os.path.dirname(exe))
            with open(exe, "w") as f:
                f.write(FAKE_BIGMONT % (sys.executable, doc, doc))
            os.chmod(exe, 0o755)
            results = os.path.join(tmp, "results")
            env = dict(os.environ, PATH="/usr/bin:/bin")
            r = subprocess.run([sys.executable, os.path.join(BENCH, "run"), "--quick",
                                "--no-setup", "--no-build", "--builds", "chunk64",
                                "--bits", "2048", "--threads", "1",
                                "--build-dir", "chunk64=" + os.path.join(tmp, "build"),
                                "--results", results],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               universal_newlines=True, timeout=120, env=env)
            self.assertEqual(r.returncode, 0, r.stderr)
            self.assertNotIn(".bench-run-", r.stdout + r.stderr)
            lines = r.stdout.splitlines()
            head = [l for l in lines if l.startswith("=== kernel tables")]
            self.assertEqual(len(head), 1, r.stdout)
            slug = benchlib.slug("Test CPU 9000")
            self.assertRegex(head[0], r"into .*results/%s/[0-9-]+-quick-kernels\.txt$" % slug)
            name = head[0].rsplit("/", 1)[1][:-len("-kernels.txt")]
            published = sorted(os.listdir(os.path.join(results, slug)))
            self.assertIn(name + "-kernels.txt", published)
            self.assertIn(name + ".json", published)
            with open(os.path.join(results, slug, name + "-kernels.txt")) as f:
                self.assertIn("fake kernel tables", f.read())
            row = [l for l in lines if l.startswith("chunk64 ")][0]
            self.assertEqual(row.split()[2], "n/a", row)  # spread of two rounds
            with open(os.path.join(results, slug, name + ".json")) as f:
                res = json.load(f)
            ours = [x for x in res["records"] if x["implementation"] == "ours"][0]
            self.assertIsNone(ours["spread"])
            # the batch run: its document kept, its table in the report
            self.assertEqual(res["batch"]["doc"]["schema"], benchlib.BATCH_SCHEMA)
            self.assertIn("speed --batch --bits 2048 --seconds 0.15 --build chunk64",
                          res["batch"]["command"])
            self.assertNotIn("--threads", res["batch"]["command"])  # T = 1 only
            with open(os.path.join(results, slug, name + ".md")) as f:
                self.assertIn("| 2048 | 1,000 | n/a | n/a | n/a | n/a | 700 | 20,000 |", f.read())
            self.assertIn("in batches", r.stdout)
        finally:
            shutil.rmtree(tmp)

    def test_provider_section_names_the_final_file(self):
        sys.path.insert(0, BENCH)
        import openssl_provider as op
        tmp = tempfile.mkdtemp()
        saved = op.run, op.markdown
        try:
            staging = os.path.join(tmp, ".bench-run-x")
            os.makedirs(staging)
            base = os.path.join(staging, "2026-01-01-0000")
            with open(base + ".json", "w") as f:
                json.dump({}, f)
            open(base + ".md", "w").close()
            os.makedirs(os.path.join(tmp, "build", "provider"))
            open(os.path.join(tmp, "build", "provider", "bigmont.so"), "w").close()
            op.run = lambda args: {"schema": "test"}
            op.markdown = lambda doc: "table\n"
            import contextlib
            import io
            out = io.StringIO()
            with contextlib.redirect_stdout(out):
                op.main(["--result", base, "--result-as", os.path.join(tmp, "2026-01-01-0000"),
                         "--build-dir", os.path.join(tmp, "build"), "--no-build",
                         "--openssl", "/bin/true"])
            self.assertNotIn(".bench-run-", out.getvalue())
            self.assertRegex(out.getvalue(), r"added to \S*2026-01-01-0000\.\{json,md\}")
            with open(base + ".json") as f:
                self.assertEqual(json.load(f)["openssl_provider"], {"schema": "test"})
        finally:
            op.run, op.markdown = saved
            shutil.rmtree(tmp)


# A bigmont (/bin/sh: no interpreter to start) whose `speed --batch` writes
# its --json from the file BATCH_JSON names, if there is one, after the
# text of BATCH_STDOUT and BATCH_STDERR, and exits BATCH_EXIT; its other
# speed runs do the same with SPEED_JSON, SPEED_STDOUT, SPEED_STDERR and
# SPEED_EXIT (default 0).
FAKE_BIGMONT_SH = """#!/bin/sh
batch=0 json=
while [ $# -gt 0 ]; do
  case "$1" in --batch) batch=1 ;; --json) json=$2; shift ;; esac
  shift
done
if [ $batch = 0 ]; then
  printf '%s' "$SPEED_STDOUT"
  printf '%s' "$SPEED_STDERR" >&2
  [ -z "$SPEED_JSON" ] || cp "$SPEED_JSON" "$json"
  exit "${SPEED_EXIT:-0}"
fi
printf '%s' "$BATCH_STDOUT"
printf '%s' "$BATCH_STDERR" >&2
[ -z "$BATCH_JSON" ] || cp "$BATCH_JSON" "$json"
exit "$BATCH_EXIT"
"""


class RunBatchFailures(FakeBigmontSteps, unittest.TestCase):
    """bench/run's batch run (run_batch), with a stand-in bigmont: one that
    exits non-zero, writes no JSON, what is not JSON or not an object,
    another schema's document, one without what the batch table reads
    (batch_doc_shape) or one that fails check_batch_doc stops bench/run
    with exit 1 and one error line
    naming the command and why (after the command's own output); a run
    without a 64-bit build has no batch run, and a note saying why.  One
    failure end to end: nothing published."""

    def setUp(self):
        super().setUp()
        self.speed_json = os.path.join(self.tmp, "speed.json")
        with open(self.speed_json, "w") as f:
            json.dump(speed_doc(machine("chunk64"), 1000.0), f)
        self.shown = "%s speed --batch --bits 2048 --seconds 0.15 --build chunk64" % (
            os.path.relpath(self.exe, os.path.dirname(BENCH)))

    def fake_env(self, code=0, batch=None, stdout="", stderr=""):
        """batch: a document (dumped as JSON), text (written as it is), or
        None (no --json file written)."""
        return {"SPEED_JSON": self.speed_json,
                "BATCH_JSON": self.given("batch-given.json", batch), "BATCH_EXIT": str(code),
                "BATCH_STDOUT": stdout, "BATCH_STDERR": stderr}

    def run_batch(self, builds="chunk64", **fake):
        """run_batch of bench/run --quick --bits 2048 --threads 1 on the
        stand-in: (its exit status or None, what it returned, its stderr)."""
        args = self.bench.parse_args(["--quick", "--no-setup", "--no-build", "--builds", builds,
                                    "--bits", "2048", "--threads", "1", "--build-dir",
                                    "%s=%s" % (builds, os.path.join(self.tmp, "build"))])
        confs = [c for c in (("chunk32", "chunk32", None), ("chunk64", "chunk64", None))
                 if c[0] == builds]
        return call_step(self.fake_env(**fake), lambda: self.bench.run_batch(args, confs, self.tmp))

    def test_batch_command_fails(self):
        # A wrong answer (exit 1), and a bigmont whose speed has no --batch
        # (exit 2): the command's output and message, then the error.
        for code, says in ((1, "bigmont: error: embedded:rsa2048.pem: ours-batch-avx2 "
                               "gives a wrong answer (not GMP's)"),
                           (2, "bigmont: error: unknown option '--batch' "
                               "(try 'bigmont speed --help')")):
            r = self.run_batch(code=code, batch=batch_doc(threads=False),
                               stdout="RSA-2048 private key (embedded:rsa2048.pem)\n",
                               stderr=says + "\n")
            self.assert_stopped(r, "%s failed (exit %d): %s" % (self.shown, code, says))
            self.assertTrue(r[2].startswith("RSA-2048 private key (embedded:rsa2048.pem)\n"
                                            + says + "\n"), r[2])

    def test_message_not_utf8(self):
        r = self.run_batch(code=1, stdout="key \udcff\n", stderr="bigmont: error: key \udcff\n")
        self.assert_stopped(r, "%s failed (exit 1): bigmont: error: key \ufffd" % self.shown)

    def test_batch_command_fails_silently(self):
        self.assert_stopped(self.run_batch(code=3),
                            "%s failed (exit 3): no message" % self.shown)

    def test_no_json(self):
        self.assert_stopped(self.run_batch(), "%s: exit 0 but no JSON document (No such "
                            "file or directory)" % self.shown)

    def test_not_a_batch_document(self):
        r = self.run_batch(batch=speed_doc(machine("chunk64"), 1000.0))
        self.assert_stopped(r, "%s: %s: not a bigmont-speed-batch/1 document" % (
            self.shown, os.path.join(self.tmp, "batch.json")))

    def test_not_json(self):
        for text in ("", "Segmentation fault\n", '{"schema": "bigmont-speed-batch/1", "ke'):
            with self.subTest(text):
                code, got, err = self.run_batch(batch=text)
                self.assertEqual((code, got), (1, None), err)
                self.assertTrue(err.startswith("bench/run: error: %s: %s: not JSON (" % (
                    self.shown, os.path.join(self.tmp, "batch.json"))), err)
                self.assertEqual(len(err.splitlines()), 1, err)

    def test_not_an_object(self):
        for text in ("[]", "7", "null", '"text"'):
            with self.subTest(text):
                self.assert_stopped(self.run_batch(batch=text),
                                    "%s: %s: not a bigmont-speed-batch/1 document" % (
                                        self.shown, os.path.join(self.tmp, "batch.json")))

    def test_shape_refused(self):
        # What the batch table reads, missing or of another type: said, not
        # met as a TypeError or KeyError in the report.
        for change, says in (
                (lambda d: d.update(keys={}), "keys not a list"),
                (lambda d: d["keys"].append(2048), "keys[1] not an object"),
                (lambda d: d["keys"][0].pop("bits"), "keys[0].bits missing or not a whole number"),
                (lambda d: d["keys"][0].update(implementations="x"),
                 "keys[0].implementations not a list of objects"),
                (lambda d: d["keys"][0]["implementations"][4].update(name={"x": 1}),
                 "keys[0].implementations[4].name missing or not a string"),
                (lambda d: d["keys"][0]["implementations"][2].update(cpu_median_ns_per_op=None),
                 "keys[0].implementations[2] measured without a positive cpu_median_ns_per_op"),
                (lambda d: d["keys"][0].update(threads=[1]),
                 "keys[0].threads not a list of objects"),
                (lambda d: d["keys"][0]["threads"][3].update(ops_per_s_per_core="1e6"),
                 "keys[0].threads[3]: threads, ops_per_s_per_core or cpu_share missing or "
                 "mistyped")):
            with self.subTest(says):
                doc = batch_doc()
                change(doc)
                self.assert_stopped(self.run_batch(batch=doc), "%s: %s" % (self.shown, says))

    def test_batch_document_fails_its_check(self):
        doc = batch_doc(threads=False)
        impls = doc["keys"][0]["implementations"]
        impls[3]["measured"] = False  # ours-batch-c
        impls.pop()  # openssl-noblind
        self.assert_stopped(self.run_batch(batch=doc),
                            "%s: no measurement of ours-batch-c at 2048 bits; no measurement "
                            "of openssl-noblind at 2048 bits" % self.shown)

    def test_batch_measured(self):
        code, got, err = self.run_batch(batch=batch_doc(threads=False))
        self.assertEqual((code, err), (None, ""))
        self.assertEqual(got, {"command": self.shown, "doc": batch_doc(threads=False)})

    def test_no_64_bit_build(self):
        code, got, err = self.run_batch(builds="chunk32", code=1, stderr="never run\n")
        self.assertEqual((code, err), (None, ""))
        self.assertEqual(got, {"note": "no 64-bit build (chunk64-asm, chunk64) in this run"})

    def test_run_stops_and_publishes_nothing(self):
        results = os.path.join(self.tmp, "results")
        env = dict(os.environ, PATH="/usr/bin:/bin", **self.fake_env(
            code=1, stderr="bigmont: error: embedded:rsa2048.pem: ours-batch-c gives a wrong "
            "answer (not GMP's)\n"))
        r = self.quick_run(results, env)
        self.assertEqual(r.returncode, 1, r.stderr)
        self.assertEqual(r.stderr.splitlines()[-1], "bench/run: error: %s failed (exit 1): "
                         "bigmont: error: embedded:rsa2048.pem: ours-batch-c gives a wrong "
                         "answer (not GMP's)" % self.shown)
        self.assertIn("=== batch: bigmont speed --batch", r.stdout)
        self.assertNotIn("in batches", r.stdout)  # no report
        self.assertEqual([f for _, _, fs in os.walk(results) for f in fs], [])


class RunSpeedFailures(FakeBigmontSteps, unittest.TestCase):
    """bench/run's speed runs (run_speed), with a stand-in bigmont: one
    that exits non-zero, writes no JSON, or what is not JSON, not a
    bigmont-speed/1 document, one without what the report reads, or one
    that fails check_speed_doc stops bench/run with exit 1 and one error
    line naming the command (its variant, without the temporary --json
    file) and why, after the command's own output.  One failure end to
    end: no traceback, no batch run, nothing under --results."""

    def setUp(self):
        super().setUp()
        self.shown = "%s speed --bits 2048 --seconds 0.15 --build chunk64" % (
            os.path.relpath(self.exe, os.path.dirname(BENCH)))
        self.out = os.path.join(self.tmp, "r0-chunk64.json")  # run_speed's --json

    def fake_env(self, code=0, speed=None, stdout="", stderr=""):
        """speed: a document (dumped as JSON), text (written as it is), or
        None (no --json file written)."""
        return {"SPEED_JSON": self.given("speed-given.json", speed), "SPEED_EXIT": str(code),
                "SPEED_STDOUT": stdout, "SPEED_STDERR": stderr}

    def run_speed(self, conf=("chunk64", "chunk64", None), **fake):
        """run_speed of round 1 of bench/run --quick --bits 2048 --threads 1
        on the stand-in: (its exit status or None, what it returned, its
        stderr)."""
        args = self.bench.parse_args(["--quick", "--no-setup", "--no-build", "--builds", conf[0],
                                      "--bits", "2048", "--threads", "1", "--build-dir",
                                      "%s=%s" % (conf[1], os.path.join(self.tmp, "build"))])
        return call_step(self.fake_env(**fake),
                         lambda: self.bench.run_speed(args, conf, 0, False, self.tmp))

    def test_speed_command_fails(self):
        # The command's output and message, then the error; a kernel
        # variant is named as it was set.
        says = "bigmont: error: embedded:rsa2048.pem: ours gives a wrong answer (not GMP's)"
        r = self.run_speed(code=1, speed=speed_doc(machine("chunk64"), 1000.0),
                           stdout="RSA-2048 private key (embedded:rsa2048.pem)\n",
                           stderr=says + "\n")
        self.assert_stopped(r, "%s failed (exit 1): %s" % (self.shown, says))
        self.assertTrue(r[2].startswith("RSA-2048 private key (embedded:rsa2048.pem)\n"
                                        + says + "\n"), r[2])
        says = ("bigmont: error: BIGMONT_CPU=adx is not available here (this CPU lacks "
                "BMI2/ADX); the best is 'baseline'")
        r = self.run_speed(conf=("chunk64-asm/adx", "chunk64-asm", "adx"), code=2,
                           stderr=says + "\n")
        self.assert_stopped(r, "BIGMONT_CPU=adx %s failed (exit 2): %s" % (
            self.shown[:-len("chunk64")] + "chunk64-asm", says))

    def test_message_not_utf8(self):
        # A byte that is no UTF-8 (\udcff: 0xff in os.environ) is shown as
        # U+FFFD, not a UnicodeDecodeError.
        r = self.run_speed(code=1, stdout="key \udcff\n", stderr="bigmont: error: key \udcff\n")
        self.assert_stopped(r, "%s failed (exit 1): bigmont: error: key \ufffd" % self.shown)

    def test_speed_command_fails_silently(self):
        self.assert_stopped(self.run_speed(code=3), "%s failed (exit 3): no message" % self.shown)

    def test_no_json(self):
        self.assert_stopped(self.run_speed(), "%s: exit 0 but no JSON document (No such "
                            "file or directory)" % self.shown)

    def test_not_json(self):
        for text in ("", "Segmentation fault\n", '{"schema": "bigmont-speed/1", "rec',
                     '{"schema": "bigmont-speed/1"}\xff'):
            code, got, err = self.run_speed(speed=text)
            self.assertEqual((code, got), (1, None), (text, err))
            self.assertTrue(err.startswith("bench/run: error: %s: %s: not JSON (" % (
                self.shown, self.out)), (text, err))
            self.assertEqual(len(err.splitlines()), 1, err)

    def test_not_a_speed_document(self):
        for doc in ([], 7, '"text"', {"schema": "bigmont-speed/2"},
                    batch_doc(threads=False)):
            self.assert_stopped(self.run_speed(speed=doc), "%s: %s: not a bigmont-speed/1 "
                                "document" % (self.shown, self.out))

    def test_shape_refused(self):
        # What the report reads, missing or of another type: said, not met
        # as a KeyError half way through the tables.
        good = speed_doc(machine("chunk64"), 1000.0)
        for change, says in (
                (lambda d: d.pop("machine"), "no machine object"),
                (lambda d: d["machine"].pop("cpu"), "machine.cpu missing or not a string"),
                (lambda d: d["machine"].update(logical_cores="4"),
                 "machine.logical_cores missing or not a whole number"),
                (lambda d: d["machine"].update(asm=True),
                 "machine.variant missing or not a string"),
                (lambda d: d["machine"].update(cpu_slug="../../elsewhere"),
                 'machine.cpu_slug "../../elsewhere" is not a slug (a-z, 0-9, single -)'),
                (lambda d: d["machine"].update(cpu_slug=""),
                 'machine.cpu_slug "" is not a slug (a-z, 0-9, single -)'),
                (lambda d: d["machine"].update(cpu_slug=7),
                 "machine.cpu_slug not a string or null"),
                (lambda d: d["machine"].update(flags=1), "machine.flags not an object"),
                (lambda d: d["machine"].update(ipp_version=2.3),
                 "machine.ipp_version not a string or null"),
                (lambda d: d["machine"].update(openssl_wheel_version=4),
                 "machine.openssl_wheel_version not a string or null"),
                (lambda d: d["records"][0].pop("ops_per_s"),
                 "records[0]: ops_per_s missing or mistyped"),
                (lambda d: d["records"][5].update(samples=3, median_ns=float("nan"),
                                                  min_ns=1.0, max_ns=float("inf")),
                 "records[5]: median_ns, max_ns missing or mistyped"),
                (lambda d: d.update(settings=[]),
                 "settings.implementations missing or not a list of names"),
                (lambda d: d.update(records={}), "no records list"),
                (lambda d: d["records"].append("x"), "records[6] not an object"),
                (lambda d: d["records"][1].pop("median_ns"),
                 "records[1]: median_ns missing or mistyped"),
                (lambda d: d["records"][0].update(bits="2048", samples=-1),
                 "records[0]: bits, samples missing or mistyped")):
            with self.subTest(says):
                doc = json.loads(json.dumps(good))
                change(doc)
                if doc.get("machine", {}).get("asm"):
                    doc["machine"].pop("variant")
                self.assert_stopped(self.run_speed(speed=doc), "%s: %s" % (self.shown, says))

    def test_speed_document_fails_its_check(self):
        doc = speed_doc(machine("chunk64"), 1000.0)
        doc["records"][1]["samples"] = 0  # gmp
        self.assert_stopped(self.run_speed(speed=doc),
                            "%s: no measurement of gmp at 2048 bits" % self.shown)

    def test_speed_measured(self):
        doc = speed_doc(machine("chunk64"), 1000.0)
        code, got, err = self.run_speed(speed=doc)
        self.assertEqual((code, err), (None, ""))
        self.assertEqual(got, doc)

    def test_run_stops_and_publishes_nothing(self):
        results = os.path.join(self.tmp, "results")
        env = dict(os.environ, PATH="/usr/bin:/bin", **self.fake_env(speed="[1, 2"))
        r = self.quick_run(results, env)
        self.assertEqual(r.returncode, 1, r.stderr)
        self.assertNotIn("Traceback", r.stderr)
        self.assertRegex(r.stderr, r"\Abench/run: error: %s: \S+/r0-chunk64\.json: not JSON "
                         r"\([^\n]*\)\n\Z" % self.shown.replace(".", r"\."))
        self.assertNotIn("=== batch", r.stdout)
        self.assertEqual([f for _, _, fs in os.walk(results) for f in fs], [])


class RunKernelTablesAndChart(FakeBigmontSteps, unittest.TestCase):
    """bench/run's kernel tables (kernel_tables) with a stand-in bigmont,
    and its chart (write_chart) with a stand-in gnuplot: output that is no
    UTF-8 is written or said with U+FFFD, never a UnicodeDecodeError; a
    kernel run or gnuplot that fails, or exits 0 without its tables or
    chart, is a note on stderr and the run goes on without that file."""

    def call(self, fn, env):
        """fn() with env added to os.environ: (what it returned, its stderr)."""
        code, got, err = call_step(env, fn)
        if code is not None:
            raise SystemExit(code)
        return got, err

    def kernel_tables(self, **env):
        args = self.bench.parse_args(["--quick", "--no-setup", "--no-build", "--builds",
                                      "chunk64", "--build-dir", "chunk64=" + os.path.dirname(
                                          os.path.dirname(self.exe))])
        path = os.path.join(self.tmp, "k-kernels.txt")
        if os.path.exists(path):
            os.remove(path)
        got, err = self.call(lambda: self.bench.kernel_tables(
            args, [("chunk64", "chunk64", None)], path), dict(SPEED_JSON="", **env))
        text = None
        if os.path.exists(path):
            with open(path, encoding="utf-8") as f:
                text = f.read()
        return got, err, text

    def test_kernel_tables_not_utf8(self):
        got, err, text = self.kernel_tables(SPEED_STDOUT="peak \udcff\n")
        self.assertEqual(err, "")
        self.assertTrue(got.endswith("speed --kernels"), got)
        self.assertTrue(text.endswith("\n\npeak \ufffd\n"), text)
        got, err, text = self.kernel_tables(SPEED_EXIT="1", SPEED_STDERR="bigmont: error: "
                                            "--kernels: \udcff\n")
        self.assertEqual((got, text), (None, None))
        self.assertRegex(err, r"\Abench/run: \S.* speed --kernels failed \(exit 1\): bigmont: "
                         "error: --kernels: \ufffd\n\\Z")

    def test_kernel_tables_empty(self):
        got, err, text = self.kernel_tables(SPEED_STDOUT=" \n")
        self.assertEqual((got, text), (None, None))
        self.assertRegex(err, r"\Abench/run: \S.* speed --kernels exited 0 but printed no "
                         r"tables: no kernel tables\n\Z")

    def fake_gnuplot(self, script):
        bindir = os.path.join(self.tmp, "bin")
        os.makedirs(bindir, exist_ok=True)
        with open(os.path.join(bindir, "gnuplot"), "w") as f:
            f.write("#!/bin/sh\n" + script)
        os.chmod(os.path.join(bindir, "gnuplot"), 0o755)
        return bindir + ":/usr/bin:/bin"

    def write_chart(self, path_env):
        summary = benchlib.aggregate(runs_fixture())
        png = os.path.join(self.tmp, "chart.png")
        ok, err = self.call(lambda: self.bench.write_chart(summary, "title", png, self.tmp,
                                                           machine("chunk64")),
                            {"PATH": path_env})
        return ok, err, png

    def test_gnuplot_message_not_utf8(self):
        ok, err, png = self.write_chart(self.fake_gnuplot(
            "printf 'line 1: \\377\\n' >&2\nexit 1\n"))
        self.assertEqual((ok, os.path.exists(png)), (False, False))
        self.assertEqual(err, "bench/run: gnuplot failed: line 1: \ufffd\n")

    def test_gnuplot_writes_no_chart(self):
        # Exit 0 and no file, or an empty one: no chart claimed (the .md
        # would link it, the last line would name it).
        png = os.path.join(self.tmp, "chart.png")  # write_chart's out='...'
        for script in ("exit 0\n", ": > %s\n" % png):
            with self.subTest(script):
                ok, err, png = self.write_chart(self.fake_gnuplot(script))
                self.assertEqual((ok, os.path.exists(png)), (False, False))
                self.assertEqual(err, "bench/run: gnuplot exited 0 but wrote no chart: no "
                                 "chart\n")
        ok, err, png = self.write_chart(self.fake_gnuplot("echo png > %s\n" % png))
        self.assertEqual((ok, err, os.path.getsize(png)), (True, "", 4))


class RunStepsThatCannotStart(unittest.TestCase):
    """A step of bench/run whose program cannot be started (cmake not
    installed, a bigmont built for another machine, a script without its
    execute bit) stops bench/run with exit 1 and one error line naming the
    command and why, not a traceback; nothing under --results.  bench/run's
    main() in this process (no interpreter to start)."""

    def setUp(self):
        self.tmp = tempfile.mkdtemp()
        self.addCleanup(shutil.rmtree, self.tmp)
        self.results = os.path.join(self.tmp, "results")

    def bench_main(self, args, path, run=None):
        """bench/run's main(--quick --bits 2048 --threads 1 --results ... +
        args) with PATH path: (its exit status, its stderr)."""
        import contextlib
        import io
        run = run or load_bench_run()
        saved = dict(os.environ)
        os.environ["PATH"] = path
        err, code = io.StringIO(), None
        try:
            with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
                run.main(["--quick", "--bits", "2048", "--threads", "1", "--results",
                          self.results] + args)
        except SystemExit as e:
            code = e.code
        finally:
            os.environ.clear()
            os.environ.update(saved)
        return code, err.getvalue()

    def assert_stopped(self, r, error):
        self.assertEqual(r, (1, "bench/run: error: %s\n" % error))
        self.assertEqual([f for _, _, fs in os.walk(self.results) for f in fs], [])

    def test_no_cmake(self):
        empty = os.path.join(self.tmp, "bin")  # PATH without cmake
        os.makedirs(empty)
        build = os.path.join(self.tmp, "build")
        r = self.bench_main(["--no-setup", "--builds", "chunk64", "--build-dir",
                             "chunk64=" + build], empty)
        self.assert_stopped(r, "cmake --preset chunk64 -B %s: cannot start cmake: No such "
                            "file or directory" % build)

    def test_bigmont_of_another_machine(self):
        exe = os.path.join(self.tmp, "build", "cli", "bigmont")
        os.makedirs(os.path.dirname(exe))
        with open(exe, "wb") as f:  # no ELF of this machine, no #! line
            f.write(b"\x7fELF\x01\x01\x01" + bytes(57))
        os.chmod(exe, 0o755)
        r = self.bench_main(["--no-setup", "--no-build", "--builds", "chunk64", "--build-dir",
                             "chunk64=" + os.path.join(self.tmp, "build")], "/usr/bin:/bin")
        self.assert_stopped(r, "%s speed --bits 2048 --seconds 0.15 --build chunk64: cannot "
                            "start bigmont: Exec format error" % os.path.relpath(
                                exe, os.path.dirname(BENCH)))

    def test_setup_without_execute_bit(self):
        # bench/run of a copy whose scripts/setup lost its modes: bench/run
        # loaded with ROOT a scratch checkout holding only that script.
        run = load_bench_run()
        run.ROOT = self.tmp
        script = os.path.join(self.tmp, "scripts", "setup")
        os.makedirs(os.path.dirname(script))
        with open(script, "w") as f:
            f.write("#!/bin/sh\nexit 0\n")
        os.chmod(script, 0o644)
        self.assert_stopped(self.bench_main(["--builds", "chunk64"], os.environ["PATH"], run),
                            "scripts/setup: cannot start setup: Permission denied")


class RunResultsSubdir(unittest.TestCase):
    """A file where bench/run's results/<cpu slug>/ goes stops it after
    the first speed run names the CPU (exit 1, one line), not with a
    FileExistsError after all the rounds; the file is left as it was.
    bench/run's main() in this process."""

    def test_file_in_the_way(self):
        tmp = tempfile.mkdtemp()
        self.addCleanup(shutil.rmtree, tmp)
        exe = os.path.join(tmp, "build", "cli", "bigmont")
        os.makedirs(os.path.dirname(exe))
        with open(exe, "w") as f:
            f.write(FAKE_BIGMONT_SH)
        os.chmod(exe, 0o755)
        with open(os.path.join(tmp, "speed.json"), "w") as f:
            json.dump(speed_doc(machine("chunk64"), 1000.0), f)
        with open(os.path.join(tmp, "batch.json"), "w") as f:
            json.dump(batch_doc(threads=False), f)
        results = os.path.join(tmp, "results")
        os.makedirs(results)
        in_the_way = os.path.join(results, benchlib.slug("Test CPU 9000"))
        with open(in_the_way, "w") as f:
            f.write("a file\n")
        import contextlib
        import io
        saved = dict(os.environ)
        os.environ.update(PATH="/usr/bin:/bin", SPEED_JSON=os.path.join(tmp, "speed.json"),
                          BATCH_JSON=os.path.join(tmp, "batch.json"), BATCH_EXIT="0")
        out, err, code = io.StringIO(), io.StringIO(), None
        try:
            with contextlib.redirect_stderr(err), contextlib.redirect_stdout(out):
                load_bench_run().main(["--quick", "--no-setup", "--no-build", "--builds",
                                       "chunk64", "--bits", "2048", "--threads", "1",
                                       "--build-dir", "chunk64=" + os.path.join(tmp, "build"),
                                       "--results", results])
        except SystemExit as e:
            code = e.code
        finally:
            os.environ.clear()
            os.environ.update(saved)
        self.assertEqual((code, err.getvalue()), (1, "bench/run: error: --results: %s is there "
                                                     "and not a directory\n" % in_the_way))
        self.assertIn("round 1/2", out.getvalue())
        self.assertNotIn("round 2/2", out.getvalue())  # stopped after the first run
        self.assertEqual(os.listdir(results), [os.path.basename(in_the_way)])
        with open(in_the_way) as f:
            self.assertEqual(f.read(), "a file\n")


class OtherScriptArguments(unittest.TestCase):
    """tests/run, scripts/setup, profiles/record and profiles/compare refuse
    bad arguments at once (exit 2), before building or profiling, and
    profiles/record --out never replaces what is not a regular file."""

    ROOT = os.path.dirname(BENCH)

    def refused(self, cmd, says):
        r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           universal_newlines=True, timeout=60, cwd=self.ROOT)
        self.assertEqual(r.returncode, 2, (cmd, r.stderr))
        self.assertIn(says, r.stderr, cmd)

    def test_wheel_venv_names_a_directory_it_cannot_make(self):
        """Not python3-venv's fault: the message names the directory (and
        the run goes on without the wheel: exit 0)."""
        r = subprocess.run([os.path.join(self.ROOT, "scripts", "wheel-venv"),
                            "/dev/null/sub/venv"], stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, universal_newlines=True, timeout=60)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn("wheel-venv: cannot create /dev/null/sub (is the tree writable?)", r.stderr)
        self.assertNotIn("python3-venv)", r.stderr)

    def test_refused(self):
        root = self.ROOT
        self.refused([os.path.join(root, "tests", "run"), ""], "unknown preset ''")
        self.refused([os.path.join(root, "tests", "run"), "chunk64", "bogus"],
                     "unknown preset 'bogus'")
        self.refused([os.path.join(root, "tests", "run"), "chunk64", "chunk64"],
                     "preset 'chunk64' given twice")
        self.refused([os.path.join(root, "scripts", "setup"), "--bogus"], "unknown argument")
        record = [sys.executable, os.path.join(root, "profiles", "record"), "--no-build",
                  "--bigmont", "/bin/true"]
        tmp = tempfile.mkdtemp()
        try:
            self.refused(record + ["--out", "/dev/null"], "not a regular file")
            self.refused(record + ["--out", tmp], "not a regular file")
            self.refused(record + ["--out", ""], "--out needs a file name")
            self.refused(record + ["--out", os.path.join(tmp, "no", "x.txt")], "no directory")
            # the default name is build/<P>'s profile: another binary's needs --out
            self.refused(record, "--bigmont needs --out")
            # the title would name a preset the binary is not
            self.refused(record + ["--preset", "chunk32", "--out", os.path.join(tmp, "p.txt")],
                         "--preset: not with --bigmont")
            self.refused(record + ["--seconds", "0.005", "--out", os.path.join(tmp, "p.txt")],
                         "--seconds: 0.005 is not from 0.01 to 3600")
            self.refused(record + ["--bits", "1024", "--bits", "2048"],
                         "option '--bits' given twice")
            self.refused(record + ["--bits", "1024", "--bit", "2048"],
                         "unrecognized arguments: --bit")
        finally:
            shutil.rmtree(tmp)
        self.assertTrue(os.path.exists("/dev/null") and not os.path.isfile("/dev/null"))
        some = os.path.join(root, "profiles", "README.md")
        self.refused([sys.executable, os.path.join(root, "profiles", "compare"), "--min", "nan",
                      some, some], "--min: a share from 0 to 100")
        self.refused([sys.executable, os.path.join(root, "profiles", "compare"), "--fold",
                      "--fold", some, some], "option '--fold' given twice")


if __name__ == "__main__":
    unittest.main(verbosity=1)
