#!/usr/bin/env bash
# How the committed test keys were made (run once; the keys are committed so
# every run uses the same ones).  PKCS#1 and PKCS#8 PEM of each private key
# plus its public key in both public formats come from OpenSSL.
set -euo pipefail
cd "$(dirname "$0")"
# A large random odd public exponent (128 bits), fixed so reruns match.
big_e=0xc5b2a3f1d4e6978812ab34cd56ef7891
for bits in 512 1024 1025 1536 2047 2048 3072 4096; do
  for e in 3 65537 big; do
    name="rsa${bits}-e${e}"
    pubexp=$e; [ "$e" = big ] && pubexp=$big_e
    [ -f "$name.pem" ] && continue
    # genpkey writes PKCS#8; -traditional converts to PKCS#1 RSA PRIVATE KEY.
    openssl genpkey -algorithm RSA -pkeyopt rsa_keygen_bits:$bits \
      -pkeyopt rsa_keygen_pubexp:$pubexp -out "$name.p8.pem" 2>/dev/null
    openssl pkey -in "$name.p8.pem" -traditional -out "$name.pem"
    openssl pkey -in "$name.p8.pem" -pubout -out "$name.pub.pem"
    openssl rsa -in "$name.pem" -RSAPublicKey_out -out "$name.rsapub.pem" 2>/dev/null
    # pkey -outform DER writes an RSA key as PKCS#1; pkcs8 -topk8 keeps PKCS#8.
    openssl pkcs8 -topk8 -nocrypt -in "$name.p8.pem" -outform DER -out "$name.p8.der"
    openssl rsa -in "$name.pem" -traditional -outform DER -out "$name.der" 2>/dev/null
  done
done
# RSA-2048 whose primes are not half its size each (1025 and 1023 bits):
# OpenSSL reads and checks it, and `openssl genpkey` never makes one.
name=rsa2048-unbalanced
if [ ! -f "$name.pem" ]; then
  conf=$(mktemp)
  while :; do
    p=$(openssl prime -generate -bits 1025); q=$(openssl prime -generate -bits 1023)
    python3 - "$p" "$q" > "$conf" <<'PY' && break
import math, sys
p, q = int(sys.argv[1]), int(sys.argv[2])
e, n = 65537, p * q
if n.bit_length() != 2048 or math.gcd(e, (p - 1) * (q - 1)) != 1:
    sys.exit(1)
d = pow(e, -1, math.lcm(p - 1, q - 1))
print("asn1=SEQUENCE:k\n[k]\nv=INTEGER:0")
for k, v in (("n", n), ("e", e), ("d", d), ("p", p), ("q", q), ("dp", d % (p - 1)),
             ("dq", d % (q - 1)), ("qi", pow(q, -1, p))):
    print("%s=INTEGER:0x%X" % (k, v))
PY
  done
  openssl asn1parse -genconf "$conf" -noout -out "$name.der"
  rm -f "$conf"
  openssl pkey -inform DER -in "$name.der" -traditional -out "$name.pem"
  rm -f "$name.der"
  openssl pkey -in "$name.pem" -check -noout
fi
