#!/usr/bin/env python3
"""TLS handshakes with the bigmont provider doing the server's private-key
operation: `openssl s_server` run with provider/bigmont.cnf on 127.0.0.1
and a fresh RSA-2048 certificate (made with the default provider), one
`openssl s_client` handshake each for

  - TLS 1.2 with RSA key exchange (AES128-GCM-SHA256): the server decrypts
    the premaster secret (RSA_PKCS1_WITH_TLS_PADDING);
  - TLS 1.3 with an RSA-PSS signature (rsa_pss_rsae_sha256): the server
    signs its CertificateVerify (digest-sign, PSS, salt = digest length).

The handshake must complete with the expected protocol and cipher, and the
provider's report (BIGMONT_PROVIDER_REPORT, written when s_server exits)
must count exactly one private-key operation.  Then the ways the READMEs
give to see the provider in use (loading()).  Every process has a
timeout, so the test is bounded.

usage: provider_tls.py --openssl OPENSSL --modules DIR --config CNF
"""

import argparse
import os
import re
import subprocess
import sys
import tempfile

TIMEOUT = 60

CASES = [
    # name, s_server options, s_client options, expected lines in s_client's output
    ("TLS 1.2, RSA key exchange",
     ["-tls1_2", "-cipher", "AES128-GCM-SHA256"],
     ["-tls1_2", "-cipher", "AES128-GCM-SHA256"],
     [r"New, TLSv1\.2, Cipher is AES128-GCM-SHA256"]),
    ("TLS 1.3, RSA-PSS",
     ["-tls1_3", "-sigalgs", "rsa_pss_rsae_sha256"],
     ["-tls1_3"],
     [r"New, TLSv1\.3, Cipher is TLS_", r"Peer signature type: RSA-PSS"]),
]


def make_certificate(openssl, tmp, env):
    key = os.path.join(tmp, "server.key")
    cert = os.path.join(tmp, "server.crt")
    for cmd in ([openssl, "genpkey", "-algorithm", "RSA", "-pkeyopt", "rsa_keygen_bits:2048",
                 "-out", key],
                [openssl, "req", "-x509", "-new", "-key", key, "-subj", "/CN=localhost",
                 "-days", "2", "-out", cert]):
        subprocess.run(cmd, env=env, check=True, stdout=subprocess.DEVNULL,
                       stderr=subprocess.PIPE, timeout=TIMEOUT)
    return key, cert


def handshake(args, key, cert, server_opts, client_opts, tmp, env):
    """One handshake; (s_client output, s_server output, private ops)."""
    report = os.path.join(tmp, "report")
    if os.path.exists(report):
        os.remove(report)
    senv = dict(env, OPENSSL_CONF=args.config, OPENSSL_MODULES=args.modules,
                BIGMONT_PROVIDER_REPORT=report)
    server = subprocess.Popen(
        [args.openssl, "s_server", "-accept", "127.0.0.1:0", "-naccept", "1",
         "-cert", cert, "-key", key] + server_opts,
        env=senv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
        universal_newlines=True)
    try:
        port = None
        lines = []
        for line in server.stdout:  # "ACCEPT 127.0.0.1:<port>" once listening
            lines.append(line)
            m = re.match(r"ACCEPT 127\.0\.0\.1:(\d+)", line)
            if m:
                port = m.group(1)
                break
        if port is None:
            raise RuntimeError("s_server did not start:\n" + "".join(lines))
        client = subprocess.run(
            [args.openssl, "s_client", "-connect", "127.0.0.1:" + port] + client_opts,
            env=env, input="", stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
            universal_newlines=True, timeout=TIMEOUT)
        # s_server exits after its one connection once stdin closes.
        out, _ = server.communicate(input="", timeout=TIMEOUT)
    finally:
        if server.poll() is None:
            server.kill()
            server.wait()
    ops = None
    if os.path.exists(report):
        with open(report) as f:
            for line in f:
                k, _, v = line.strip().partition("=")
                if k == "bigmont-private-ops":
                    ops = (ops or 0) + int(v)
    return client.stdout, "".join(lines) + out, ops


