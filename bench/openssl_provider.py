#!/usr/bin/env python3
"""bench/openssl_provider.py -- RSA through OpenSSL's own tools, with and
without the bigmont provider (provider/, bigmont.so), next to `bigmont
speed`'s figures for the same work.

  1. `openssl speed -elapsed -seconds S rsa1024 rsa2048 rsa3072 rsa4096`,
     once with provider/bigmont.cnf (bigmont preferred) and once with the
     default provider alone, alternating, --rounds times; the median sign/s
     and verify/s of each.  -elapsed: without it `openssl speed` divides by
     user CPU time, which leaves out the kernel time of the getrandom()
     calls in bigmont's blinding and would flatter it.
  2. `bigmont speed`'s ops/s for `ours-blinded` (blinding and fault check
     on, as in the provider) of the chunk64-asm build in the CPU's default
     variant (the provider's), measured in the same rounds, between the two
     openssl speed runs.
     `openssl speed`'s sign is that private operation plus PKCS #1 v1.5
     type 1 padding of 36 bytes and OpenSSL's EVP dispatch, so the two
     should agree to a few percent.
  3. TLS handshakes on 127.0.0.1: `openssl s_server` with a fresh RSA-2048
     certificate, with and without the provider, and a fixed number of
     handshakes by a small client (this script, python's ssl module) for
     TLS 1.2 with RSA key exchange (AES128-GCM-SHA256) and TLS 1.3 with an
     RSA-PSS signature (rsa_pss_rsae_sha256); handshakes/s (client wall
     time, median over rounds).  The server's private-key operations are
     checked with the provider's report (BIGMONT_PROVIDER_REPORT).  Client
     and server share the machine, so the rate is a whole-system figure.

usage: bench/openssl_provider.py [--build-dir DIR] [--result BASE] [options]

options:
  --build-dir DIR   the chunk64-asm build (default build/chunk64-asm); its
                    target bigmont_provider is built unless --no-build
  --result BASE     add a section to BASE.json (key "openssl_provider") and
                    BASE.md, the files bench/run wrote
  --result-as NAME  the name to print for BASE: bench/run writes its files
                    in a staging directory and moves them to NAME at the end
  --seconds S       openssl speed -seconds (an integer; default 2)
  --rounds N        alternations with/without the provider (default 2)
  --bits LIST       default 1024,2048,3072,4096
  --handshakes N    timed handshakes per configuration and round (default 300)
  --quick           1 s, 1 round, 1024,2048 bits, 50 handshakes
  --openssl PATH    the openssl command (default: openssl on PATH)
  --no-build        use bigmont.so as it is
"""

import argparse
import json
import os
import re
import shutil
import socket
import ssl
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import benchlib  # noqa: E402
ROOT = os.path.dirname(HERE)
CONFIG = os.path.join(ROOT, "provider", "bigmont.cnf")
SCHEMA = "bigmont-openssl-provider/1"
WARMUP_HANDSHAKES = 5
TIMEOUT = 600

TLS_CASES = [
    # label, s_server options, client protocol
    ("TLS 1.2, RSA key exchange (AES128-GCM-SHA256)",
     ["-tls1_2", "-cipher", "AES128-GCM-SHA256"], "1.2"),
    ("TLS 1.3, RSA-PSS signature (rsa_pss_rsae_sha256)",
     ["-tls1_3", "-sigalgs", "rsa_pss_rsae_sha256"], "1.3"),
]


def die(msg):
    print("bench/openssl_provider.py: error: %s" % msg, file=sys.stderr)
    sys.exit(1)


def answered(cmd, shown, **kw):
    """subprocess.run(cmd, timeout=TIMEOUT, **kw), or the run stopped with
    "<shown>: no answer in N s" (the command killed) or "<shown>: cannot
    start <program>: <why>"."""
    try:
        return subprocess.run(cmd, timeout=TIMEOUT, **kw)
    except subprocess.TimeoutExpired:
        die("%s: no answer in %g s" % (shown, TIMEOUT))
    except OSError as e:
        die("%s: cannot start %s: %s" % (shown, os.path.basename(cmd[0]), e.strerror or e))


