#!/usr/bin/env bash
# Event streams read by real SSE client libraries from PyPI: httpx-sse, whose first message
# is the change made over TCP (a data-less block had reached it as an empty one), and
# sseclient-py over requests, which reads in blocks and gets the change at once (the stream is
# chunked: a close-delimited one held an event until more bytes came).
set -euo pipefail
source "$(dirname "$0")/../lib.sh"
need_pip "httpx, httpx_sse, requests, sseclient" httpx httpx-sse requests sseclient-py
work="$(mktemp -d)"
trap '[[ -n "${SPID:-}" ]] && kill "$SPID" 2>/dev/null; rm -rf "$work"' EXIT
"$BIN/tabulad" --memory --port 0 --http 0 --log-level warn >"$work/ports" 2>/dev/null &
SPID=$!
for _ in $(seq 1 500); do [[ "$(wc -l <"$work/ports")" -ge 2 ]] && break; sleep 0.01; done
PORT="$(sed -n 1p "$work/ports")"
HTTP="$(sed -n 2p "$work/ports")"
out="$(timeout 20 python3 - "$PORT" "$HTTP" <<'PY'
import json, socket, sys, threading
import httpx
from httpx_sse import connect_sse
port, http = int(sys.argv[1]), int(sys.argv[2])
with httpx.Client(timeout=10) as c:
    with connect_sse(c, "GET", f"http://127.0.0.1:{http}/events?prefix=/orders") as es:
        for e in es.iter_sse():
            if e.event == "reply":  # watching: now the change
                s = socket.create_connection(("127.0.0.1", port)); s.recv(200); s.sendall(b"ORDER pesto\n"); s.recv(200); s.close()
                continue
            print(e.event, e.id, json.loads(e.data)["path"])
            break
PY
)" || fail "httpx-sse: $out"
[[ "$out" == "message 1 /orders/1" ]] || fail "httpx-sse handed on: $out"
pass "httpx-sse $(python3 -c 'import importlib.metadata as m; print(m.version("httpx-sse"))') reads the event stream: its first message is the order made over TCP"

out="$(timeout 20 python3 - "$PORT" "$HTTP" <<'PY'
import json, socket, sys
import requests, sseclient
port, http = int(sys.argv[1]), int(sys.argv[2])
r = requests.get(f"http://127.0.0.1:{http}/events?prefix=/orders", stream=True, timeout=10)
for e in sseclient.SSEClient(r).events():
    if e.event == "reply":
        s = socket.create_connection(("127.0.0.1", port)); s.recv(200); s.sendall(b"ORDER gelato\n"); s.recv(200); s.close()
        continue
    print(e.event, json.loads(e.data)["path"])
    break
PY
)" || fail "sseclient-py: $out"
[[ "$out" == "message /orders/2" ]] || fail "sseclient-py handed on: $out"
pass "sseclient-py $(python3 -c 'import importlib.metadata as m; print(m.version("sseclient-py"))') over requests gets the order at once (a chunked stream)"
