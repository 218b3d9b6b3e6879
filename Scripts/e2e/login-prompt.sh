#!/usr/bin/env bash
# tabula --user at a terminal (tmux): it asks for the secret without echo, logs in, and an
# AUTH typed by hand never reaches the history file.
set -euo pipefail
source "$(dirname "$0")/../lib.sh"
need tmux tmux
work="$(mktemp -d)"
sock="tabula-login-$$"
trap 'tmux -L "$sock" kill-server 2>/dev/null || true; stop_server; rm -rf "$work"' EXIT
echo "hunter2" | "$BIN/tabulad" passwd alice write --iterations 1000 --force >"$work/users"
start_server --memory --users "$work/users"

S=t
tm new-session -d -s t -x 150 -y 40 "env NO_COLOR=1 TABULA_HISTFILE=$work/history $BIN/tabula -p $PORT --user alice; sleep 30"
wait_pane "^secret for alice:" || fail "no secret prompt"
tm send-keys -t t 'hunter2' Enter
wait_pane "^tabula 127.0.0.1:$PORT />$" || fail "no prompt after the secret"
! pane | grep -q hunter2 || fail "the secret was echoed"
tm send-keys -t t 'WHOAMI' Enter
wait_pane "^\(alice write all paths\)$|^OK alice write all paths$" || fail "WHOAMI after the prompt"
tm send-keys -t t 'AUTH alice hunter2' Enter
wait_pane "alice write" 5 || fail "AUTH typed by hand"
tm send-keys -t t 'PING' Enter
wait_pane "PONG" || fail "PING"
grep -q "WHOAMI" "$work/history" || fail "history not written"
! grep -q "hunter2" "$work/history" || fail "the secret reached the history file"
pass "tabula --user asks for the secret without echo; AUTH lines stay out of the history"
