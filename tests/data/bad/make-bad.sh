#!/usr/bin/env bash
# Regenerates the bad-input corpus of tests/test_cli.cpp from the committed
# key tests/data/keys/rsa1024-e65537.pem: malformed PEM and DER, keys that
# parse but fail a check (a composite prime among them), encrypted keys,
# other kinds of key and certificates, bad inputs.  Every file is derived
# deterministically except the encrypted keys (random salt), the EC keys
# and the certificate (random key, serial): they only need to be
# recognised for what they are.  The expectations live in cases.tsv beside
# this script.
set -euo pipefail
cd "$(dirname "$0")"
keys=../keys
base=rsa1024-e65537

rm -f ./*.pem ./*.der ./*.bin ./*.p12
openssl rsa -in "$keys/$base.pem" -aes128 -passout pass:bigmont -traditional \
  -out encrypted-traditional.pem 2>/dev/null
openssl pkcs8 -topk8 -in "$keys/$base.pem" -passout pass:bigmont \
  -out encrypted-pkcs8.pem 2>/dev/null
: > empty.pem

# Structures that are not an RSA key, each named by the reader: a
# certificate (PEM alone, DER, and in a PKCS #12 file), EC keys (RFC 5915
# in PEM and DER, PKCS #8 DER), an encrypted PKCS #8 key in DER.  Their
# keys and salts are random; only their shape matters.
openssl req -x509 -new -key "$keys/$base.pem" -subj /CN=bigmont-test -days 36500 \
  -out certificate.pem 2>/dev/null
openssl x509 -in certificate.pem -outform DER -out certificate.der
openssl pkcs12 -export -in certificate.pem -inkey "$keys/$base.pem" -passout pass:bigmont \
  -out keystore.p12
openssl ecparam -name prime256v1 -genkey -noout -out ec-private.pem
openssl ec -in ec-private.pem -outform DER -out ec-private.der 2>/dev/null
openssl pkcs8 -topk8 -nocrypt -in ec-private.pem -outform DER -out ec-pkcs8.der
openssl pkcs8 -topk8 -in "$keys/$base.pem" -passout pass:bigmont -outform DER \
  -out encrypted-pkcs8.der 2>/dev/null

python3 - "$keys/$base.pem" <<'PY'
import base64, sys

pem = open(sys.argv[1]).read()
body = "".join(l for l in pem.splitlines() if not l.startswith("-----"))
der = base64.b64decode(body)

# ---- a minimal DER reader/writer for RSAPrivateKey ----
def read_tlv(b, i):
    tag = b[i]; l = b[i + 1]; i += 2
    if l & 0x80:
        n = l & 0x7f; l = int.from_bytes(b[i:i + n], "big"); i += n
    return tag, b[i:i + l], i + l

def length(n):
    if n < 0x80:
        return bytes([n])
    raw = n.to_bytes((n.bit_length() + 7) // 8, "big")
    return bytes([0x80 | len(raw)]) + raw

def tlv(tag, content):
    return bytes([tag]) + length(len(content)) + content

def integer(v):
    raw = v.to_bytes(max(1, (v.bit_length() + 8) // 8), "big")  # sign byte when needed
    return tlv(0x02, raw)

def seq(*items):
    return tlv(0x30, b"".join(items))

_, content, _ = read_tlv(der, 0)
ints, i = [], 0
while i < len(content):
    _, v, i = read_tlv(content, i)
    ints.append(int.from_bytes(v, "big"))
version, n, e, d, p, q, dp, dq, qinv = ints

def private(version=0, n=n, e=e, d=d, p=p, q=q, dp=dp, dq=dq, qinv=qinv):
    return seq(*(integer(x) for x in (version, n, e, d, p, q, dp, dq, qinv)))

def pem_of(der_bytes, label="RSA PRIVATE KEY", end_label=None):
    b64 = base64.b64encode(der_bytes).decode()
    lines = [b64[i:i + 64] for i in range(0, len(b64), 64)]
    return ("-----BEGIN %s-----\n%s\n-----END %s-----\n"
            % (label, "\n".join(lines), end_label or label))

def write(name, data):
    open(name, "wb").write(data if isinstance(data, bytes) else data.encode())

assert private() == der, "re-encoding the base key must give it back"
good_pem = pem_of(der)

# Truncation, bit flips.
write("truncated.pem", good_pem[: len(good_pem) // 2])
write("truncated.der", der[: len(der) // 2])
lines = good_pem.splitlines(True)
flipped = lines[2][:10] + ("B" if lines[2][10] != "B" else "C") + lines[2][11:]
write("flipped-base64.pem", "".join(lines[:2] + [flipped] + lines[3:]))
mod_at = der.index(n.to_bytes(128, "big"))
write("flipped-bit.der", der[: mod_at + 40] + bytes([der[mod_at + 40] ^ 0x04]) + der[mod_at + 41:])
write("flipped-tag.der", der[:4] + bytes([der[4] ^ 0x01]) + der[5:])

# PEM armour.
write("wrong-label.pem", pem_of(der, "CERTIFICATE"))
write("mismatched-label.pem", pem_of(der, "RSA PRIVATE KEY", "PRIVATE KEY"))
write("control-in-label.pem", pem_of(der, "RSA\x1b[31mPRIVATE KEY"))
write("label-public-body-private.pem", pem_of(der, "PUBLIC KEY"))
b = good_pem.replace(lines[3], lines[3][:20] + "*" + lines[3][21:])
write("garbage-base64.pem", b)
body_lines = good_pem.splitlines()
last = body_lines[-2]
write("bad-padding.pem", good_pem.replace(last + "\n", last + "=\n"))
write("not-a-key.pem", "hello, this is not a key\n")
write("headers.pem", good_pem.replace("-----\n", "-----\nComment: hi\n\n", 1))

# DER framing.
outer_len = len(content)
write("overlong-length.der", b"\x30\x85\x00\x00\x00" + outer_len.to_bytes(2, "big") + content)
write("nonminimal-length.der", b"\x30\x83" + outer_len.to_bytes(3, "big") + content)
write("indefinite-length.der", b"\x30\x80" + content + b"\x00\x00")
write("trailing-data.der", der + b"\x00")
write("trailing-data.pem", pem_of(der + b"\x05\x00"))
write("length-past-end.der", b"\x30\x82" + (outer_len + 10).to_bytes(2, "big") + content)

# Integers.
def private_raw(fields):
    return seq(*fields)
fields = [integer(x) for x in (version, n, e, d, p, q, dp, dq, qinv)]
neg = list(fields); neg[1] = tlv(0x02, n.to_bytes(128, "big"))  # top bit set, no sign byte
write("negative-modulus.der", private_raw(neg))
nm = list(fields); nm[2] = tlv(0x02, b"\x00" + e.to_bytes(3, "big"))
write("nonminimal-integer.der", private_raw(nm))
zero = list(fields); zero[3] = tlv(0x02, b"\x00")
write("zero-exponent.der", private_raw(zero))

# Keys that parse but fail a check.
write("p-times-q-not-n.pem", pem_of(private(n=n + 2)))
write("wrong-dp.pem", pem_of(private(dp=dp ^ 2)))
write("wrong-dq.pem", pem_of(private(dq=dq ^ 2)))
write("wrong-qinv.pem", pem_of(private(qinv=(qinv + 1) % p)))
write("even-e.pem", pem_of(private(e=65536)))
write("e-is-one.pem", pem_of(private(e=1)))
write("multi-prime.pem", pem_of(private(version=1)))

# A 256-bit key: two fixed 128-bit primes (Miller-Rabin, fixed bases).
def is_prime(m):
    if m < 2 or m % 2 == 0:
        return m == 2
    s, t = 0, m - 1
    while t % 2 == 0:
        s += 1; t //= 2
    for a in (2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37, 41):
        x = pow(a, t, m)
        if x in (1, m - 1):
            continue
        for _ in range(s - 1):
            x = x * x % m
            if x == m - 1:
                break
        else:
            return False
    return True
def next_prime(m):
    m |= 1
    while not is_prime(m) or (m - 1) % 65537 == 0:
        m += 2
    return m
sp = next_prime((3 << 126) | 0x5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5)
sq = next_prime((3 << 126) | 0x3c3c3c3c3c3c3c3c3c3c3c3c3c3c3c3)
sn, se = sp * sq, 65537
sd = pow(se, -1, (sp - 1) * (sq - 1))
write("modulus-256-bits.pem", pem_of(seq(*(integer(x) for x in (
    0, sn, se, sd, sp, sq, sd % (sp - 1), sd % (sq - 1), pow(sq, -1, sp))))))

# A prime factor that is a product of two primes, with d, dp, dq and qInv
# consistent with it: every check but primality passes.
def composite_key(composite_first):
    f1 = next_prime((1 << 255) | 0x1d1d1d1d1d1d1d1d1d1d1d1d1d1d1d1d)
    f2 = next_prime((1 << 255) | 0x2e2e2e2e2e2e2e2e2e2e2e2e2e2e2e2e)
    c = f1 * f2
    while c % 65537 == 1 or (c - 1) % 65537 == 0:
        f2 = next_prime(f2 + 2); c = f1 * f2
    cp, cq = (c, q) if composite_first else (p, c)
    lam = (cp - 1) * (cq - 1) // gcd(cp - 1, cq - 1)
    cd = pow(e, -1, lam)
    return pem_of(private(n=cp * cq, d=cd, p=cp, q=cq, dp=cd % (cp - 1), dq=cd % (cq - 1),
                          qinv=pow(cq, -1, cp)))
from math import gcd
write("composite-p.pem", composite_key(True))
write("composite-q.pem", composite_key(False))

# PEM files with more than one block.
pub_pem = open(sys.argv[1].replace(".pem", ".pub.pem")).read()
write("two-keys.pem", good_pem + pub_pem)
# A DER key beside a PEM one (cat a.der b.pem): binary, not text between blocks.
write("der-then-pem.pem", der + good_pem.encode())
write("pem-then-der.pem", good_pem.encode() + der)
write("rsa-pss.der", seq(integer(0), seq(tlv(0x06, bytes.fromhex("2a864886f70d01010a"))),
                         tlv(0x04, der)))

# Inputs for the 1024-bit key (k = 128 bytes).
k = 128
write("input-good.bin", bytes([0]) + bytes((i * 37 + 11) & 0xff for i in range(k - 1)))
write("input-equals-n.bin", n.to_bytes(k, "big"))
write("input-all-ones.bin", b"\xff" * k)
write("input-short.bin", b"\x01" * (k - 1))
write("input-long.bin", b"\x00" * (k + 1))
write("input-empty.bin", b"")
# For --batch: five blocks, the third and fifth not below n.
good = bytes([0]) + bytes((i * 37 + 11) & 0xff for i in range(k - 1))
write("input-batch-two-bad.bin", good + good + n.to_bytes(k, "big") + good + b"\xff" * k)
PY
echo "corpus written to $(pwd)"
