#!/usr/bin/env bash
# The interactive client under tmux against a real tabulad: editing, history across runs,
# Tab completion, a push arriving while a line is half typed, Ctrl-C, and reconnecting
# after the server restarts.
set -euo pipefail
source "$(dirname "$0")/../lib.sh"
need tmux tmux
work="$(mktemp -d)"
sock="tabula-e2e-$$"
trap 'tmux -L "$sock" kill-server 2>/dev/null || true; stop_server; rm -rf "$work"' EXIT
start_server --data "$work/db.sqlite"
export TABULA_HISTFILE="$work/history"

S=t  # the tmux session the helpers talk to
last_line() { pane | tail -n 1; }
start_client() {  # start_client [extra env assignments]
    tm new-session -d -s "$S" -x 150 -y 50 "env NO_COLOR=1 TABULA_HISTFILE=$TABULA_HISTFILE ${1:-} $BIN/tabula -p $PORT; sleep 30"
    wait_pane "^tabula 127.0.0.1:$PORT />$" || fail "no prompt"
}
P="tabula 127.0.0.1:$PORT"

start_client

# Editing: move, insert, delete.
tm send-keys -t "$S" 'PNG' Left Left 'I' End 'XY' BSpace BSpace
wait_pane "^$P /> PING$" || fail "editing: the line is not PING"
tm send-keys -t "$S" Enter
wait_pane "^\(PONG\)$" || fail "editing: PING did not run"
tm send-keys -t "$S" 'SHOW /settings/my-intt' BSpace C-a '#e1 ' Enter
wait_pane "^\(My Int: 16\)$" || fail "editing: Home, insert and delete"
pass "editing: cursor movement, insertion, deletion"

# Tab completion: a verb, a SELECT option, a nested path.
tm send-keys -t "$S" 'sel' Tab
wait_pane "^$P /> select$" || fail "Tab did not complete the verb"
tm send-keys -t "$S" '/settings/my-s' Tab
wait_pane "^$P /> select /settings/my-string$" || fail "Tab did not complete the setting (with its space)"
tm send-keys -t "$S" 'Gr' Tab
wait_pane "^$P /> select /settings/my-string Green$" || fail "Tab did not complete the option"
tm send-keys -t "$S" Enter
wait_pane "^\(My String: Green\)$" || fail "completed SELECT did not run"
tm send-keys -t "$S" 'show /catalog/item-2/item-2.1/' Tab
wait_pane "^$P /> show /catalog/item-2/item-2.1/item-2.1.1$" || fail "Tab did not complete the nested path"
tm send-keys -t "$S" Enter
wait_pane "^  view: image$" || fail "completed SHOW did not run"
pass "Tab completes a verb, a setting's option and a nested path, each into a line the server accepts"

# Hints (a colour terminal): the rest of the usage after the cursor, gone as it is typed.
tm new-session -d -s h -x 150 -y 20 "env TERM=xterm-256color TABULA_HISTFILE=$TABULA_HISTFILE $BIN/tabula -p $PORT; sleep 30"
S=h  # the pane helpers talk to the hints session for a while
wait_pane "^$P />$" || fail "no prompt for the hints session"
tm send-keys -t "$S" 'LS /items '
wait_pane "^$P /> LS /items \[LIMIT n\] \[AFTER name\]$" || fail "no hint after LS /items"
tm send-keys -t "$S" 'LIMIT 2 AFTER 1'
wait_pane "^$P /> LS /items LIMIT 2 AFTER 1$" || fail "the hint did not go once everything was typed"
tm send-keys -t "$S" C-u 'SYNC 0 ' Enter
wait_pane "^\(" || fail "SYNC did not run"
pane | grep -q "TIMEOUT ms" && fail "an accepted line kept its hint on the screen"
tm kill-session -t h
S=t
pass "hints show the rest of the usage, dimmed, and go as it is typed"

