#!/usr/bin/env python3
"""The bigmont provider through the `openssl pkeyutl` command, against the
default provider: for RSA-1024, 2048, 3072 and 4096 and every padding, 200
random messages (--messages) are encrypted by one and decrypted by the other, and
signed by one and verified by the other, in both directions; deterministic
schemes must give the same bytes.  Tampered ciphertexts and signatures,
and a wrong OAEP label, must make both fail.  Self-signed PSS certificates
made by each verify on the other, with the same signatureAlgorithm bytes.  The provider's report
(BIGMONT_PROVIDER_REPORT) must show one private-key operation for every
decryption and signature it was given.

The same comparison runs in process in tests/test_provider.cpp; this test
checks that the command line reaches the same code.  Key sizes run in
parallel (--jobs, default one per CPU).

usage: provider_pkeyutl.py --openssl OPENSSL --modules DIR [--messages N]
                           [--bits LIST] [--jobs N]
"""

import argparse
import concurrent.futures
import os
import random
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
KEYS = os.path.join(HERE, "data", "keys")

# name, -pkeyopt list, plaintext limit (bytes below k), raw (full-size input)
ENCRYPTIONS = [
    ("none", ["rsa_padding_mode:none"], 0, True),
    ("pkcs1", ["rsa_padding_mode:pkcs1"], 11, False),
    ("oaep-sha1", ["rsa_padding_mode:oaep"], 42, False),
    ("oaep-sha256-label", ["rsa_padding_mode:oaep", "rsa_oaep_md:sha256",
                           "rsa_oaep_label:6c6162656c"], 66, False),
    ("oaep-sha384-mgf1-sha1-label", ["rsa_padding_mode:oaep", "rsa_oaep_md:sha384",
                                     "rsa_mgf1_md:sha1", "rsa_oaep_label:00ff"], 98, False),
]
# name, -pkeyopt list (before the digest), digest (None: raw input),
# deterministic, extra pkeyutl options
SIGNATURES = [
    ("pkcs1-sha256", ["rsa_padding_mode:pkcs1"], "sha256", True, []),
    ("pkcs1-raw", ["rsa_padding_mode:pkcs1"], None, True, []),
    ("pss-salt0", ["rsa_padding_mode:pss", "rsa_pss_saltlen:0"], "sha256", True, []),
    ("pss-saltdigest", ["rsa_padding_mode:pss", "rsa_pss_saltlen:digest"], "sha256", False, []),
    ("pss-saltmax", ["rsa_padding_mode:pss", "rsa_pss_saltlen:max"], "sha256", False, []),
    ("digestsign-pkcs1-sha256", [], None, True, ["-rawin", "-digest", "sha256"]),
]


class Failure(Exception):
    pass


class Runner:
    def __init__(self, args, tmp):
        self.openssl = args.openssl
        self.tmp = tmp
        self.report = os.path.join(tmp, "report")
        self.provider_args = ["-provider-path", args.modules, "-provider", "bigmont",
                              "-provider", "default", "-propquery", "?provider=bigmont"]
        self.env = dict(os.environ)
        self.env.pop("OPENSSL_CONF", None)
        self.env.pop("OPENSSL_MODULES", None)
        self.private_ops_expected = 0
        self.runs = 0

    def pkeyutl(self, with_provider, args, private=False):
        """Run openssl pkeyutl; (exit status, stdout bytes, stderr text)."""
        return self.command(with_provider, ["pkeyutl"] + args, private)

    def command(self, with_provider, args, private=False):
        """Run openssl ARGS; (exit status, stdout bytes, stderr text)."""
        cmd = [self.openssl] + args
        env = self.env
        if with_provider:  # before the operands, which verify takes last
            cmd[2:2] = self.provider_args
            env = dict(env, BIGMONT_PROVIDER_REPORT=self.report)
        r = subprocess.run(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           timeout=60)
        self.runs += 1
        # Every private run here reaches the private operation (inputs are
        # below n), also those whose padding check then fails.
        if with_provider and private:
            self.private_ops_expected += 1
        return r.returncode, r.stdout, r.stderr.decode(errors="replace")

    def path(self, name, data):
        p = os.path.join(self.tmp, name)
        with open(p, "wb") as f:
            f.write(data)
        return p

    def provider_private_ops(self):
        total = 0
        if os.path.exists(self.report):
            with open(self.report) as f:
                for line in f:
                    key, _, value = line.strip().partition("=")
                    if key == "bigmont-private-ops":
                        total += int(value)
        return total


