#!/usr/bin/env bash
# Where tabulad keeps its state is one choice: --memory with --data is refused with a
# reason, and a store named on the command line replaces a config file's.
set -euo pipefail
source "$(dirname "$0")/../lib.sh"
work="$(mktemp -d)"
trap 'stop_server; rm -rf "$work"' EXIT

set +e; "$BIN/tabulad" --port 0 --memory --data "$work/x.sqlite" >/dev/null 2>"$work/err"; code=$?; set -e
[[ $code -eq 1 ]] && grep -q -- "--memory keeps nothing, so --data would be ignored" "$work/err" || fail "--memory --data: exit $code: $(cat "$work/err")"
[[ ! -e "$work/x.sqlite" ]] || fail "--memory --data created the file"
pass "--memory with --data is refused and says why (exit 1)"

printf 'memory\n' >"$work/tabulad.conf"
start_server --config "$work/tabulad.conf" --data "$work/kept.sqlite"
printf 'ORDER pesto\n' | nc -q 2 127.0.0.1 "$PORT" | grep -q "^OK order 1" || fail "ORDER"
stop_server
[[ -s "$work/kept.sqlite" ]] || fail "the command line's --data did not replace the file's memory"
start_server --data "$work/kept.sqlite"
printf 'LS /orders\n' | nc -q 2 127.0.0.1 "$PORT" | grep -q "Pesto" || fail "the order was not kept"
pass "the command line's --data replaces a config file's memory, and what it kept is there after a restart"

stop_server
: >"$work/empty.conf"
SERVER_LOG="$work/empty.err" start_server --config "$work/empty.conf" --memory
printf 'PING\n' | nc -q 2 127.0.0.1 "$PORT" | grep -q "^OK PONG" || fail "PING with an empty config file"
grep -q -- "--config $work/empty.conf sets no option" "$work/empty.err" || fail "an empty config file was taken without a word: $(cat "$work/empty.err")"
pass "an empty config file is said to set nothing, and the server starts on the defaults"