def clean_env():
    env = dict(os.environ)
    for var in ("OPENSSL_CONF", "OPENSSL_MODULES", "BIGMONT_PROVIDER_REPORT", "BIGMONT_CPU"):
        env.pop(var, None)
    return env


def provider_env(env, modules, report=None):
    env = dict(env, OPENSSL_CONF=CONFIG, OPENSSL_MODULES=modules)
    if report:
        env["BIGMONT_PROVIDER_REPORT"] = report
    return env


def read_report(path):
    total = 0
    if os.path.exists(path):
        with open(path) as f:
            for line in f:
                key, _, value = line.strip().partition("=")
                if key == "bigmont-private-ops":
                    total += int(value)
    return total


def openssl_speed(openssl, env, seconds, bits):
    """{bits: (sign/s, verify/s)} from one `openssl speed -mr` run.  With
    the provider's report in env, the provider must have done private-key
    operations: a module that does not load is no error to OpenSSL 3.0,
    which then measures the default provider."""
    cmd = [openssl, "speed", "-mr", "-elapsed", "-seconds", str(seconds)] + \
          ["rsa%d" % b for b in bits]
    report = env.get("BIGMONT_PROVIDER_REPORT")
    if report and os.path.exists(report):
        os.remove(report)
    r = answered(cmd, " ".join(cmd), env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                 universal_newlines=True, errors="replace")
    if r.returncode != 0:
        die("%s failed: %s" % (" ".join(cmd), r.stderr.strip()[-500:]))
    if report and read_report(report) == 0:
        die("openssl speed with %s did no private-key operation in the bigmont provider: "
            "it did not load from %s (OPENSSL_MODULES), and the default provider was "
            "measured" % (os.path.relpath(env.get("OPENSSL_CONF", "?"), ROOT),
                          env.get("OPENSSL_MODULES", "?")))
    rates = parse_speed(r.stdout)
    missing = [b for b in bits if b not in rates]
    if missing:
        die("openssl speed printed no result for %s bits" % missing)
    return rates


def parse_speed(text):
    """{bits: (sign/s, verify/s)} from `openssl speed -mr`'s +F2 lines
    (+F2:<index>:<bits>:<sign/s>:<verify/s>)."""
    rates = {}
    for line in text.splitlines():
        m = re.match(r"\+F2:\d+:(\d+):([0-9.]+):([0-9.]+)", line)
        if m:
            rates[int(m.group(1))] = (float(m.group(2)), float(m.group(3)))
    return rates


def bigmont_speed_round(build_dir, bits, seconds, tmp):
    """One `bigmont speed --compare none` of the chunk64-asm build in the
    CPU's default variant (the one the provider runs): (build label,
    {bits: ops/s of ours-blinded}), blinding and fault check on as in the
    provider."""
    out = os.path.join(tmp, "speed.json")
    exe = os.path.join(build_dir, "cli", "bigmont")
    cmd = [exe, "speed", "--bits", ",".join(map(str, bits)), "--seconds", str(seconds),
           "--compare", "none"]
    shown = " ".join([os.path.relpath(exe, ROOT)] + cmd[1:])  # not the temporary --json
    r = answered(cmd + ["--json", out], shown, env=clean_env(), stdout=subprocess.DEVNULL,
                 stderr=subprocess.PIPE, universal_newlines=True, errors="replace")
    if r.returncode != 0:
        sys.stderr.write(r.stderr)
    doc, why = benchlib.command_json(shown, r, out)
    if why:
        die(why)
    m, recs = doc.get("machine"), doc.get("records")
    if not (isinstance(m, dict) and isinstance(m.get("build"), str) and
            isinstance(m.get("variant"), str)):
        die("%s: machine.build or machine.variant missing or not a string" % shown)
    if not (isinstance(recs, list) and all(isinstance(rec, dict) for rec in recs)):
        die("%s: records not a list of objects" % shown)
    label = "%s/%s" % (m["build"], m["variant"])
    return label, {rec["bits"]: rec["ops_per_s"] for rec in recs
                   if rec.get("implementation") == "ours-blinded" and rec.get("threads") == 1
                   and rec.get("bits") in bits and isinstance(rec.get("ops_per_s"), (int, float))
                   and rec["ops_per_s"] > 0}


