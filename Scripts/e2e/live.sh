#!/usr/bin/env bash
# The live table view under tmux against a real tabulad: /items redrawn in place as another
# client adds, moves, reprices and favourites items; a resize; q restoring the screen; and
# \live /settings at the prompt, updated by a SELECT elsewhere, q returning to the prompt (Esc
# too, the keys typed after it in the same read arriving at the prompt);
# rows patched from events with no request per change; J twice; a catalog leaf opened as its kind.
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
wait_pane "^ +3  Shiny Mac +\\\$85" || fail "no item rows"

T -c 'ADD /items Lamp 80'
wait_pane "^ +5  Lamp +\\\$80" || fail "an added item did not appear"
[[ "$(section_of 'Lamp')" == "Expensive" ]] || fail "Lamp is not in Expensive Items: $(pane)"
T -c 'SET /items/3 value=20'
wait_pane "^ +3  Shiny Mac +\\\$20" || fail "a repriced item did not change"
[[ "$(section_of 'Shiny Mac')" == "Cheap" ]] || fail "the repriced item did not move to Cheap Items: $(pane)"
T -c 'FAV /items/1 on'
wait_pane "★ +1  Rusty Spork" || fail "the favourite did not show"
T -c 'MV /items/3 1'
wait_pane "rev 4" || fail "the move was not seen"
[[ "$(pane | grep -nE '^ +3  Shiny Mac' | cut -d: -f1)" -lt "$(pane | grep -nE '1  Rusty Spork' | cut -d: -f1)" ]] || fail "the moved item is not first in its section: $(pane)"
pass "live /items redraws in place as items are added, repriced (moving section), favourited and moved"

# After the server restarts (and a change is made meanwhile), the view lists again: nothing missed.
kill -TERM "$SERVER_PID"; wait "$SERVER_PID" || true; SERVER_PID=""
wait_pane "connection lost; reconnecting" 10 || fail "the view did not notice the server went away"
"$BIN/tabulad" --port "$PORT" --data "$work/db.sqlite" --log-level warn >/dev/null 2>&1 &
SERVER_PID=$!
for _ in $(seq 1 200); do "$BIN/tabula" -p "$PORT" -c 'ADD /items Desk 99' >/dev/null 2>&1 && break; sleep 0.05; done
wait_pane "^ +6  Desk +\\\$99" 10 || fail "the change made across the restart did not show"
pass "after a server restart the view reconnects and shows the change made meanwhile"

tm resize-window -t "$S" -x 60 -y 14
wait_pane "^tabula live /items   rev 5   [0-9]+/[0-9]+   ↑↓ select  Enter open/act$" || fail "the view did not redraw at 60 columns"
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
# Inside the interactive client readline holds SIGWINCH: the view follows the size anyway.
tm resize-window -t "$S" -x 60 -y 20
wait_pane "^tabula live /settings   rev [0-9]+   1/2   ↑↓ select  Enter open/$" || fail "\\live did not follow a resize: $(pane)"
tm resize-window -t "$S" -x 100 -y 24
wait_pane "q quit$" || fail "\\live did not follow the resize back: $(pane)"
tm send-keys -t "$S" Down Enter
wait_pane "\\[x\\] #4  64" || fail "Enter did not drill into the setting's options"
tm send-keys -t "$S" q
wait_pane "^$P /> \\\\live /settings$" || fail "q did not return to the prompt"
tm send-keys -t "$S" 'PING back' Enter
wait_pane "^\\(back\\)$" || fail "the prompt did not work after the live view"
pass "\\live at the prompt: master rows update live, Enter drills in, q returns to the prompt"

