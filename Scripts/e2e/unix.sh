#!/usr/bin/env bash
# --unix: tabulad serves a local socket (mode 0660) next to TCP; nc -U and tabula --unix use it.
set -euo pipefail
source "$(dirname "$0")/../lib.sh"
work="$(mktemp -d)"
trap 'stop_server; rm -rf "$work"' EXIT
start_server --memory --unix "$work/tabula.sock"
[[ "$(stat -c %a "$work/tabula.sock")" == 660 ]] || fail "socket mode $(stat -c %a "$work/tabula.sock")"
printf 'ORDER pesto\n' | nc -U -q 2 "$work/tabula.sock" | grep -q "^OK order 1: Pesto" || fail "nc -U"
"$BIN/tabula" --unix "$work/tabula.sock" -c 'LS /orders' -c '\expect Pesto' >/dev/null || fail "tabula --unix"
stop_server
[[ ! -e "$work/tabula.sock" ]] || fail "the socket was left behind"
pass "--unix: mode 0660, nc -U and tabula --unix, removed at exit"
