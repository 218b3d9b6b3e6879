#!/usr/bin/env bash
# --resp-port: RESP from the first byte. Clients that connect and wait before their first
# command, as pools do, are answered in RESP: redis-cli --pipe fed after 300 ms, and
# redis-benchmark's default PING tests (inline and multibulk) run to the end; node-redis after
# 300 ms idle; the Prometheus redis exporter.
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
! grep -q "Could not fetch server CONFIG" "$work/bench.txt" || { cat "$work/bench.txt"; fail "redis-benchmark could not read CONFIG GET save/appendonly"; }
pass "redis-benchmark reads CONFIG GET save and appendonly (no 'Could not fetch server CONFIG')"

# node-redis connects, waits 300 ms (as a pool's idle connection does), then PINGs and runs
# a transaction: on the shared port its PING was never answered.
need node nodejs
need /usr/share/nodejs/redis/package.json node-redis
cat >"$work/n.js" <<'JS'
const redis = require("redis");
(async () => {
  const c = redis.createClient({ socket: { port: Number(process.argv[2]) } });
  await c.connect();
  await new Promise(r => setTimeout(r, 300));
  const pong = await c.ping();
  const res = await c.multi().addCommand(["ORDER", "pesto"]).exec();
  console.log(pong, res[0]);
  await c.quit();
})().catch(e => { console.log("ERR", e.message); process.exit(1); });
JS
out="$(NODE_PATH=/usr/share/nodejs timeout 20 node "$work/n.js" "$RESP" 2>&1)" || fail "node-redis: $out"
[[ "$out" == "PONG order 1: Pesto rev=1" ]] || fail "node-redis: $out"
pass "node-redis $(sed -n 's/.*"version": "\(.*\)".*/\1/p' /usr/share/nodejs/redis/package.json): connect, wait 300 ms, PING and MULTI/EXEC on --resp-port"

# The Prometheus redis exporter scrapes it, with no command logged unknown (it asks LATENCY).
need prometheus-redis-exporter prometheus-redis-exporter
eport="$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')"
prometheus-redis-exporter --redis.addr "redis://127.0.0.1:$RESP" --web.listen-address "127.0.0.1:$eport" >"$work/exporter.log" 2>&1 &
EPID=$!
trap '[[ -n "${RPID:-}" ]] && kill "$RPID" 2>/dev/null; [[ -n "${EPID:-}" ]] && kill "$EPID" 2>/dev/null; rm -rf "$work"' EXIT
for _ in $(seq 1 200); do curl -s "127.0.0.1:$eport/metrics" 2>/dev/null | grep -q '^redis_up 1' && break; sleep 0.05; done
curl -s "127.0.0.1:$eport/metrics" | grep -q '^redis_up 1' || { cat "$work/exporter.log"; fail "the redis exporter does not see tabulad up"; }
! grep -qi "unknown" "$work/exporter.log" || { cat "$work/exporter.log"; fail "the redis exporter logged an unknown command"; }
pass "the Prometheus redis exporter scrapes --resp-port (redis_up 1) and logs no unknown command"