def side(flag):
    return "bigmont" if flag else "default"


def opts(pkeyopts):
    out = []
    for o in pkeyopts:
        out += ["-pkeyopt", o]
    return out


def check_encryptions(run, rng, bits, key, pub, k, messages):
    for name, pkeyopts, limit, raw in ENCRYPTIONS:
        for i in range(messages):
            if raw:
                msg = bytes([0]) + bytes(rng.getrandbits(8) for _ in range(k - 1))
            else:
                msg = bytes(rng.getrandbits(8) for _ in range(1 + rng.randrange(k - limit)))
            m = run.path("m", msg)
            for enc_side in (False, True):
                what = "RSA-%d %s message %d, encrypted by %s" % (bits, name, i, side(enc_side))
                c = os.path.join(run.tmp, "c")
                rc, _, err = run.pkeyutl(enc_side, ["-encrypt", "-pubin", "-inkey", pub, "-in", m,
                                                    "-out", c] + opts(pkeyopts))
                if rc != 0:
                    raise Failure("%s: encryption failed: %s" % (what, err))
                rc, out, err = run.pkeyutl(not enc_side, ["-decrypt", "-inkey", key, "-in", c]
                                           + opts(pkeyopts), private=True)
                if rc != 0 or out != msg:
                    raise Failure("%s: decryption by %s %s: %s" % (
                        what, side(not enc_side), "failed" if rc else "differs", err))
        # Refusals: a tampered ciphertext (one set bit below the top byte
        # cleared: smaller, so still below n, and refused for its padding).
        if not raw:
            rc, ct, _ = run.pkeyutl(False, ["-encrypt", "-pubin", "-inkey", pub, "-in", m]
                                    + opts(pkeyopts))
            bad = bytearray(ct)
            bit = rng.choice([b for b in range(8, 8 * k) if bad[b // 8] & (0x80 >> (b % 8))])
            bad[bit // 8] ^= 0x80 >> (bit % 8)
            c = run.path("bad", bytes(bad))
            res = [run.pkeyutl(s, ["-decrypt", "-inkey", key, "-in", c] + opts(pkeyopts),
                               private=True) for s in (False, True)]
            if (res[0][0] == 0) != (res[1][0] == 0) or (res[0][0] == 0 and res[0][1] != res[1][1]):
                raise Failure("RSA-%d %s tampered ciphertext: default exit %d, bigmont exit %d\n%s%s"
                              % (bits, name, res[0][0], res[1][0], res[0][2], res[1][2]))


def check_wrong_label(run, bits, key, pub):
    m = run.path("m", b"label test")
    c = os.path.join(run.tmp, "c")
    base = ["rsa_padding_mode:oaep", "rsa_oaep_md:sha256"]
    run.pkeyutl(False, ["-encrypt", "-pubin", "-inkey", pub, "-in", m, "-out", c]
                + opts(base + ["rsa_oaep_label:01"]))
    for s in (False, True):
        rc, _, _ = run.pkeyutl(s, ["-decrypt", "-inkey", key, "-in", c]
                               + opts(base + ["rsa_oaep_label:02"]), private=True)
        if rc == 0:
            raise Failure("RSA-%d: %s decrypted with the wrong OAEP label" % (bits, side(s)))


def check_signatures(run, rng, bits, key, pub, k, messages):
    for name, pkeyopts, digest, deterministic, extra in SIGNATURES:
        for i in range(messages):
            if digest:
                tbs = bytes(rng.getrandbits(8) for _ in range(32))  # a SHA-256 value
                sopts = opts(pkeyopts + ["digest:" + digest])
            else:
                # pkeyutl signs at most 64 bytes without -rawin ("looks too
                # long to be a hash"), so raw RSA signatures (no padding) of
                # k bytes are left to tests/test_provider.cpp.
                tbs = bytes(rng.getrandbits(8) for _ in range(1 + rng.randrange(64)))
                sopts = opts(pkeyopts)
            t = run.path("tbs", tbs)
            sigs = []
            for sign_side in (False, True):
                what = "RSA-%d %s message %d, signed by %s" % (bits, name, i, side(sign_side))
                s = os.path.join(run.tmp, "sig-%d" % sign_side)
                rc, _, err = run.pkeyutl(sign_side, ["-sign", "-inkey", key, "-in", t, "-out", s]
                                         + extra + sopts, private=True)
                if rc != 0:
                    raise Failure("%s: signing failed: %s" % (what, err))
                with open(s, "rb") as f:
                    sigs.append(f.read())
                rc, out, err = run.pkeyutl(not sign_side, ["-verify", "-pubin", "-inkey", pub,
                                                           "-in", t, "-sigfile", s] + extra + sopts)
                if rc != 0:
                    raise Failure("%s: verification by %s failed: %s %s" % (
                        what, side(not sign_side), out.decode(errors="replace"), err))
            if deterministic and sigs[0] != sigs[1]:
                raise Failure("RSA-%d %s message %d: the signatures differ" % (bits, name, i))
        # Refusal: a tampered signature fails on both sides.
        bad = bytearray(sigs[0])
        bad[1 + rng.randrange(k - 1)] ^= 1 << rng.randrange(8)
        s = run.path("bad-sig", bytes(bad))
        for v_side in (False, True):
            rc, out, _ = run.pkeyutl(v_side, ["-verify", "-pubin", "-inkey", pub, "-in", t,
                                              "-sigfile", s] + extra + sopts)
            if rc == 0:
                raise Failure("RSA-%d %s: %s verified a tampered signature" % (bits, name, side(v_side)))


# -sigopt lists for certificates signed with PSS (the numeric salt lengths
# are the old spellings of digest and auto)
# (digest, -sigopt values, whether openssl verify can check it); PSS where
# the first value is the padding mode.  SHA-512/224 and SHA-512/256 have
# no entry in OpenSSL 3.0's signature table: the provider names their
# PKCS #1 v1.5 algorithms itself, and `openssl verify` 3.0 cannot check
# such a certificate whoever signed it (it does not see it as
# self-signed), so only its AlgorithmIdentifier is compared.
PSS = "rsa_padding_mode:pss"
CERTIFICATES = [
    ("sha256", [PSS], True),
    ("sha384", [PSS, "rsa_pss_saltlen:-1", "rsa_mgf1_md:sha512"], True),
    ("sha1", [PSS, "rsa_pss_saltlen:-2"], True),
    ("sha256", [PSS, "rsa_pss_saltlen:20", "rsa_mgf1_md:sha1"], True),
    ("sha256", [], True),
    ("sha3-256", [], True),
    ("sha512-224", [], False),
    ("sha512-256", [], False),
]


def signature_algorithm(pem_path):
    """The DER of a certificate's outer signatureAlgorithm."""
    import base64
    with open(pem_path) as f:
        der = base64.b64decode("".join(l for l in f.read().splitlines()
                                       if l and not l.startswith("-----")))

    def header(at):
        length, at = der[at + 1], at + 2
        if length & 0x80:
            n = length & 0x7f
            length, at = int.from_bytes(der[at:at + n], "big"), at + n
        return length, at

    _, at = header(0)               # Certificate
    length, body = header(at)       # tbsCertificate
    at = body + length
    length, body = header(at)       # signatureAlgorithm
    return der[at:body + length]


def check_certificates(run, bits, key):
    """Self-signed certificates, PSS and PKCS #1 v1.5: the
    AlgorithmIdentifier bigmont gives is the default provider's byte for
    byte, and each side verifies the other's certificate."""
    for md, sigopts, verifiable in CERTIFICATES:
        what = "RSA-%d certificate -%s %s" % (bits, md, " ".join(sigopts))
        certs = []
        for sign_side in (False, True):
            cert = os.path.join(run.tmp, "cert-%d.pem" % sign_side)
            args = ["req", "-new", "-x509", "-key", key, "-subj", "/CN=bigmont-test",
                    "-days", "1", "-" + md, "-out", cert]
            for o in sigopts:
                args += ["-sigopt", o]
            rc, _, err = run.command(sign_side, args, private=True)
            if rc != 0:
                raise Failure("%s: %s failed: %s" % (what, side(sign_side), err))
            certs.append(cert)
            if not verifiable:
                continue
            rc, out, err = run.command(not sign_side, ["verify", "-CAfile", cert, cert])
            if rc != 0:
                raise Failure("%s, signed by %s: %s does not verify it: %s %s" % (
                    what, side(sign_side), side(not sign_side), out.decode(errors="replace"), err))
        ours, theirs = (signature_algorithm(c) for c in (certs[1], certs[0]))
        if ours != theirs:
            raise Failure("%s: signatureAlgorithm %s, the default provider's %s" % (
                what, ours.hex(), theirs.hex()))


def check_size(args, seed, bits):
    """Every check at one key size, in its own directory (so sizes run in
    parallel): (failure text or None, openssl runs, private operations the
    provider reports, private operations it was given)."""
    rng = random.Random("%d/%d" % (seed, bits))
    with tempfile.TemporaryDirectory(prefix="bigmont-pkeyutl-%d-" % bits) as tmp:
        run = Runner(args, tmp)
        key = os.path.join(KEYS, "rsa%d-e65537.pem" % bits)
        pub = os.path.join(KEYS, "rsa%d-e65537.pub.pem" % bits)
        k = (bits + 7) // 8
        try:
            check_encryptions(run, rng, bits, key, pub, k, args.messages)
            check_wrong_label(run, bits, key, pub)
            check_signatures(run, rng, bits, key, pub, k, args.messages)
            check_certificates(run, bits, key)
        except Failure as e:
            return str(e), run.runs, 0, 0
        return None, run.runs, run.provider_private_ops(), run.private_ops_expected


def main(argv):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--openssl", default="openssl")
    p.add_argument("--modules", required=True, help="the directory holding bigmont.so")
    p.add_argument("--messages", type=int,
                   default=int(os.environ.get("BIGMONT_PKEYUTL_MESSAGES", "200")))
    p.add_argument("--bits", default="1024,2048,3072,4096")
    p.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    args = p.parse_args(argv)
    seed = int(os.environ.get("BIGMONT_TEST_SEED", random.SystemRandom().getrandbits(48)))
    print("provider_pkeyutl: seed %d (replay with BIGMONT_TEST_SEED=%d), %d messages per "
          "combination" % (seed, seed, args.messages), flush=True)
    sizes = [int(b) for b in args.bits.split(",")]
    failed = False
    runs = 0
    with concurrent.futures.ProcessPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        futures = [pool.submit(check_size, args, seed, bits) for bits in sizes]
        for bits, future in zip(sizes, futures):
            failure, size_runs, done, expected = future.result()
            runs += size_runs
            if failure is not None:
                print("provider_pkeyutl: FAILED: %s" % failure)
                failed = True
            elif done != expected:
                print("provider_pkeyutl: FAILED: RSA-%d: the provider reports %d private-key "
                      "operations, %d expected" % (bits, done, expected))
                failed = True
            else:
                print("  RSA-%d: agreement and refusals ok; bigmont did all %d private-key "
                      "operations it was given" % (bits, done), flush=True)
    if failed:
        return 1
    print("provider_pkeyutl: %d openssl runs" % runs)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
