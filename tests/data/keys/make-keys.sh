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
    openssl pkey -in "$name.p8.pem" -outform DER -out "$name.p8.der"
    openssl rsa -in "$name.pem" -outform DER -out "$name.der" 2>/dev/null
  done
done