def make_certificate(openssl, tmp):
    key, cert = os.path.join(tmp, "server.key"), os.path.join(tmp, "server.crt")
    for cmd in ([openssl, "genpkey", "-algorithm", "RSA", "-pkeyopt", "rsa_keygen_bits:2048",
                 "-out", key],
                [openssl, "req", "-x509", "-new", "-key", key, "-subj", "/CN=localhost",
                 "-days", "2", "-out", cert]):
        shown = " ".join(os.path.basename(c) if c in (key, cert) else c for c in cmd)
        r = answered(cmd, shown, env=clean_env(), stdout=subprocess.DEVNULL,
                     stderr=subprocess.PIPE, universal_newlines=True, errors="replace")
        if r.returncode != 0:
            die(benchlib.command_failed(shown, r))
    return key, cert


def client_loop(port, protocol, count):
    """The client: `count` full handshakes (no resumption); wall seconds."""
    ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
    ctx.check_hostname = False
    ctx.verify_mode = ssl.CERT_NONE
    version = ssl.TLSVersion.TLSv1_2 if protocol == "1.2" else ssl.TLSVersion.TLSv1_3
    ctx.minimum_version = ctx.maximum_version = version
    if protocol == "1.2":
        ctx.set_ciphers("AES128-GCM-SHA256")
    start = time.perf_counter()
    for _ in range(count):
        with socket.create_connection(("127.0.0.1", port), timeout=30) as sock:
            with ctx.wrap_socket(sock) as tls:
                tls.getpeercert(binary_form=True)
    return time.perf_counter() - start


def tls_rate(args, key, cert, server_opts, protocol, with_provider, tmp):
    """(handshakes/s, private ops the provider counted or None)."""
    report = os.path.join(tmp, "report")
    if os.path.exists(report):
        os.remove(report)
    env = clean_env()
    if with_provider:
        env = provider_env(env, args.modules, report)
    log_path = os.path.join(tmp, "server.log")
    total = WARMUP_HANDSHAKES + args.handshakes
    with open(log_path, "w") as log:
        server = subprocess.Popen(
            [args.openssl, "s_server", "-accept", "127.0.0.1:0", "-naccept", str(total),
             "-cert", cert, "-key", key] + server_opts,
            env=env, stdin=subprocess.PIPE, stdout=log, stderr=subprocess.STDOUT)
    try:
        port = None
        deadline = time.time() + 30
        while port is None and time.time() < deadline and server.poll() is None:
            with open(log_path) as f:
                m = re.search(r"ACCEPT 127\.0\.0\.1:(\d+)", f.read())
            port = int(m.group(1)) if m else None
            time.sleep(0.05)
        if port is None:
            with open(log_path) as f:
                die("s_server did not start: %s" % f.read()[-500:])
        # The client runs in a child with the plain environment, so neither
        # this process's OPENSSL_CONF nor the provider touches its side.
        code = ("import sys; sys.path.insert(0, %r); import openssl_provider as o; "
                "o.client_loop(%d, %r, %d); print(o.client_loop(%d, %r, %d))"
                % (HERE, port, protocol, WARMUP_HANDSHAKES, port, protocol, args.handshakes))
        r = answered([sys.executable, "-c", code], "the TLS %s client" % protocol,
                     env=clean_env(), stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                     universal_newlines=True, errors="replace")
        if r.returncode != 0:
            die("TLS %s client failed: %s" % (protocol, r.stderr.strip()[-800:]))
        seconds = float(r.stdout.strip())
        server.stdin.close()
        try:
            server.wait(timeout=60)
        except subprocess.TimeoutExpired:  # killed below
            die("openssl s_server did not exit in 60 s after the TLS %s handshakes" % protocol)
    finally:
        if server.poll() is None:
            server.kill()
            server.wait()
    ops = read_report(report) if with_provider else None
    if with_provider and ops != total:
        die("TLS %s: the provider did %s private-key operations for %d handshakes"
            % (protocol, ops, total))
    return args.handshakes / seconds, ops


