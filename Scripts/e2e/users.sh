#!/usr/bin/env bash
# Access control against the real tabulad: protected mode, tabulad passwd, AUTH over nc, a
# CI job authenticating through tabula's stdin, SIGHUP reloading the users file, and the live
# view acting only as a user's role and grants allow.
set -euo pipefail
source "$(dirname "$0")/../lib.sh"
need tmux tmux
work="$(mktemp -d)"
sock="tabula-users-$$"
trap 'tmux -L "$sock" kill-server 2>/dev/null || true; stop_server; rm -rf "$work"' EXIT
D="$BIN/tabulad"

# Protected mode: no users on a non-loopback address is refused, with what to do.
got=0
"$D" --memory --bind 0.0.0.0 --port 0 >"$work/out" 2>"$work/err" || got=$?
[[ $got -eq 1 ]] || fail "protected mode: exit $got, expected 1"
grep -q "refusing to listen on 0.0.0.0 without --users" "$work/err" || fail "protected mode message"
pass "a non-loopback bind without --users is refused (exit 1)"

# tabulad passwd: from stdin, and --generate printing the secret once on stderr.
echo "hunter2" | "$D" passwd ci write --allow /items --allow /orders --iterations 1000 --force >"$work/users"
"$D" passwd boss admin --generate --iterations 1000 >>"$work/users" 2>"$work/secret"
secret="$(sed -n 's/^secret for boss (shown once): //p' "$work/secret")"
[[ ${#secret} -eq 64 ]] || fail "generated secret: '$secret'"
! grep -q "hunter2\|$secret" "$work/users" || fail "a secret reached the users file"
grep -q "^ci write pbkdf2-sha256\\\$1000\\\$" "$work/users" || fail "passwd line: $(cat "$work/users")"
pass "tabulad passwd writes hashes, never secrets"

SERVER_LOG="$work/log" SERVER_LOG_LEVEL=info start_server --memory --users "$work/users"
printf 'LS\nAUTH ci hunter2\nRM /menu/pizza\nQUIT\n' | nc -q 5 127.0.0.1 "$PORT" >"$work/nc"
grep -qx "ERR NOAUTH authentication required; AUTH name secret" "$work/nc" || { cat "$work/nc"; fail "NOAUTH"; }
grep -qx "OK ci write" "$work/nc" || fail "AUTH"
grep -qx "ERR NOPERM ci (write) may not change /menu/pizza" "$work/nc" || fail "NOPERM"
pass "nc: NOAUTH, AUTH, NOPERM"

# A CI job: the secret comes from the environment into tabula's stdin, never its arguments.
export TABULA_SECRET="$secret"
{ printf 'AUTH boss %s\n' "$TABULA_SECRET"; printf 'BANDS Low 40 High\n'; } | "$BIN/tabula" -p "$PORT" >"$work/ci" 2>&1 \
    || { cat "$work/ci"; fail "CI job"; }
grep -q "OK 2 bands" "$work/ci" || { cat "$work/ci"; fail "CI job output"; }
pass "a CI job authenticates through stdin"

# SIGHUP: a bad file is refused and the old users kept; a good one drops removed users.
echo "broken line" >"$work/users.bad"
cp "$work/users" "$work/users.good"
cp "$work/users.bad" "$work/users"
kill -HUP "$SERVER_PID"
wait_for "$work/log" "the users loaded before are kept" 5 || fail "bad reload not reported"
printf 'AUTH ci hunter2\n' | nc -q 2 127.0.0.1 "$PORT" | grep -qx "OK ci write" || fail "old users kept"
: >"$work/users"  # a file cut short while it is rewritten
kill -HUP "$SERVER_PID"
wait_for "$work/log" "the users file holds no users .*the users loaded before are kept" 5 || { cat "$work/log"; fail "an empty users file was not refused"; }
printf 'AUTH ci hunter2\n' | nc -q 2 127.0.0.1 "$PORT" | grep -qx "OK ci write" || fail "an empty users file dropped the users"
pass "SIGHUP refuses an empty users file (cut short mid-rewrite) and keeps the users"
grep -v "^ci " "$work/users.good" >"$work/users"
kill -HUP "$SERVER_PID"
wait_for "$work/log" "users reloaded: 1 users" 5 || fail "good reload not logged"
printf 'AUTH ci hunter2\n' | nc -q 2 127.0.0.1 "$PORT" | grep -qx "ERR WRONGPASS wrong name or secret" || fail "removed user still logs in"
pass "SIGHUP keeps the old users on a bad file and removes users on a good one"

# tabula --user: the secret from TABULA_SECRET; a refusal exits 2 with the server's message,
# and the secret shows nowhere.
TABULA_SECRET="$secret" "$BIN/tabula" -p "$PORT" --user boss -c WHOAMI >"$work/who" 2>&1 || { cat "$work/who"; fail "tabula --user"; }
grep -qx "OK boss admin all paths" "$work/who" || { cat "$work/who"; fail "WHOAMI through tabula --user"; }
got=0
TABULA_SECRET="not-it" "$BIN/tabula" -p "$PORT" --user boss -c WHOAMI >"$work/out" 2>"$work/err" || got=$?
[[ $got -eq 2 ]] || fail "a refused login: exit $got, expected 2"
grep -q "the server refused user boss: ERR WRONGPASS wrong name or secret" "$work/err" || { cat "$work/err"; fail "refusal message"; }
! grep -q "not-it" "$work/err" "$work/out" || fail "the secret was printed"
pass "tabula --user logs in from TABULA_SECRET; a refusal exits 2 and shows no secret"

# The live view with users: a read-only user's action is refused and said; a user whose
# grants leave the items out cannot open them (said before the screen is taken, exit 1);
# one allowed the menu and the orders orders from the menu.
echo "pw-viewer" | "$D" passwd viewer read --iterations 1000 --force >>"$work/users"
echo "pw-kitchen" | "$D" passwd kitchen write --allow /menu --allow /orders --iterations 1000 --force >>"$work/users"
kill -HUP "$SERVER_PID"
wait_for "$work/log" "users reloaded: 3 users" 5 || { cat "$work/log"; fail "the live view's users were not loaded"; }
S=viewer
tm new-session -d -s viewer -x 100 -y 20 "env TERM=xterm-256color TABULA_SECRET=pw-viewer $BIN/tabula -p $PORT --user viewer live /items; sleep 30"
wait_pane "Rusty Spork" || fail "a read-only user's live view did not show the items"
tm send-keys -t viewer g Down f
wait_pane "ERR NOPERM viewer \\(read\\) may not use FAV" || fail "a read-only user's f was not refused: $(pane)"
pass "live view: a read-only user sees the items and its action is refused (NOPERM, said in the status line)"
S=kitchen
tm new-session -d -s kitchen -x 120 -y 20 "env TERM=xterm-256color TABULA_SECRET=pw-kitchen $BIN/tabula -p $PORT --user kitchen live /items; echo EXIT=\$?; sleep 30"
wait_pane "^EXIT=1$" || fail "a user without /items opened its live view: $(pane)"
pane | grep -q "NOPERM kitchen (write) may not" || fail "the refusal was not said: $(pane)"
tm kill-session -t kitchen
tm new-session -d -s kitchen -x 120 -y 20 "env TERM=xterm-256color TABULA_SECRET=pw-kitchen $BIN/tabula -p $PORT --user kitchen live /menu/pizza; sleep 30"
wait_pane "Margherita" || fail "the kitchen's menu did not show"
tm send-keys -t kitchen Enter
wait_pane "OK order [0-9]+: Margherita" || fail "the kitchen could not order: $(pane)"
pass "live view: a user allowed /menu and /orders cannot open /items (exit 1, said) and orders from the menu"