# Acting: two views of one setting; Enter on an option in one selects it, and the other
# shows it in place. An Enter on a stale screen (the view stopped while another client
# changed the setting) is refused as a conflict, said, and the rows are shown again.
tm new-session -d -s A -x 100 -y 20 "env TERM=xterm-256color $BIN/tabula -p $PORT live /settings/my-int; sleep 30"
tm new-session -d -s B -x 100 -y 20 "env TERM=xterm-256color $BIN/tabula -p $PORT live /settings/my-int/; sleep 30"
S=A; wait_pane "\\[x\\] #4  64" || fail "view A did not start"
S=B; wait_pane "\\[x\\] #4  64" || fail "view B did not start"
S=A; tm send-keys -t A Down Down Enter
wait_pane "\\[x\\] #3  32" || fail "Enter on #3 in view A did not select it"
S=B; wait_pane "\\[x\\] #3  32" || fail "view B did not show A's selection"
pass "live: Enter on an option selects it, and another view shows it in place"
viewB="$(pgrep -f "tabula -p $PORT live /settings/my-int/$")"
kill -STOP "$viewB"
T -c 'SELECT /settings/my-int #1'
tm send-keys -t B Enter  # on #1, drawn when #3 was selected: stale
kill -CONT "$viewB"
wait_pane "changed meanwhile, shown again: /settings/my-int changed at rev" || fail "the stale Enter was not refused"
wait_pane "\\[x\\] #1  8" || fail "view B did not show the setting again after the conflict"
[[ "$("$BIN/tabula" -p "$PORT" -q -c 'SHOW /settings/my-int' | grep '^selected')" == "selected: 8 (#1)" ]] || fail "the stale action changed the setting"
pass "live: an action on a stale row is refused (CONFLICT), said in the status line, and the rows are shown again"
tm kill-session -t A; tm kill-session -t B

# Items: f toggles a favourite, d then y removes, F shows favourites only.
S=I
tm new-session -d -s I -x 100 -y 20 "env TERM=xterm-256color $BIN/tabula -p $PORT live /items; sleep 30"
wait_pane "2  Fluffy Bear" || fail "live /items did not start"
tm send-keys -t I g Down Down f
wait_pane "favourite rev=" || fail "f did not toggle the favourite: $(pane)"
tm send-keys -t I d
wait_pane "remove item [0-9]+ \\([^)]+\\)\\? y/n" || fail "d did not ask, naming the item: $(pane)"
tm send-keys -t I y
wait_pane "removed /items/[0-9]+ rev=" || fail "y did not remove: $(pane)"
tm send-keys -t I F
wait_pane "Favorites \\(F: Show All\\)" || fail "F did not show favourites only"
pass "live /items: f favourites, d y removes, F shows favourites only"
tm send-keys -t I F
wait_pane "Show All \\(F: Favorites\\)" || fail "F did not show everything again"
# The cursor stays on its item when a row is added above it: f acts on the item chosen.
last="$("$BIN/tabula" -p "$PORT" -q -c 'LS /items LIMIT 1000' | grep -oE '^(- )?[0-9]+ ' | tail -1 | grep -oE '[0-9]+')"
fav_of() { "$BIN/tabula" -p "$PORT" -q -c "SHOW /items/$1" | grep -o 'favorite: [a-z]*'; }
was="$(fav_of "$last")"
tm send-keys -t I G
"$BIN/tabula" -p "$PORT" -q -c 'ADD /items Pebble 1' >/dev/null
wait_pane "^ +[0-9]+  Pebble +\\\$1" || fail "the item added above the cursor did not show: $(pane)"
tm send-keys -t I f
wait_pane "favourite rev=|not a favourite rev=" || fail "f after the add did nothing: $(pane)"
[[ "$(fav_of "$last")" != "$was" ]] || fail "f did not act on item $last, the one the cursor was on ($(pane))"
pebble="$("$BIN/tabula" -p "$PORT" -q -c 'LS /items LIMIT 1000' | grep 'Pebble' | grep -oE '^(- )?[0-9]+' | grep -oE '[0-9]+')"
[[ "$(fav_of "$pebble")" == "favorite: no" ]] || fail "f acted on Pebble, added above the cursor"
pass "live /items: a row added above the cursor leaves it on its item, and f stars that item ($last), not the new one"
# a asks a name and a price in the status line and adds; e edits the selected item's price.
tm send-keys -t I a
wait_pane "new item's name:$" || fail "a did not ask for a name: $(pane)"
tm send-keys -t I 'Lamp' C-a 'Desk ' Enter  # Ctrl-A edits as readline does
wait_pane "Desk Lamp's price: \\\$$" || fail "a did not ask for a price"
tm send-keys -t I 30 Enter
wait_pane "^ +[0-9]+  Desk Lamp +\\\$30" || fail "the added item did not show: $(pane)"
[[ "$(section_of 'Desk Lamp')" == "Cheap" ]] || fail "Desk Lamp is not in Cheap Items: $(pane)"
tm send-keys -t I g Down e
wait_pane "name: Shiny Mac$" || fail "e did not offer the item's name: $(pane)"
tm send-keys -t I Enter
wait_pane "price: \\\$20$" || fail "e did not offer the item's price"
tm send-keys -t I BSpace BSpace 77 Enter
wait_pane "3  Shiny Mac +\\\$77" || fail "e did not change the price: $(pane)"
[[ "$(section_of 'Shiny Mac')" == "Expensive" ]] || fail "the repriced item did not move to Expensive Items: $(pane)"
pass "live /items: a adds an item (name and price asked, Ctrl-A editing), e edits the selected item's price (and it moves band)"
tm send-keys -t I q
S=C
tm new-session -d -s C -x 100 -y 20 "env TERM=xterm-256color $BIN/tabula -p $PORT live /items/expensive-items; sleep 30"
wait_pane " 4  Rusty Mac" || fail "live /items/expensive-items did not start: $(pane)"
T -c 'FAV /items/4 on'
wait_pane "★ +4  Rusty Mac" || fail "a price section's view missed a change of its item (it watched the section's path, where no item event is)"
pass "live /items/SECTION follows its items' changes"
S=N
tm new-session -d -s N -x 100 -y 20 "env TERM=xterm-256color $BIN/tabula -p $PORT live /nope; echo EXIT=\$?; sleep 30"
wait_pane "^EXIT=1$" || fail "live /nope did not exit 1: $(pane)"
pane | grep -q "nothing can change under /nope" || fail "live /nope did not say why: $(pane)"
pass "live /nope says why without taking the screen, and exits 1"