def median(values):
    return statistics.median(values) if values else None


def run(args):
    bits = args.bits
    rounds_speed = {True: {b: [] for b in bits}, False: {b: [] for b in bits}}
    rounds_tls = {(c[0], p): [] for c in TLS_CASES for p in (True, False)}
    with tempfile.TemporaryDirectory(prefix="bigmont-ossl-") as tmp:
        key, cert = make_certificate(args.openssl, tmp)
        rounds_bigmont = {b: [] for b in bits}
        speed_build = None
        for rnd in range(args.rounds):
            order = (True, False) if rnd % 2 == 0 else (False, True)
            # bigmont speed in the same rounds, between the two openssl
            # speed runs, so that drift hits all three alike.
            for step in (order[0], None, order[1]):
                t0 = time.time()
                if step is None:
                    speed_build, rates = bigmont_speed_round(args.build_dir, bits,
                                                             args.seconds / 2, tmp)
                    for b, rate in rates.items():
                        rounds_bigmont[b].append(rate)
                    name = "bigmont speed (%s)" % speed_build
                else:
                    env = (provider_env(clean_env(), args.modules,
                                        os.path.join(tmp, "speed-report"))
                           if step else clean_env())
                    for b, rate in openssl_speed(args.openssl, env, args.seconds, bits).items():
                        rounds_speed[step][b].append(rate)
                    name = "openssl speed %s" % ("bigmont" if step else "default")
                print("  round %d/%d  %-34s %5.1f s" % (rnd + 1, args.rounds, name,
                                                       time.time() - t0), flush=True)
            for label, server_opts, protocol in TLS_CASES:
                for with_provider in order:
                    rate, _ = tls_rate(args, key, cert, server_opts, protocol, with_provider, tmp)
                    rounds_tls[(label, with_provider)].append(rate)
                print("  round %d/%d  TLS %s handshakes" % (rnd + 1, args.rounds, protocol),
                      flush=True)
        figures = {b: (speed_build, median(rounds_bigmont[b])) for b in bits
                   if rounds_bigmont[b]}
        source = "bigmont speed --compare none, %s, in the same rounds" % speed_build

    speed = []
    for b in bits:
        row = {"bits": b}
        for with_provider, name in ((True, "bigmont"), (False, "default")):
            runs = rounds_speed[with_provider][b]
            row[name] = {"sign_per_s": median([s for s, _ in runs]),
                         "verify_per_s": median([v for _, v in runs]),
                         "sign_runs": [s for s, _ in runs], "verify_runs": [v for _, v in runs]}
        label, ops = figures.get(b, (None, None))
        row["bigmont_speed"] = {"implementation": "ours-blinded", "build": label,
                                "ops_per_s": ops}
        row["provider_over_bigmont_speed"] = (row["bigmont"]["sign_per_s"] / ops) if ops else None
        row["provider_over_default"] = row["bigmont"]["sign_per_s"] / row["default"]["sign_per_s"]
        speed.append(row)
    tls = []
    for label, server_opts, protocol in TLS_CASES:
        row = {"case": label, "protocol": "TLSv" + protocol, "server_options": server_opts,
               "handshakes": args.handshakes}
        for with_provider, name in ((True, "bigmont"), (False, "default")):
            runs = rounds_tls[(label, with_provider)]
            row[name] = {"handshakes_per_s": median(runs), "runs": runs}
        row["bigmont_over_default"] = (row["bigmont"]["handshakes_per_s"] /
                                       row["default"]["handshakes_per_s"])
        tls.append(row)
    return {
        "schema": SCHEMA,
        "openssl_version": answered([args.openssl, "version"], "openssl version",
                                    stdout=subprocess.PIPE, universal_newlines=True,
                                    errors="replace").stdout.strip(),
        "module": os.path.relpath(os.path.join(args.modules, "bigmont.so"), ROOT),
        "config": os.path.relpath(CONFIG, ROOT),
        "bigmont_speed_source": source,
        "settings": {"seconds": args.seconds, "rounds": args.rounds, "bits": bits,
                     "handshakes": args.handshakes, "warmup_handshakes": WARMUP_HANDSHAKES,
                     "elapsed": True},
        "speed": speed,
        "tls": tls,
    }