def loading(args, env, tmp):
    """What README and provider/README.md say about seeing the provider in
    use: `openssl list -providers` under the configuration names bigmont
    active, and not when the module is not where OPENSSL_MODULES says
    (OpenSSL 3.0 then runs on the default provider, no error); `openssl
    speed -provider-path DIR -provider bigmont -provider default` measures
    bigmont, and fails when the module is not in DIR.  Failures, as text."""
    failures = []
    empty = os.path.join(tmp, "no-modules")
    os.makedirs(empty, exist_ok=True)

    def run(cmd, extra):
        return subprocess.run(cmd, env=dict(env, **extra), stdout=subprocess.PIPE,
                              stderr=subprocess.STDOUT, universal_newlines=True,
                              timeout=TIMEOUT)
    active = re.compile(r"^\s+name: bigmont RSA provider\n.*\n\s+status: active$", re.M)
    listed = run([args.openssl, "list", "-providers"],
                 {"OPENSSL_CONF": args.config, "OPENSSL_MODULES": args.modules})
    if listed.returncode != 0 or not active.search(listed.stdout):
        failures.append("openssl list -providers does not show bigmont active:\n" + listed.stdout)
    listed = run([args.openssl, "list", "-providers"],
                 {"OPENSSL_CONF": args.config, "OPENSSL_MODULES": empty})
    if listed.returncode != 0 or "bigmont" in listed.stdout:
        failures.append("without the module, openssl list -providers (status %d) should list "
                        "the default provider alone:\n%s" % (listed.returncode, listed.stdout))
    report = os.path.join(tmp, "speed-report")
    for modules, ok in ((args.modules, True), (empty, False)):
        if os.path.exists(report):
            os.remove(report)
        speed = run([args.openssl, "speed", "-elapsed", "-seconds", "1", "-provider-path",
                     modules, "-provider", "bigmont", "-provider", "default", "rsa1024"],
                    {"OPENSSL_CONF": args.config, "BIGMONT_PROVIDER_REPORT": report})
        ops = 0
        if os.path.exists(report):
            with open(report) as f:
                ops = sum(int(line.split("=", 1)[1]) for line in f
                          if line.startswith("bigmont-private-ops="))
        if ok and (speed.returncode != 0 or ops == 0):
            failures.append("openssl speed -provider bigmont: status %d, %d operations in "
                            "bigmont:\n%s" % (speed.returncode, ops, speed.stdout[-800:]))
        if not ok and (speed.returncode == 0 or
                       "unable to load provider bigmont" not in speed.stdout):
            failures.append("openssl speed -provider bigmont without the module: status %d "
                            "(want an error):\n%s" % (speed.returncode, speed.stdout[-800:]))
    return failures


def main(argv):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--openssl", default="openssl")
    p.add_argument("--modules", required=True, help="the directory holding bigmont.so")
    p.add_argument("--config", required=True, help="provider/bigmont.cnf")
    args = p.parse_args(argv)
    env = dict(os.environ)
    for var in ("OPENSSL_CONF", "OPENSSL_MODULES", "BIGMONT_PROVIDER_REPORT"):
        env.pop(var, None)
    failed = 0
    with tempfile.TemporaryDirectory(prefix="bigmont-tls-") as tmp:
        key, cert = make_certificate(args.openssl, tmp, env)
        for name, sopts, copts, expect in CASES:
            client, server, ops = handshake(args, key, cert, sopts, copts, tmp, env)
            missing = [e for e in expect if not re.search(e, client)]
            if missing or ops != 1:
                failed += 1
                print("provider_tls: FAILED: %s: %s; bigmont private-key operations: %s\n"
                      "--- s_client:\n%s--- s_server:\n%s" % (
                          name, "missing " + ", ".join(missing) if missing else "handshake ok",
                          ops, client, server))
            else:
                print("provider_tls: %s: handshake completed, bigmont did the server's "
                      "private-key operation" % name)
        for failure in loading(args, env, tmp):
            failed += 1
            print("provider_tls: FAILED: %s" % failure)
        if not failed:
            print("provider_tls: openssl list -providers shows bigmont active, and not "
                  "without its module; openssl speed -provider bigmont measures it, and "
                  "fails without it")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