# A long list scrolls to its end: 1,500 orders, read a page at a time; the menu beside the
# order list marks the newest; Ctrl-C leaves \live back to the prompt.
printf 'ORDER /menu/pizza/margherita\n%.0s' $(seq 1500) >"$work/orders.tab"
"$BIN/tabula" -p "$PORT" -q -f "$work/orders.tab" >/dev/null || fail "could not place 1,500 orders"
S=O
tm new-session -d -s O -x 100 -y 20 "env TERM=xterm-256color $BIN/tabula -p $PORT live /orders; sleep 30"
wait_pane "^tabula live /orders +rev [0-9]+ +1/1500 " || fail "live /orders did not say 1/1500: $(pane)"
tm send-keys -t O G
wait_pane "^> 1500  Margherita" || fail "End did not reach the 1,500th order: $(pane)"
wait_pane " 1500/1500 " || fail "the position is not 1500/1500"
tm send-keys -t O k k PageUp
wait_pane "^> 1482  Margherita" || fail "PgUp did not scroll back a page: $(pane)"
pass "live /orders: 1,500 orders scroll to the end (G), position 1500/1500, PgUp goes back"
tm send-keys -t O q
S=M
tm new-session -d -s M -x 120 -y 20 "env TERM=xterm-256color $BIN/tabula -p $PORT live /menu/pizza; sleep 30"
wait_pane "Orders \\(1500\\)" || fail "the menu's order pane did not show the count: $(pane)"
tm send-keys -t M g Down Enter
wait_pane "▶ 1501  Pepperoni" || fail "the order made from the menu is not marked newest: $(pane)"
pass "live /menu/pizza: Enter orders, and the order pane beside it marks the newest"
tm send-keys -t M q
S=prompt
tm send-keys -t prompt '\live /settings' Enter
wait_pane "^  my-int/  My Int" || fail "\\live /settings did not start again"
tm send-keys -t prompt C-c
wait_pane "^$P /> \\\\live /settings$" || fail "Ctrl-C did not leave \\live for the prompt: $(pane)"
tm send-keys -t prompt 'PING after' Enter
wait_pane "^\\(after\\)$" || fail "the prompt did not work after Ctrl-C in \\live"
pass "Ctrl-C leaves \\live back to the prompt"
# Esc and the keys after it in one read (a fast typist, a paste): Esc leaves \live, and the
# keys arrive at the prompt, none lost (the view read them looking for an escape sequence).
tm send-keys -t prompt '\live /settings' Enter
wait_pane "^  my-int/  My Int" || fail "\\live /settings did not start again"
tm send-keys -t prompt -H $(printf '\033PING after-esc' | od -An -tx1)
wait_pane "^$P /> PING after-esc$" || fail "the keys that came with Esc did not reach the prompt whole: $(pane)"
tm send-keys -t prompt Enter
wait_pane "^\\(after-esc\\)$" || fail "the line typed with Esc did not run"
pass "Esc and keys in one read: Esc leaves \\live, and the keys arrive at the prompt"

