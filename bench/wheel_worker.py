"""bench/wheel_worker.py -- the child process of `bigmont speed` that runs
the OpenSSL statically linked into PyPI's `cryptography` wheel, through
that wheel's Python API (the parent side and the protocol: bench/wheel.h).

`bigmont speed` embeds this file and runs it with the virtual
environment's interpreter (python3 -I -c ...), so it works from an install
as from the build tree.  The API has no raw RSA: the operations are a
PKCS #1 v1.5 signature of a prehashed SHA-256 digest, which is
deterministic, so the parent checks each signature against GMP's raw
private operation on the EMSA-PKCS1-v1_5 encoding of the same digest; and
OAEP (SHA-256) decryption, checked by its message.  Blinding is left at
OpenSSL's default (on): cryptography never turns it off.

Each batch is timed here, around the Python loop, so that the pipe is not
measured; the loop's own cost is measured separately ("ovh": the same loop
calling a Python function that does nothing, with the same arguments).
"""
import signal
import sys
import time


def main():
    # An interrupt of the benchmark reaches this process too: end quietly,
    # as the C children do, rather than with a traceback.
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    out = sys.stdout
    try:
        import cryptography
        from cryptography.hazmat.backends.openssl import backend
        from cryptography.hazmat.primitives import hashes, serialization
        from cryptography.hazmat.primitives.asymmetric import padding, rsa, utils
    except Exception as e:  # any failure to import is a reason, not a crash
        why = (str(e).splitlines() or [type(e).__name__])[0][:200]
        out.write("err cannot import cryptography: %s\n" % why)
        return 0
    out.write("hello %s %s\n" % (cryptography.__version__, backend.openssl_version_text()))
    out.flush()
    inp = sys.stdin.buffer
    pad, alg = padding.PKCS1v15(), utils.Prehashed(hashes.SHA256())
    oaep = padding.OAEP(mgf=padding.MGF1(hashes.SHA256()), algorithm=hashes.SHA256(),
                        label=None)
    key = None
    call = None  # (function, arguments) of the last "sig" or "oaep": what "run" times

    def noop(*args):
        return None

    def loop(f, args, n):
        t0 = time.perf_counter_ns()
        for _ in range(n):
            f(*args)
        return time.perf_counter_ns() - t0

    for raw in iter(inp.readline, b""):
        line = raw.decode("ascii", "replace").strip()
        word, _, arg = line.partition(" ")
        try:
            if word == "key":
                pem = inp.read(int(arg))
                # The parent has checked the key (GMP, OpenSSL, ours); the
                # wheel's own validation would add seconds per key.
                key = serialization.load_pem_private_key(
                    pem, None, unsafe_skip_rsa_key_validation=True)
                if not isinstance(key, rsa.RSAPrivateKey):
                    raise ValueError("not an RSA private key")
                reply = "ok %d" % ((key.key_size + 7) // 8)
            elif word == "sig" and key is not None:
                d = bytes.fromhex(arg)
                if len(d) != 32:
                    raise ValueError("a SHA-256 digest has 32 bytes")
                call = (key.sign, (d, pad, alg))
                reply = "out " + call[0](*call[1]).hex()
            elif word == "oaep" and key is not None:
                call = (key.decrypt, (bytes.fromhex(arg), oaep))
                reply = "out " + call[0](*call[1]).hex()
            elif word in ("run", "ovh") and call is not None and int(arg) >= 1:
                reply = "ns %d 0" % loop(call[0] if word == "run" else noop, call[1],
                                         int(arg))
            elif word == "quit":
                return 0
            else:
                reply = "err unexpected request"
        except Exception as e:
            reply = "err %s: %s" % (type(e).__name__, str(e).replace("\n", " ")[:200])
        out.write(reply + "\n")
        out.flush()
    return 0


sys.exit(main())
