#!/usr/bin/env python3
"""Tests of bench/openssl_provider.py's pure parts on known input: the
`openssl speed -mr` parser, the `bigmont speed` figures of a round (from
a stand-in bigmont) and the one error line when that run fails, hangs or
writes no or malformed JSON, the TLS certificate's failure (a stand-in
openssl), and the markdown table (values and ratios)."""
import json
import os
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "bench"))
import openssl_provider as op  # noqa: E402

SPEED_MR = """+DTP:1024:private:rsa:1
+R1:1304:1024:1.02
+DTP:1024:public:rsa:1
+R2:17496:1024:1.01
+F2:1:1024:1278.431373:17322.772277
+F2:3:2048:201.500000:9000.250000
"""


class ParseSpeed(unittest.TestCase):
    def test_f2_lines(self):
        self.assertEqual(op.parse_speed(SPEED_MR),
                         {1024: (1278.431373, 17322.772277), 2048: (201.5, 9000.25)})

    def test_nothing(self):
        self.assertEqual(op.parse_speed("rsa 2048 bits 0.001s\n"), {})


class BigmontSpeedRound(unittest.TestCase):
    def test_blinded_one_thread_in_the_variant_that_ran(self):
        """A stand-in bigmont writes a speed document: the round takes
        ours-blinded at one thread per key size and names build/variant."""
        doc = {"schema": "bigmont-speed/1",
               "machine": {"build": "chunk64-asm", "variant": "ifma"}, "records": [
            {"implementation": "ours", "bits": 2048, "threads": 1, "ops_per_s": 2000.0},
            {"implementation": "ours-blinded", "bits": 2048, "threads": 2, "ops_per_s": 3000.0},
            {"implementation": "ours-blinded", "bits": 2048, "threads": 1, "ops_per_s": 1500.0},
            {"implementation": "ours-blinded", "bits": 1024, "threads": 1, "ops_per_s": 6000.0},
        ]}
        with tempfile.TemporaryDirectory() as tmp:
            os.makedirs(os.path.join(tmp, "cli"))
            exe = os.path.join(tmp, "cli", "bigmont")
            with open(os.path.join(tmp, "doc.json"), "w") as f:
                json.dump(doc, f)
            with open(exe, "w") as f:
                f.write("#!/bin/sh\n# the path after --json gets the document\n"
                        "while [ $# -gt 0 ]; do [ \"$1\" = --json ] && cp %s \"$2\"; shift; done\n"
                        % os.path.join(tmp, "doc.json"))
            os.chmod(exe, 0o755)
            label, rates = op.bigmont_speed_round(tmp, [1024, 2048], 1, tmp)
        self.assertEqual(label, "chunk64-asm/ifma")
        self.assertEqual(rates, {2048: 1500.0, 1024: 6000.0})

    def stopped(self, script, doc_text=None):
        """bigmont_speed_round at 2048 bits on a /bin/sh stand-in bigmont
        running script, with $DOC a file holding doc_text (if given):
        (its exit status, its stderr, the command it names)."""
        import contextlib
        import io
        with tempfile.TemporaryDirectory() as tmp:
            os.makedirs(os.path.join(tmp, "cli"))
            exe = os.path.join(tmp, "cli", "bigmont")
            doc = os.path.join(tmp, "doc.json")
            if doc_text is not None:
                with open(doc, "w") as f:
                    f.write(doc_text)
            with open(exe, "w") as f:
                f.write("#!/bin/sh\nDOC=%s\n%s" % (doc, script))
            os.chmod(exe, 0o755)
            err = io.StringIO()
            with self.assertRaises(SystemExit) as cm, contextlib.redirect_stderr(err):
                op.bigmont_speed_round(tmp, [2048], 1, tmp)
            shown = "%s speed --bits 2048 --seconds 1 --compare none" % os.path.relpath(
                exe, op.ROOT)
            return cm.exception.code, err.getvalue(), shown, os.path.join(tmp, "speed.json")

    # the stand-in's copy of $DOC to the path after --json
    COPY = 'while [ $# -gt 0 ]; do [ "$1" = --json ] && cp "$DOC" "$2"; shift; done\n'

    def test_a_failing_bigmont_speed_stops_the_run(self):
        code, err, shown, _ = self.stopped("echo 'bigmont: error: no key' >&2\nexit 1\n")
        self.assertEqual(code, 1)
        self.assertEqual(err, "bigmont: error: no key\nbench/openssl_provider.py: error: "
                         "%s failed (exit 1): bigmont: error: no key\n" % shown)
        code, err, shown, _ = self.stopped("exit 3\n")
        self.assertEqual((code, err), (1, "bench/openssl_provider.py: error: %s failed "
                                          "(exit 3): no message\n" % shown))

    def test_message_not_utf8(self):
        # 0xff, no UTF-8: shown as U+FFFD, not a UnicodeDecodeError
        code, err, shown, _ = self.stopped("printf 'bigmont: error: key \\377\\n' >&2\nexit 1\n")
        self.assertEqual((code, err.splitlines()[-1]), (1, "bench/openssl_provider.py: error: "
                                                           "%s failed (exit 1): bigmont: error: "
                                                           "key \ufffd" % shown))

    def test_no_answer_stops_the_run(self):
        # A bigmont that hangs is killed after TIMEOUT (here 0.1 s): one
        # line, not a TimeoutExpired traceback.
        saved = op.TIMEOUT
        op.TIMEOUT = 0.1
        try:
            code, err, shown, _ = self.stopped("exec sleep 10\n")
        finally:
            op.TIMEOUT = saved
        self.assertEqual((code, err), (1, "bench/openssl_provider.py: error: %s: no answer in "
                                          "0.1 s\n" % shown))

    def test_no_json_stops_the_run(self):
        code, err, shown, _ = self.stopped("exit 0\n")
        self.assertEqual((code, err), (1, "bench/openssl_provider.py: error: %s: exit 0 but "
                                          "no JSON document (No such file or directory)\n"
                         % shown))

    def test_malformed_json_stops_the_run(self):
        good = {"schema": "bigmont-speed/1", "machine": {"build": "chunk64-asm",
                                                          "variant": "adx"}, "records": []}
        for text, says in (
                ("", "{out}: not JSON (Expecting value: line 1 column 1 (char 0))"),
                ('{"schema": "bigmont-speed/1", "mach',
                 "{out}: not JSON (Unterminated string starting at: line 1 column 31 "
                 "(char 30))"),
                ("[]", "{out}: not a bigmont-speed/1 document"),
                (json.dumps(dict(good, schema="bigmont-speed-batch/1")),
                 "{out}: not a bigmont-speed/1 document"),
                (json.dumps(dict(good, machine={"build": "chunk64-asm"})),
                 "machine.build or machine.variant missing or not a string"),
                (json.dumps(dict(good, machine=None)),
                 "machine.build or machine.variant missing or not a string"),
                (json.dumps(dict(good, records={"ours-blinded": 1})),
                 "records not a list of objects"),
                (json.dumps(dict(good, records=[2048])), "records not a list of objects")):
            with self.subTest(text):
                code, err, shown, out = self.stopped(self.COPY, text)
                self.assertEqual((code, err), (1, "bench/openssl_provider.py: error: %s: %s\n"
                                               % (shown, says.format(out=out))))