# The view keeps a copy of the list: changes made elsewhere are patched in from their events,
# and the view sends the server nothing for them (its request count is the writer's alone).
requests() { "$BIN/tabula" -p "$PORT" -q -c STATS | awk -F': ' '/^requests:/ { print $2 }'; }
gauge="$("$BIN/tabula" -p "$PORT" -q -c 'ADD /items Gauge 2' | grep -oE '^(- )?[0-9]+' | grep -oE '[0-9]+')"
reprice() { for v in "$@"; do echo "SET /items/$gauge value=$v"; done >"$work/reprice.tab"; "$BIN/tabula" -p "$PORT" -q -f "$work/reprice.tab" >/dev/null; }
a0="$(requests)"; reprice 2 3 4 5 6 7 8 9 10 11; a1="$(requests)"
S=R
tm new-session -d -s R -x 100 -y 40 "env TERM=xterm-256color $BIN/tabula -p $PORT live /items; sleep 30"
wait_pane "^ +$gauge  Gauge +\\\$11 " || fail "live /items did not start: $(pane)"
b0="$(requests)"; reprice 12 13 14 15 16 17 18 19 20 21; b1="$(requests)"
wait_pane "^ +$gauge  Gauge +\\\$21 " || fail "the view did not follow ten changes: $(pane)"
b2="$(requests)"
(( b1 - b0 == a1 - a0 && b2 - b1 == 1 )) || fail "the view sent requests for changes: $((b1 - b0)) and $((b2 - b1)) with it, $((a1 - a0)) and 1 without"
pass "live /items patches rows from events: ten changes elsewhere, no request from the view"
tm kill-session -t R

# J twice moves the item two places down its section.
for n in Cup Bowl Plate; do T -c "ADD /items $n 3"; done
S=J
tm new-session -d -s J -x 100 -y 40 "env TERM=xterm-256color $BIN/tabula -p $PORT live /items/cheap-items; sleep 30"
wait_pane "^ +[0-9]+  Plate +\\\$3" || fail "live /items/cheap-items did not start: $(pane)"
first="$("$BIN/tabula" -p "$PORT" -q -c 'LS /items/cheap-items' | sed -n 2p | grep -oE '^(- )?[0-9]+' | grep -oE '[0-9]+')"
tm send-keys -t J g Down J
wait_pane "OK .*rev=" || fail "J did not move: $(pane)"
tm send-keys -t J J
wait_pane "^> (★)? +$first  " || fail "the cursor did not stay on item $first: $(pane)"
for _ in $(seq 1 100); do
    [[ "$("$BIN/tabula" -p "$PORT" -q -c 'LS /items/cheap-items' | sed -n 4p | grep -oE '^(- )?[0-9]+' | grep -oE '[0-9]+')" == "$first" ]] && break
    sleep 0.05
done
[[ "$("$BIN/tabula" -p "$PORT" -q -c 'LS /items/cheap-items' | sed -n 4p | grep -oE '^(- )?[0-9]+' | grep -oE '[0-9]+')" == "$first" ]] || fail "J twice did not move item $first to #3: $("$BIN/tabula" -p "$PORT" -q -c 'LS /items/cheap-items')"
pass "live /items: J twice moves the item twice, the cursor on it"
tm kill-session -t J

# Enter on a catalog leaf opens it as its kind: tabs (Tab switches), an image's caption.
S=L
tm new-session -d -s L -x 100 -y 20 "env TERM=xterm-256color $BIN/tabula -p $PORT live /catalog/item-1; sleep 30"
wait_pane "item-1.2  Item 1.2  \\[image\\]" || fail "live /catalog/item-1 did not start: $(pane)"
tm send-keys -t L g Enter
wait_pane "\\[ View One \\]  View Two" || fail "Enter did not open the tabs leaf: $(pane)"
tm send-keys -t L Tab
wait_pane "View One  \\[ View Two \\]" || fail "Tab did not switch to the second tab: $(pane)"
tm send-keys -t L Left
wait_pane "item-1.1  Item 1.1  \\[tabs\\]" || fail "← did not go back to the list: $(pane)"
tm send-keys -t L Down Enter
wait_pane "▣ Image.jpg" || fail "Enter did not open the image leaf with its caption: $(pane)"
pass "live /catalog: Enter opens a leaf as its kind (Tab switches tabs, an image shows its caption), ← goes back"
tm kill-session -t L
