#!/usr/bin/env bash
# --resp-port: RESP from the first byte. Clients that connect and wait before their first
# command, as pools do, are answered in RESP: redis-cli --pipe fed after 300 ms, and
# redis-benchmark's default PING tests (inline and multibulk) run to the end.
set -euo pipefail
source "$(dirname "$0")/../lib.sh"
need redis-cli redis-tools
need redis-benchmark redis-tools
work="$(mktemp -d)"
trap '[[ -n "${RPID:-}" ]] && kill "$RPID" 2>/dev/null; rm -rf "$work"' EXIT
"$BIN/tabulad" --memory --port 0 --resp-port 0 --log-level warn >"$work/ports" 2>/dev/null &
RPID=$!
for _ in $(seq 1 500); do [[ "$(wc -l <"$work/ports")" -ge 2 ]] && break; sleep 0.01; done
PORT="$(sed -n 1p "$work/ports")"
RESP="$(sed -n 2p "$work/ports")"
[[ -n "$RESP" ]] || fail "tabulad did not report its RESP port"

# The client waits 300 ms before its first command: the line port would have greeted it.
out="$( (sleep 0.3; printf '*1\r\n$4\r\nPING\r\n') | timeout 20 redis-cli -p "$RESP" --pipe 2>&1)" || fail "redis-cli --pipe after 300 ms: $out"
[[ "$out" == *"errors: 0, replies: 1"* ]] || fail "redis-cli --pipe after 300 ms: $out"
pass "a client silent for 300 ms is answered in RESP on --resp-port ($(tail -1 <<<"$out"))"
[[ "$( (sleep 0.3; printf 'PING\r\n') | timeout 10 nc -q1 127.0.0.1 "$RESP" | tr -d '\r')" == "+PONG" ]] || fail "an inline PING on --resp-port"
pass "an inline PING on --resp-port is +PONG, with no greeting before it"

timeout 120 redis-benchmark -p "$RESP" -t ping -n 2000 -c 5 -q >"$work/bench.txt" 2>&1 || { cat "$work/bench.txt"; fail "redis-benchmark -t ping"; }
[[ "$(tr '\r' '\n' <"$work/bench.txt" | grep -c 'requests per second')" -ge 2 ]] || { cat "$work/bench.txt"; fail "redis-benchmark -t ping: not both PING tests"; }
pass "redis-benchmark -t ping (inline and multibulk) runs to the end on --resp-port"
