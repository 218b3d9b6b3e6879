#!/usr/bin/env bash
# TLS against the real binaries: a self-signed certificate from openssl req, tabulad with
# --tls-port next to the plain port, openssl s_client as the TLS user's nc, and tabula --tls
# with a watch that receives an event made over plain TCP; --https-port with curl: a Basic
# login, a write, an event stream; a plain request to either TLS port told what the port is.
set -euo pipefail
source "$(dirname "$0")/../lib.sh"
need openssl openssl
work="$(mktemp -d)"
trap 'stop_server; rm -rf "$work"' EXIT
openssl req -x509 -newkey rsa:2048 -nodes -keyout "$work/key.pem" -out "$work/cert.pem" -subj /CN=localhost -days 2 \
    -addext "subjectAltName=DNS:localhost,IP:127.0.0.1" 2>/dev/null

got=0
"$BIN/tabulad" --memory --port 0 --tls-port 0 --tls-cert "$work/nope.pem" --tls-key "$work/key.pem" >/dev/null 2>"$work/err" || got=$?
[[ $got -eq 2 ]] || fail "a missing certificate: exit $got, expected 2"
grep -q "cannot use the --tls-cert file" "$work/err" || { cat "$work/err"; fail "certificate message"; }
pass "an unusable certificate stops the start (exit 2) with what is wrong"

tls_port="$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')"
start_server --memory --tls-port "$tls_port" --tls-cert "$work/cert.pem" --tls-key "$work/key.pem"

{ printf 'PING\nORDER pesto\n'; sleep 1; } | timeout 10 openssl s_client -quiet -connect "127.0.0.1:$tls_port" -CAfile "$work/cert.pem" \
    >"$work/s_client" 2>/dev/null || true
grep -q "^\* HELLO tabula 3 " "$work/s_client" || { cat "$work/s_client"; fail "s_client greeting"; }
grep -qx "OK PONG" "$work/s_client" || fail "s_client PING"
grep -q "^OK order 1: Pesto" "$work/s_client" || fail "s_client ORDER"
pass "openssl s_client speaks the protocol over TLS"

# tabula --tls watches; a plain client's change reaches it.
( for _ in $(seq 1 200); do  # once the watch is there (STATS counts it), change something
      printf 'STATS\n' | nc -q 1 127.0.0.1 "$PORT" | grep -q '^- watches: 1$' && break
      sleep 0.05
  done
  printf 'ORDER gelato\n' | nc -q 2 127.0.0.1 "$PORT" >/dev/null ) &
writer=$!
"$BIN/tabula" -p "$tls_port" --tls --cacert "$work/cert.pem" -c 'WATCH /orders' -c '\wait "order /orders/2 .*Gelato" 10' >"$work/tabula" 2>&1 \
    || { cat "$work/tabula"; fail "tabula --tls watch"; }
wait "$writer"
pass "tabula --tls receives an event made over plain TCP"

got=0
"$BIN/tabula" -p "$tls_port" --tls -c PING >/dev/null 2>"$work/err" || got=$?
[[ $got -eq 2 ]] && grep -q "certificate verify failed" "$work/err" || { cat "$work/err"; fail "an untrusted certificate: exit $got"; }
pass "tabula --tls refuses a certificate it cannot verify (exit 2)"

printf 'PING\n' | timeout 5 nc -q 2 127.0.0.1 "$tls_port" >"$work/plain" || true
grep -qx '\* BYE this port speaks TLS: connect with tabula --tls, or openssl s_client' "$work/plain" || { cat "$work/plain"; fail "a plain line to the TLS port"; }
pass "a plain line to the TLS port is told in the clear what the port speaks"
stop_server

# HTTPS: the HTTP port's pages and API over TLS, with a Basic login that never crosses in the clear.
echo "hunter2" | "$BIN/tabulad" passwd ci write --iterations 1000 --force >"$work/users"
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
https_port="$(free_port)"
start_server --memory --users "$work/users" --https-port "$https_port" --tls-cert "$work/cert.pem" --tls-key "$work/key.pem"
H="https://localhost:$https_port"
code="$(curl -s -o /dev/null -w '%{http_code}' --cacert "$work/cert.pem" "$H/api/ls?path=/items")"
[[ "$code" == 401 ]] || fail "HTTPS without a login: $code, expected 401"
curl -sf --cacert "$work/cert.pem" -u ci:hunter2 "$H/api/ls?path=/items" | grep -q '"name":"Rusty Spork"' || fail "HTTPS Basic login and /api/ls"
curl -sf --cacert "$work/cert.pem" -u ci:hunter2 -H "Origin: $H" -H 'Content-Type: application/json' -d '{"args":["pesto"]}' "$H/api/order" | grep -q '"message":"order 1: Pesto"' \
    || fail "HTTPS POST /api/order"
pass "--https-port: a Basic login over TLS reads (401 without it) and writes"
( timeout 10 curl -sN --cacert "$work/cert.pem" -u ci:hunter2 "$H/events?prefix=/orders" >"$work/sse" || true ) &
reader=$!
wait_for "$work/sse" '^event: reply' 10 || fail "the HTTPS event stream did not start: $(cat "$work/sse")"
printf 'AUTH ci hunter2\nORDER gelato\n' | nc -q 2 127.0.0.1 "$PORT" >/dev/null
wait_for "$work/sse" '"path":"/orders/2"' 10 || fail "the HTTPS event stream missed an order: $(cat "$work/sse")"
kill "$reader" 2>/dev/null || true
pass "--https-port: the event stream over TLS carries an order made over plain TCP"
curl -s --max-time 5 "http://127.0.0.1:$https_port/livez" >"$work/plain" || true
grep -q "this port speaks HTTPS: ask for https://, not http://" "$work/plain" || { cat "$work/plain"; fail "plain HTTP to the HTTPS port"; }
pass "plain HTTP to the HTTPS port is answered 400, saying to ask for https://"