class Certificate(unittest.TestCase):
    def test_a_failing_openssl_stops_the_run(self):
        """make_certificate with a stand-in openssl whose genpkey fails:
        one line naming the command and its message, not a
        CalledProcessError traceback."""
        import contextlib
        import io
        with tempfile.TemporaryDirectory() as tmp:
            openssl = os.path.join(tmp, "openssl")
            with open(openssl, "w") as f:
                f.write("#!/bin/sh\necho 'genpkey: Error setting rsa_keygen_bits:2048' >&2\n"
                        "exit 1\n")
            os.chmod(openssl, 0o755)
            err = io.StringIO()
            with self.assertRaises(SystemExit) as cm, contextlib.redirect_stderr(err):
                op.make_certificate(openssl, tmp)
        self.assertEqual((cm.exception.code, err.getvalue()), (
            1, "bench/openssl_provider.py: error: %s genpkey -algorithm RSA -pkeyopt "
            "rsa_keygen_bits:2048 -out server.key failed (exit 1): genpkey: Error setting "
            "rsa_keygen_bits:2048\n" % openssl))


class Markdown(unittest.TestCase):
    def test_rows_and_ratios(self):
        doc = {
            "settings": {"seconds": 2, "rounds": 2, "handshakes": 300, "warmup_handshakes": 5},
            "config": "provider/bigmont.cnf", "openssl_version": "OpenSSL 3.0",
            "bigmont_speed_source": "results/x.json",
            "speed": [{"bits": 2048,
                       "bigmont": {"sign_per_s": 1800.0, "verify_per_s": 50000.0},
                       "default": {"sign_per_s": 1600.0, "verify_per_s": 60000.0},
                       "bigmont_speed": {"ops_per_s": 1850.0},
                       "provider_over_bigmont_speed": 1800.0 / 1850.0,
                       "provider_over_default": 1800.0 / 1600.0}],
            "tls": [{"case": "TLS 1.3", "bigmont": {"handshakes_per_s": 400.0},
                     "default": {"handshakes_per_s": 380.0}, "bigmont_over_default": 400 / 380}],
        }
        text = op.markdown(doc)
        # Rates as whole numbers, as the other tables print counts; the
        # main table's figure '-' where there is none.
        self.assertIn("| RSA-2048 | 1,800 | 1,600 | 1,850 | - | 0.973 | 1.125 | 50,000 | 60,000 |",
                      text)
        self.assertIn("| TLS 1.3 | 400 | 380 | 1.053 |", text)
        self.assertIn("-elapsed -seconds 2", text)
        # Beside it, the ns/op table's blinded row of the same build, as
        # ops/s, said to be another measurement.
        doc["speed"][0]["bigmont_speed"]["build"] = "chunk64-asm/adx"
        op.add_table_rates(doc, {"records": [
            {"implementation": "ours-blinded", "build": "chunk64-asm/adx", "bits": 2048,
             "threads": 1, "median_ns": 500000.0},
            {"implementation": "ours", "build": "chunk64-asm/adx", "bits": 2048,
             "threads": 1, "median_ns": 400000.0},
            {"implementation": "ours-blinded", "build": "chunk64", "bits": 2048,
             "threads": 1, "median_ns": 900000.0}]})
        text = op.markdown(doc)
        self.assertIn("| RSA-2048 | 1,800 | 1,600 | 1,850 | 2,000 | 0.973 |", text)
        self.assertIn("not the same measurement as the ns/op table's blinded row", text)


