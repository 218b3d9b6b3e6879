#!/usr/bin/env bash
# The live table view under tmux against a real tabulad: /items redrawn in place as another
# client adds, moves, reprices and favourites items; a resize; q restoring the screen; and
# \live /settings at the prompt, updated by a SELECT elsewhere, q returning to the prompt.
set -euo pipefail
source "$(dirname "$0")/../lib.sh"
need tmux tmux
work="$(mktemp -d)"
sock="tabula-live-$$"
trap 'tmux -L "$sock" kill-server 2>/dev/null || true; stop_server; rm -rf "$work"' EXIT
start_server --data "$work/db.sqlite"
T() { "$BIN/tabula" -p "$PORT" "$@" >/dev/null; }
# The price section the pane shows the item matching $1 in.
section_of() { pane | awk -v item="$1" '/Cheap Items \(/ { s = "Cheap" } /Expensive Items \(/ { s = "Expensive" } $0 ~ item { print s; exit }'; }

S=live
tm new-session -d -s "$S" -x 100 -y 24 "env TERM=xterm-256color TABULA_HISTFILE=$work/h $BIN/tabula -p $PORT live /items; echo LIVE-ENDED; sleep 30"
wait_pane "^tabula live /items +rev 0" || fail "the live view did not start"
wait_pane "^  3  Shiny Mac  \\\$85" || fail "no item rows"

T -c 'ADD /items Lamp 80'
wait_pane "^  5  Lamp  \\\$80" || fail "an added item did not appear"
[[ "$(section_of 'Lamp')" == "Expensive" ]] || fail "Lamp is not in Expensive Items: $(pane)"
T -c 'SET /items/3 value=20'
wait_pane "^  3  Shiny Mac  \\\$20" || fail "a repriced item did not change"
[[ "$(section_of 'Shiny Mac')" == "Cheap" ]] || fail "the repriced item did not move to Cheap Items: $(pane)"
T -c 'FAV /items/1 on'
wait_pane "^  1  Rusty Spork .*★" || fail "the favourite did not show"
T -c 'MV /items/3 1'
wait_pane "rev 4" || fail "the move was not seen"
[[ "$(pane | grep -n '^  3  Shiny Mac' | cut -d: -f1)" -lt "$(pane | grep -n '^  1  Rusty Spork' | cut -d: -f1)" ]] || fail "the moved item is not first in its section: $(pane)"
pass "live /items redraws in place as items are added, repriced (moving section), favourited and moved"

# After the server restarts (and a change is made meanwhile), the view lists again: nothing missed.
kill -TERM "$SERVER_PID"; wait "$SERVER_PID" || true; SERVER_PID=""
wait_pane "connection lost; reconnecting" 10 || fail "the view did not notice the server went away"
"$BIN/tabulad" --port "$PORT" --data "$work/db.sqlite" --log-level warn >/dev/null 2>&1 &
SERVER_PID=$!
for _ in $(seq 1 200); do "$BIN/tabula" -p "$PORT" -c 'ADD /items Desk 99' >/dev/null 2>&1 && break; sleep 0.05; done
wait_pane "^  6  Desk  \\\$99" 10 || fail "the change made across the restart did not show"
pass "after a server restart the view reconnects and shows the change made meanwhile"

tm resize-window -t "$S" -x 60 -y 14
wait_pane "^tabula live /items   rev 5   ↑↓ select  Enter open  ← back$" || fail "the view did not redraw at 60 columns"
pass "a resize redraws the view"

tm send-keys -t "$S" q
wait_pane "^LIVE-ENDED$" || fail "q did not end the view"
pane | grep -q "Rusty Spork" && fail "the screen was not restored after q"
pass "q leaves with the screen restored"

S=prompt
tm new-session -d -s "$S" -x 100 -y 24 "env NO_COLOR=1 TERM=xterm-256color TABULA_HISTFILE=$work/h $BIN/tabula -p $PORT; sleep 30"
P="tabula 127.0.0.1:$PORT"
wait_pane "^$P />$" || fail "no prompt"
tm send-keys -t "$S" '\live /settings' Enter
wait_pane "^  my-int/  My Int: 16" || fail "\\live /settings did not show the master rows"
T -c 'SELECT /settings/my-int 64'
wait_pane "^  my-int/  My Int: 64" || fail "the master row did not update on a SELECT elsewhere"
tm send-keys -t "$S" Down Enter
wait_pane "\\[x\\] #4  64" || fail "Enter did not drill into the setting's options"
tm send-keys -t "$S" q
wait_pane "^$P /> \\\\live /settings$" || fail "q did not return to the prompt"
tm send-keys -t "$S" 'PING back' Enter
wait_pane "^\\(back\\)$" || fail "the prompt did not work after the live view"
pass "\\live at the prompt: master rows update live, Enter drills in, q returns to the prompt"
