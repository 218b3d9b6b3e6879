#!/usr/bin/env bash
# README's tour, run as written against a fresh tabulad: the nc transcript line for line,
# the interactive SELECT and the event it pushes to the nc session, and every command of
# "More to try" in order.
set -euo pipefail
source "$(dirname "$0")/../lib.sh"
need tmux tmux
need nc netcat-openbsd
work="$(mktemp -d)"
sock="tabula-tour-$$"
trap 'exec 3>&- 2>/dev/null; tmux -L "$sock" kill-server 2>/dev/null || true; kill "${NC_PID:-0}" 2>/dev/null || true; stop_server; rm -rf "$work"' EXIT
start_server --memory

python3 - "$ROOT/README.md" "$work" <<'PY'
import re, sys
text = open(sys.argv[1]).read().split("## A tour", 1)[1].split("\n## ", 1)[0]
blocks = re.findall(r"```\n(.*?)```", text, re.S)
lines = [l for l in blocks[0].splitlines() if not l.startswith("$ ") and not l.startswith("* HELLO")]
inputs = [l for l in lines if not l.startswith(("- ", "OK", "ERR"))]
open(sys.argv[2] + "/nc.in", "w").write("".join(l + "\n" for l in inputs))
open(sys.argv[2] + "/nc.expected", "w").write("".join(l + "\n" for l in lines if l not in inputs))  # nc shows no typing
open(sys.argv[2] + "/tabula.line", "w").write(blocks[1].splitlines()[0].split("/> ", 1)[1])
open(sys.argv[2] + "/tabula.expected", "w").write("\n".join(blocks[1].splitlines()[1:]) + "\n")
open(sys.argv[2] + "/event.expected", "w").write(blocks[2])
act = re.findall(r"```\n(.*?)```", text.split("### Act where you see it", 1)[1], re.S)[0]
open(sys.argv[2] + "/live.expected", "w").write("".join(l + "\n" for l in act.splitlines() if re.match(r"(  |> )\[", l)))
more = text.split("More to try:", 1)[1]
open(sys.argv[2] + "/more.tab", "w").write("".join(" ".join(c.split()) + "\n" for c in re.findall(r"`([^`]+)`", more) if re.match(r"[A-Z]+( |$)", c)))  # requests only; a line break in `…` is a space
PY

# The nc session: the transcript, then (kept open) the event.
mkfifo "$work/nc.fifo"
nc 127.0.0.1 "$PORT" <"$work/nc.fifo" >"$work/nc.out" &
NC_PID=$!
exec 3>"$work/nc.fifo"  # held open: the session stays up to receive the event
cat "$work/nc.in" >&3
wait_for "$work/nc.out" "^OK watching /settings" || fail "the nc session did not get its WATCH answered"
diff <(grep -v '^\* HELLO' "$work/nc.out") "$work/nc.expected" || fail "the nc transcript differs from README's"

S=tour
tm new-session -d -s "$S" -x 120 -y 20 "env NO_COLOR=1 TABULA_HISTFILE=$work/h $BIN/tabula -p $PORT; sleep 30"
wait_pane "/>$" || fail "no prompt"
tm send-keys -t "$S" "$(cat "$work/tabula.line")" Enter
wait_pane "^\(My Int: 32\)$" || fail "the interactive SELECT did not answer"
while IFS= read -r l; do pane | grep -qxF -- "$l" || fail "the client did not show README's line '$l'"; done <"$work/tabula.expected"
wait_for "$work/nc.out" "^\* EVENT 1 " || fail "the nc session got no event"
grep -qxF -- "$(cat "$work/event.expected")" "$work/nc.out" || fail "the event differs from README's: $(grep EVENT "$work/nc.out")"
pass "README's tour: the nc transcript, the interactive SELECT and its event, as written"

"$BIN/tabula" -p "$PORT" -f "$work/more.tab" >"$work/more.out" 2>&1 || { cat "$work/more.out"; fail "README's 'More to try' failed"; }
pass "README's 'More to try' runs in order: $(tr '\n' ';' <"$work/more.tab")"

# "Act where you see it": the live view of the setting, ↓ three times and Enter select 64; the
# options are drawn as README draws them, and the nc session gets the event.
S=act
tm new-session -d -s "$S" -x 90 -y 12 "env TERM=xterm-256color $BIN/tabula -p $PORT live /settings/my-int; sleep 30"
wait_pane "^> \[ \] #1  8$" || fail "tabula live /settings/my-int did not start"
tm send-keys -t "$S" Down Down Down Enter
wait_pane "^OK My Int: 64 rev=[0-9]+$" || fail "Enter on #4 did not select it"
while IFS= read -r l; do pane | grep -qxF -- "$l" || fail "the live view did not show README's line '$l': $(pane)"; done <"$work/live.expected"
wait_for "$work/nc.out" "^\* EVENT [0-9]+ select /settings/my-int My Int: 64$" || fail "the nc session did not get the live view's change"
pass "README's 'Act where you see it': the live view selects 64 with ↓↓↓ Enter, drawn as written, and the nc session sees it"