# History: a line once, without its outer spaces, however it was typed again.
# Each line is typed once the one before has been answered (a CI run once saw only two of
# three answers when all three were typed at once: not reproduced in 3 runs alone).
k=0
for l in 'PING hist' 'PING hist  ' '  PING hist'; do
    tm send-keys -t "$S" "$l" Enter
    k=$((k + 1))
    for _ in $(seq 200); do [[ $(pane | grep -c '^(hist)$') -ge $k ]] && break; sleep 0.05; done
    [[ $(pane | grep -c '^(hist)$') -eq $k ]] || fail "PING $k of 3 did not run: $(pane | tail -n 8)"
done
[[ $(grep -c "PING hist" "$TABULA_HISTFILE") -eq 1 ]] || fail "history holds: $(grep "PING hist" "$TABULA_HISTFILE" | cat -A)"
pass "history keeps a line once, trimmed"

# A push while a line is half typed.
tm send-keys -t "$S" 'WATCH /orders' Enter
wait_pane "^\(watching /orders at rev" || fail "WATCH"
tm send-keys -t "$S" 'PI'
wait_pane "^$P /> PI$" || fail "half-typed line"
"$BIN/tabula" -p "$PORT" -c 'ORDER tiramisu' >/dev/null
wait_pane "^\* EVENT [0-9]+ order /orders/1 1  Tiramisu" || fail "the push did not show"
[[ "$(last_line)" == "$P /> PI" ]] || fail "the half-typed line was not redrawn: '$(last_line)'"
tm send-keys -t "$S" 'NG' Enter
wait_pane "^\(PONG\)$" || fail "the half-typed line did not run after the push"
n=$(pane | grep -c '^(PONG)$'); [[ $n -eq 2 ]] || fail "expected 2 PONGs, saw $n"
pass "a push shows above a half-typed line, which survives and runs"

# One's own change is shown once (by its reply), not also as its event.
tm send-keys -t "$S" 'WATCH /settings' Enter 'SELECT /settings/my-int 64' Enter
wait_pane "^\(My Int: 64\)$" || fail "SELECT did not run"
tm send-keys -t "$S" 'UNWATCH /settings' Enter
wait_pane "^\(1 removed\)$" || fail "UNWATCH after SELECT"
pane | grep -q "^\* EVENT .* select /settings/my-int" && fail "the client's own change was printed twice (its event too)"
pass "one's own change is printed once"

# Meta-commands at the prompt, as in scripts.
printf 'PING from-file\n' >"$work/inc.tab"
tm send-keys -t "$S" '\?' Enter
wait_pane '^\\timing' || fail "\\? did not list the meta-commands"
tm send-keys -t "$S" '\echo said it' Enter
wait_pane "^said it$" || fail "\\echo"
tm send-keys -t "$S" "\\i $work/inc.tab" Enter
wait_pane "^OK from-file$" || fail "\\i"
tm send-keys -t "$S" '\timing' Enter 'PING timed' Enter
wait_pane "^Time: [0-9.]+ ms$" || fail "\\timing"
tm send-keys -t "$S" '\timing' Enter
pass "\\?, \\echo, \\i and \\timing at the prompt"

# \watch re-runs a read until Ctrl-C.
tm send-keys -t "$S" '\watch 0.3 PING watched' Enter
for _ in $(seq 100); do [[ $(pane | grep -c '^(watched)$') -ge 2 ]] && break; sleep 0.05; done
[[ $(pane | grep -c '^(watched)$') -ge 2 ]] || fail "\\watch did not run its command again"
tm send-keys -t "$S" C-c
wait_pane '^\(\\watch stopped\)$' || fail "Ctrl-C did not stop \\watch"
pass "\\watch re-runs a read until Ctrl-C"

# Ctrl-C ends a \wait at the prompt; Tab completes the meta-commands.
tm send-keys -t "$S" '\wait never-happens 30' Enter
sleep 0.3  # the \wait is waiting (a state to be in, not a wait for an event)
tm send-keys -t "$S" C-c
wait_pane '^\(\\wait cancelled\)$' || fail "Ctrl-C did not end \\wait"
tm send-keys -t "$S" '\tim' Tab
wait_pane "^$P /> \\\\timing$" || fail "Tab did not complete \\timing"
tm send-keys -t "$S" C-u
pass "Ctrl-C ends a \\wait; Tab completes the meta-commands"

