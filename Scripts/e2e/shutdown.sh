#!/usr/bin/env bash
# SIGTERM with 50 connected clients: tabulad exits 0 and every client got the goodbye line.
set -euo pipefail
source "$(dirname "$0")/../lib.sh"
work="$(mktemp -d)"
trap 'stop_server; rm -rf "$work"' EXIT
start_server --memory
pids=()
for i in $(seq 1 50); do
    mkfifo "$work/in$i"
    nc 127.0.0.1 "$PORT" <"$work/in$i" >"$work/out$i" &
    pids+=($!)
    exec {fd}>"$work/in$i"
    eval "fd$i=$fd"
done
for i in $(seq 1 50); do wait_for "$work/out$i" '^\* HELLO' || fail "client $i got no greeting"; done
kill -TERM "$SERVER_PID"
status=0
wait "$SERVER_PID" || status=$?
SERVER_PID=""
[[ $status -eq 0 ]] || fail "tabulad exited $status after SIGTERM"
for i in $(seq 1 50); do
    wait_for "$work/out$i" '^\* BYE server shutting down$' 3 || fail "client $i got no goodbye"
done
pass "SIGTERM with 50 clients: exit 0, 50 goodbyes"
