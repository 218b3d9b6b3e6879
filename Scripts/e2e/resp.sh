#!/usr/bin/env bash
# RESP on the line port, with clients nobody here wrote: redis-cli in batch (--no-raw) and
# interactive under tmux (Tab completes verbs, hints show their arguments), redis-py over
# every verb, pubsub and a resumed watch, a login with grants, and redis-benchmark driving
# Tabula's own verbs. nc on the same port still gets the line protocol.
set -euo pipefail
source "$(dirname "$0")/../lib.sh"
need redis-cli redis-tools
need redis-benchmark redis-tools
need tmux tmux
need_pip redis redis
work="$(mktemp -d)"
sock="tabula-resp-$$"
S=resp
trap 'tm kill-server 2>/dev/null || true; stop_server; [[ -n "${USERS_PID:-}" ]] && kill "$USERS_PID" 2>/dev/null; rm -rf "$work"' EXIT
start_server --memory

# Batch: redis-cli's own formatting of Tabula's replies.
out="$(redis-cli --no-raw -p "$PORT" LS /settings)"
[[ "$out" == $'1) "my-string/  My String: Yellow"\n2) "my-int/  My Int: 16"' ]] || fail "redis-cli LS: $out"
[[ "$(redis-cli --no-raw -p "$PORT" SELECT /settings/my-int 64)" == "My Int: 64 rev=1" ]] || fail "redis-cli SELECT"
[[ "$(redis-cli --no-raw -p "$PORT" SELECT 0)" == "OK" ]] || fail "redis-cli SELECT 0"
[[ "$(redis-cli --no-raw -p "$PORT" LS /nope)" == "(error) NOTFOUND no /nope; LS / lists what is there" ]] || fail "redis-cli error"
[[ "$(redis-cli -p "$PORT" COMMAND COUNT)" =~ ^[0-9]+$ ]] || fail "COMMAND COUNT"
pass "redis-cli --no-raw: rows as an array, a change with its rev, errors by code"
# --pipe ends its input with ECHO and 20 random bytes, and counts the replies to it.
pipe="$(printf '*1\r\n$4\r\nPING\r\n*2\r\n$2\r\nLS\r\n$9\r\n/settings\r\n' | timeout 20 redis-cli -p "$PORT" --pipe 2>&1)" || fail "redis-cli --pipe exited non-zero: $pipe"
[[ "$pipe" == *"errors: 0, replies: 2"* ]] || fail "redis-cli --pipe: $pipe"
pass "redis-cli --pipe ends at once: errors: 0, replies: 2 (ECHO answered byte for byte)"
info="$(redis-cli -p "$PORT" INFO)"
[[ "$info" == *"tcp_port:$PORT"* && "$info" == *"connected_clients:"* ]] || fail "INFO: $info"
pass "INFO names the port taken (--port 0) and the fields redis-cli --stat reads"
printf 'PING\n' | nc -q 2 127.0.0.1 "$PORT" | grep -q "^OK PONG" || fail "nc on the RESP port"
pass "nc on the same port still speaks the line protocol"

# Interactive: completion and hints come from COMMAND DOCS (the verb table).
tm new-session -d -s "$S" -x 150 -y 20 "redis-cli -p $PORT"
wait_pane "127.0.0.1:$PORT>" 10 || fail "redis-cli prompt"
tm send-keys -t "$S" "SEL" Tab
wait_pane "> SELECT setting option\|#index" || fail "Tab did not complete SELECT with its hint"
tm send-keys -t "$S" C-u "ls "
wait_pane "> ls \[path\] \[LIMIT n\] \[AFTER name\]" || fail "no hint for LS"
tm send-keys -t "$S" C-u "SHOW /settings/my-int" Enter
wait_pane "selected: 64 \(#4\)" || fail "SHOW in interactive redis-cli"
pass "interactive redis-cli: Tab completes verbs, hints show their arguments"
tm kill-session -t "$S"

# redis-py, with and without a users file.
echo "hunter2" | "$BIN/tabulad" passwd ci write --allow /items --allow /orders --iterations 1000 --force >"$work/users"
out2="$(mktemp)"
"$BIN/tabulad" --memory --port 0 --users "$work/users" --log-level warn >"$out2" 2>/dev/null &
USERS_PID=$!
for _ in $(seq 1 500); do UPORT="$(head -n1 "$out2" 2>/dev/null || true)"; [[ -n "$UPORT" ]] && break; sleep 0.01; done
python3 "$ROOT/Scripts/resp-test.py" "$PORT" "$UPORT" >"$work/py.txt" 2>&1 || { cat "$work/py.txt"; fail "redis-py"; }
grep -q "ALL RESP CHECKS PASSED" "$work/py.txt" || { cat "$work/py.txt"; fail "redis-py did not finish"; }
pass "redis-py: $(grep -c '^ok - ' "$work/py.txt") checks (every verb, pipelines, pubsub, resume, login)"

# A second client library from Debian: redis-rb's MULTI/EXEC, taken and refused.
ruby -e 'require "redis"' 2>/dev/null || need /ruby-redis-is-missing ruby-redis  # a path that never exists: install it
ruby "$ROOT/Scripts/resp-transaction.rb" "$PORT" >"$work/rb.txt" 2>&1 || { cat "$work/rb.txt"; fail "redis-rb"; }
pass "redis-rb: $(grep -c '^ok - ' "$work/rb.txt") transaction checks ($(tail -1 "$work/rb.txt" | cut -c6-))"

# redis-benchmark driving Tabula's verbs: every request answered, none an error.
redis-benchmark -p "$PORT" -c 5 -n 2000 -P 16 -q SHOW /settings/my-int >"$work/bench.txt" 2>&1 || { cat "$work/bench.txt"; fail "redis-benchmark SHOW"; }
grep -q "requests per second" "$work/bench.txt" || { cat "$work/bench.txt"; fail "redis-benchmark SHOW gave no figure"; }
# (__rand_int__ starts at 0, and options count from #1, so the write is ORDER, not SELECT.)
redis-benchmark -p "$PORT" -c 5 -n 2000 -q ORDER /menu/pizza/margherita >"$work/bench2.txt" 2>&1 || { cat "$work/bench2.txt"; fail "redis-benchmark ORDER"; }
grep -q "requests per second" "$work/bench2.txt" || { cat "$work/bench2.txt"; fail "redis-benchmark ORDER gave no figure"; }
[[ "$(redis-cli -p "$PORT" LS /orders LIMIT 1 | wc -l)" -eq 1 ]] || fail "no orders after the benchmark"
pass "redis-benchmark: $(tr '\r' '\n' <"$work/bench.txt" | grep 'requests per second' | tail -1)"