def fmt(v, spec="%.1f"):
    return spec % v if v is not None else "n/a"


def fmt_rate(v):
    """A rate as the other tables print counts: 12,345 (no decimals)."""
    return "{:,.0f}".format(v) if v is not None else "n/a"


def add_table_rates(doc, result):
    """Beside each key's `bigmont speed` figure of this section's rounds,
    the main table's row of the same build and variant, blinded (another
    measurement, earlier in the run), as ops/s: 1e9 / its median ns/op."""
    for row in doc.get("speed", []):
        label = row["bigmont_speed"].get("build")
        rate = None
        for rec in result.get("records", []):
            if (rec.get("implementation") == "ours-blinded" and rec.get("build") == label
                    and rec.get("bits") == row["bits"] and rec.get("threads") == 1
                    and rec.get("median_ns")):
                rate = 1e9 / rec["median_ns"]
        row["bigmont_speed"]["table_ops_per_s"] = rate


def markdown(doc):
    s = doc["settings"]
    lines = [
        "## RSA through OpenSSL: the bigmont provider (bench/openssl_provider.py)", "",
        "`openssl speed -elapsed -seconds %d` with `%s` (bigmont preferred) and with the "
        "default provider alone, alternating, median of %d round(s); %s. `bigmont speed` "
        "is `ours-blinded` (blinding and fault check on, as in the provider): %s, "
        "timed again here between the openssl speed runs, so it is not the same "
        "measurement as the ns/op table's blinded row of that build, shown beside it as "
        "ops/s (1e9 / ns/op; '-' without that table); the ratio is to this section's. "
        "`openssl speed`'s sign adds PKCS #1 v1.5 padding of 36 bytes and EVP's dispatch "
        "to that private operation." % (s["seconds"], doc["config"], s["rounds"],
                                       doc["openssl_version"], doc["bigmont_speed_source"]), "",
        "| key | sign/s, bigmont provider | sign/s, default provider "
        "| bigmont speed ops/s, these rounds | ns/op table's blinded row, as ops/s "
        "| provider / bigmont speed | provider / default | verify/s, bigmont | verify/s, default |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for r in doc["speed"]:
        table = r["bigmont_speed"].get("table_ops_per_s")
        lines.append("| RSA-%d | %s | %s | %s | %s | %s | %s | %s | %s |" % (
            r["bits"], fmt_rate(r["bigmont"]["sign_per_s"]),
            fmt_rate(r["default"]["sign_per_s"]), fmt_rate(r["bigmont_speed"]["ops_per_s"]),
            fmt_rate(table) if table is not None else "-",
            fmt(r["provider_over_bigmont_speed"], "%.3f"),
            fmt(r["provider_over_default"], "%.3f"), fmt_rate(r["bigmont"]["verify_per_s"]),
            fmt_rate(r["default"]["verify_per_s"])))
    lines += ["", "TLS handshakes on 127.0.0.1, `openssl s_server` with a fresh RSA-2048 "
              "certificate, %d timed handshakes per round (after %d), client and server on "
              "the same machine:" % (s["handshakes"], s["warmup_handshakes"]), "",
              "| handshake | handshakes/s, bigmont provider | handshakes/s, default provider "
              "| bigmont / default |", "|---|---:|---:|---:|"]
    for r in doc["tls"]:
        lines.append("| %s | %s | %s | %.3f |" % (
            r["case"], fmt_rate(r["bigmont"]["handshakes_per_s"]),
            fmt_rate(r["default"]["handshakes_per_s"]), r["bigmont_over_default"]))
    return "\n".join(lines) + "\n"


def parse_args(argv):
    p = argparse.ArgumentParser(prog="bench/openssl_provider.py", add_help=False,
                                usage=argparse.SUPPRESS, allow_abbrev=False)
    p.add_argument("--help", "-h", action="store_true")
    p.add_argument("--build-dir", default=os.path.join(ROOT, "build", "chunk64-asm"))
    p.add_argument("--result")
    p.add_argument("--result-as", dest="result_as")
    p.add_argument("--seconds", type=int)
    p.add_argument("--rounds", type=int)
    p.add_argument("--bits")
    p.add_argument("--handshakes", type=int)
    p.add_argument("--quick", action="store_true")
    p.add_argument("--openssl", default=shutil.which("openssl"))
    p.add_argument("--no-build", action="store_true")
    p.error = lambda message: die("%s (try --help)" % message)
    a = p.parse_args(argv)
    if a.help:
        print(__doc__.strip())
        sys.exit(0)
    a.seconds = a.seconds or (1 if a.quick else 2)
    a.rounds = a.rounds or (1 if a.quick else 2)
    a.handshakes = a.handshakes or (50 if a.quick else 300)
    try:
        a.bits = [int(b) for b in (a.bits or ("1024,2048" if a.quick else
                                               "1024,2048,3072,4096")).split(",")]
    except ValueError:
        die("--bits wants a list like 1024,2048")
    if a.seconds < 1 or a.rounds < 1 or a.handshakes < 1:
        die("--seconds, --rounds and --handshakes must be positive")
    if not a.openssl:
        die("no openssl command on PATH")
    a.build_dir = os.path.abspath(a.build_dir)
    a.modules = os.path.join(a.build_dir, "provider")
    a.result_json = a.result + ".json" if a.result else None
    return a


def main(argv):
    args = parse_args(argv)
    if not args.no_build:
        r = subprocess.run(["cmake", "--build", args.build_dir, "--target", "bigmont_provider",
                            "bigmont"], stdout=subprocess.DEVNULL)
        if r.returncode != 0:
            die("building bigmont_provider in %s failed (is OpenSSL 3's libssl-dev installed?)"
                % args.build_dir)
    if not os.path.exists(os.path.join(args.modules, "bigmont.so")):
        die("%s/bigmont.so is missing: build the target bigmont_provider" % args.modules)
    print("=== OpenSSL with and without the bigmont provider: %d round(s), openssl speed "
          "-seconds %d, %d handshakes" % (args.rounds, args.seconds, args.handshakes), flush=True)
    doc = run(args)
    result = None
    if args.result:
        with open(args.result_json) as f:
            result = json.load(f)
        add_table_rates(doc, result)
    text = markdown(doc)
    print()
    print(text)
    if result is not None:
        result["openssl_provider"] = doc
        with open(args.result_json + ".tmp", "w") as f:
            json.dump(result, f, indent=1)
            f.write("\n")
        os.replace(args.result_json + ".tmp", args.result_json)
        with open(args.result + ".md", "a") as f:
            f.write("\n" + text)
        print("added to %s.{json,md}" % os.path.relpath(args.result_as or args.result, ROOT))
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main(sys.argv[1:]))
    except KeyboardInterrupt:  # the temporary directory and server are gone
        print("\nbench/openssl_provider.py: interrupted", file=sys.stderr)
        sys.exit(130)