# Ctrl-C cancels a request that waits (a SYNC to a revision that will not come), not the client.
tm send-keys -t "$S" 'SYNC 99999 TIMEOUT 20000' Enter
sleep 0.5  # the SYNC is on its way (a state to be in, not a wait for an event)
tm send-keys -t "$S" C-c
wait_pane "^\(cancelled; reconnecting" 5 || fail "Ctrl-C did not cancel the waiting SYNC"
wait_pane "^reconnected to" 10 || fail "no reconnect after the cancel"
tm send-keys -t "$S" 'PING after-cancel' Enter
wait_pane "^\(after-cancel\)$" 5 || fail "the client was not usable after the cancel"
pass "Ctrl-C cancels a waiting SYNC; the session goes on at once"

# Ctrl-C clears the line.
tm send-keys -t "$S" 'garbage here' C-c
wait_pane "^$P />$" || fail "Ctrl-C did not give a fresh prompt"
tm send-keys -t "$S" 'PWD' Enter
wait_pane "^\(/\)$" || fail "after Ctrl-C"
! pane | grep -q "unknown verb 'garbage'" || fail "Ctrl-C sent the line"
pass "Ctrl-C drops the half-typed line"


# Reconnect after the server restarts, watches resumed without losing an event.
kill -TERM "$SERVER_PID"; wait "$SERVER_PID" || true; SERVER_PID=""
wait_pane "connection lost" || fail "the client did not notice the server went away"
"$BIN/tabulad" --port "$PORT" --data "$work/db.sqlite" --log-level warn >/dev/null 2>&1 &
SERVER_PID=$!
for _ in $(seq 1 200); do "$BIN/tabula" -p "$PORT" -c 'ORDER gelato' >/dev/null 2>&1 && break; sleep 0.02; done
wait_pane "^reconnected to 127.0.0.1:$PORT; watches resumed" 10 || fail "no reconnect"
wait_pane "^\* EVENT [0-9]+ order /orders/2 2  Gelato" 5 || fail "the order made during the reconnect was lost"
"$BIN/tabula" -p "$PORT" -c 'ORDER pesto' >/dev/null
wait_pane "^\* EVENT [0-9]+ order /orders/3 3  Pesto" || fail "no live push after reconnect"
n=$(pane | grep -c 'order /orders/2 '); [[ $n -eq 1 ]] || fail "the replayed event showed $n times"
pass "reconnects after a server restart; the watch resumes with no lost or repeated event"

# History survives into the next run: Up recalls the previous run's last line.
tm send-keys -t "$S" C-d
deadline=$(( $(date +%s%N) + 5000000000 ))
while pgrep -f "$BIN/tabula -p $PORT\$" >/dev/null && (( $(date +%s%N) < deadline )); do sleep 0.02; done
! pgrep -f "$BIN/tabula -p $PORT\$" >/dev/null || fail "Ctrl-D did not end the client"
S=t2  # a second session on the same tmux server (the first one stays until the end)
start_client
tm send-keys -t "$S" Up
wait_pane "^$P /> PWD$" || fail "Up did not recall the previous run's line"
tm send-keys -t "$S" Up
wait_pane "^$P /> PING after-cancel$" || fail "Up did not go further back (the ^C line must not be in history)"
pass "history is kept across runs"

# vi editing through the user's inputrc (readline application name "tabula").
printf '$if tabula\nset editing-mode vi\n$endif\n' >"$work/inputrc"
S=t3
start_client "INPUTRC=$work/inputrc"
tm send-keys -t "$S" 'PINXG' Escape 'h' 'x' 'A' Enter
wait_pane "^\(PONG\)$" || fail "vi keys (Esc, h, x, A) did not edit PINXG into PING"
pass "vi editing mode from the inputrc"