class SpeedThroughTheProvider(unittest.TestCase):
    """A stand-in openssl: with the provider's report in the environment,
    a run the provider did no operation in (its module did not load, and
    OpenSSL 3.0 measured the default provider) stops the benchmark."""

    def run_speed(self, writes_report):
        with tempfile.TemporaryDirectory() as tmp:
            exe = os.path.join(tmp, "openssl")
            with open(exe, "w") as f:
                f.write("#!/bin/sh\n%sprintf '%s'\n" % (
                    "echo bigmont-private-ops=12 > \"$BIGMONT_PROVIDER_REPORT\"\n"
                    if writes_report else "", SPEED_MR.replace("\n", "\\n")))
            os.chmod(exe, 0o755)
            env = op.provider_env(op.clean_env(), os.path.join(tmp, "nowhere"),
                                  os.path.join(tmp, "report"))
            return op.openssl_speed(exe, env, 1, [1024, 2048])

    def test_provider_in_use(self):
        self.assertEqual(self.run_speed(True)[2048], (201.5, 9000.25))

    def test_provider_not_loaded_stops_the_run(self):
        with self.assertRaises(SystemExit) as cm:
            self.run_speed(False)
        self.assertEqual(cm.exception.code, 1)


if __name__ == "__main__":
    unittest.main()
