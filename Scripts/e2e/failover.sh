#!/usr/bin/env bash
# tabula --host A,B against two nodes of a cluster: node A is killed with kill -9 while the
# client watches through it; the client fails over to B and its watch resumes there with no
# lost or repeated event (a change made on B during the failover included).
set -euo pipefail
source "$(dirname "$0")/../lib.sh"
need tmux tmux
work="$(mktemp -d)"
pg="$(mktemp -d /tmp/tabula-pg.XXXXXX)"; chmod 755 "$pg"
sock="tabula-e2e-$$"
pids=()
trap 'tmux -L "$sock" kill-server 2>/dev/null || true; for p in "${pids[@]}"; do kill -9 "$p" 2>/dev/null || true; done; "$ROOT/Scripts/postgres" stop "$pg" immediate 2>/dev/null || true; rm -rf "$work" "$pg"' EXIT
conninfo="$("$ROOT/Scripts/postgres" start "$pg")"
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
A="$(free_port)"; B="$(free_port)"
for port in "$A" "$B"; do
    "$BIN/tabulad" --port "$port" --postgres "$conninfo" --log-level warn 2>>"$work/nodes.log" &
    pids+=($!); disown
    for _ in $(seq 1 500); do "$BIN/tabula" -p "$port" -c PING >/dev/null 2>&1 && break; sleep 0.02; done
done

S=t
tm new-session -d -s "$S" -x 150 -y 50 "env NO_COLOR=1 TABULA_HISTFILE=$work/history $BIN/tabula --host 127.0.0.1:$A,127.0.0.1:$B; sleep 30"
wait_pane "^tabula 127.0.0.1:$A />$" || fail "no prompt on node A"
tm send-keys -t "$S" 'WATCH /orders' Enter
wait_pane "watching /orders" || fail "WATCH on node A"
"$BIN/tabula" -p "$B" -c 'ORDER pesto' >/dev/null
wait_pane "^\* EVENT [0-9]+ order /orders/1 1  Pesto" || fail "an order made on B did not reach the watch on A"

kill -9 "${pids[0]}"
"$BIN/tabula" -p "$B" -c 'ORDER gelato' >/dev/null   # while the client fails over
wait_pane "^reconnected to 127.0.0.1:$B; watches resumed" 10 || fail "no failover to node B"
wait_pane "^\* EVENT [0-9]+ order /orders/2 2  Gelato" 5 || fail "the order made during the failover was lost"
"$BIN/tabula" -p "$B" -c 'ORDER margherita' >/dev/null
wait_pane "^\* EVENT [0-9]+ order /orders/3 3  Margherita" || fail "no live push after the failover"
for n in 1 2 3; do
    c=$(pane | grep -c "order /orders/$n ") || true
    [[ $c -eq 1 ]] || fail "the event of order $n showed $c times"
done
wait_pane "^tabula 127.0.0.1:$B />" || fail "the prompt does not name node B"
pass "tabula --host A,B fails over from a killed node; the watch resumes with no lost or repeated event"

# Batch mode: the first server that answers.
out="$("$BIN/tabula" --host "127.0.0.1:$A" --host "127.0.0.1:$B" -c 'LS /orders')" || fail "batch mode did not use node B"
grep -q "^OK 3 of 3" <<<"$out" || fail "batch mode on node B: $out"
pass "tabula --host A --host B in batch mode uses B while A is down"
