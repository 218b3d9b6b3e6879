#!/usr/bin/env bash
# tabula in batch mode against the real tabulad: every exit code from a real situation,
# stop vs continue, \wait on a push caused by another client, and import of a seed plist.
set -euo pipefail
source "$(dirname "$0")/../lib.sh"
work="$(mktemp -d)"
trap 'stop_server; rm -rf "$work"' EXIT
T="$BIN/tabula"

expect_exit() {  # expect_exit CODE DESCRIPTION -- command…
    local want="$1" what="$2"; shift 3
    local got=0
    "$@" >"$work/out" 2>"$work/err" || got=$?
    [[ $got -eq $want ]] || { cat "$work/out" "$work/err"; fail "$what: exit $got, expected $want"; }
    pass "$what → exit $want"
}

expect_exit 1 "a bad flag" -- "$T" --bogus
grep -q "unknown option '--bogus'" "$work/err" || fail "bad flag message"
expect_exit 1 "a script that does not exist" -- "$T" -f /nope.tab
grep -q "cannot read /nope.tab: no such file or directory" "$work/err" || fail "missing script message: $(cat "$work/err")"
expect_exit 1 "a request given as arguments" -- "$T" LS /items
grep -qF "'LS' is a request, not a tabula command; send it with -c: tabula -c 'LS /items'" "$work/err" || fail "no -c hint: $(cat "$work/err")"

# A port nothing listens on.
expect_exit 2 "server down" -- "$T" -p 1 -c PING
grep -q "cannot connect to 127.0.0.1:1" "$work/err" || fail "connection failure message"

start_server --memory
export TABULA_PORT="$PORT"

expect_exit 0 "a passing script" -- "$T" -c 'SELECT /settings/my-int 32' -c '\expect My Int: 32' -c 'LS /settings'
grep -qx -- '- my-int/  My Int: 32' "$work/out" || fail "reply lines on stdout"

cat >"$work/fail.tab" <<'TAB'
# a comment
PING
\expect PONG
SHOW /items/999
\echo not reached
TAB
expect_exit 3 "an ERR stops the script (default --on-error stop)" -- "$T" -f "$work/fail.tab"
grep -q "fail.tab:4: ERR NOTFOUND" "$work/err" || { cat "$work/err"; fail "error names file and line"; }
! grep -q "not reached" "$work/out" || fail "stop did not stop"

expect_exit 3 "--on-error continue runs every line but still fails" -- "$T" --on-error continue -f "$work/fail.tab"
grep -q "not reached" "$work/out" || fail "continue did not continue"

expect_exit 3 "a failing \\expect" -- "$T" -c 'LS /settings' -c '\expect My Int: 4096'
grep -q "expect /My Int: 4096/ did not match" "$work/err" || fail "expect message"

expect_exit 3 "\\wait timing out" -- "$T" -c 'WATCH /orders' -c '\wait order 0.3'
grep -q "no push matching /order/ within 0.3 seconds" "$work/err" || fail "wait message"

# \wait sees a push caused by another client.
( rc=0; "$T" -c 'WATCH /orders' -c '\wait "order /orders/[0-9]+ .*Tiramisu" 10' -c '\echo saw it' >"$work/waiter.out" 2>&1 || rc=$?; echo $rc >"$work/waiter.rc" ) &
wait_for "$work/waiter.out" "^OK watching /orders" 10 || fail "waiter did not start watching"
"$T" -c 'ORDER tiramisu' >/dev/null
wait_for "$work/waiter.rc" "." 10 || fail "waiter did not finish"
[[ "$(cat "$work/waiter.rc")" == 0 ]] || { cat "$work/waiter.out"; fail "\\wait did not see the other client's order"; }
grep -q "saw it" "$work/waiter.out" || fail "waiter output"
pass "\\wait sees a push caused by another client"

# Includes, and stdin when it is not a terminal.
printf 'PING\n' >"$work/inc.tab"
printf '\\i inc.tab\n\\expect PONG\n' >"$work/main.tab"
expect_exit 0 "\\i includes a file relative to the script" -- "$T" -f "$work/main.tab"
echo 'PWD' | "$T" >"$work/out" && grep -qx "OK /" "$work/out" || fail "stdin batch"
pass "stdin that is not a terminal runs as a script"

# --json passes the server's JSON through.
"$T" --json -c 'SHOW /settings/my-int' >"$work/out"
python3 -c 'import json,sys; [json.loads(l) for l in open(sys.argv[1])]' "$work/out" || fail "--json output is not JSON lines"
pass "--json prints one JSON object per line"

# --json: an error is a JSON object on stdout too (and on stderr with where it was).
"$T" --json -c 'SHOW /nope' >"$work/out" 2>"$work/err" && fail "SHOW /nope succeeded"
python3 -c 'import json,sys; d=[json.loads(l) for l in open(sys.argv[1])]; assert d and d[-1]["code"]=="NOTFOUND", d' "$work/out" || fail "--json error not on stdout as JSON: $(cat "$work/out")"
grep -q "NOTFOUND" "$work/err" || fail "--json error not on stderr"
pass "--json errors are JSON objects on stdout too"

# --csv: a header and records that Python's csv module reads; --quiet: data rows only.
"$T" --csv -c 'ADD /items "Chair, red" 42' -c 'LS /items' >"$work/out" || fail "--csv"
python3 - "$work/out" <<'PY' || fail "--csv output: $(cat "$work/out")"
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1], newline="")))
assert any(r.get("name") == "Chair, red" and r.get("value") == "42" for r in rows), rows
PY
"$T" -q -c 'LS /settings' >"$work/out"
[[ "$(head -n 1 "$work/out")" == "my-string/  My String: Yellow" ]] || fail "--quiet: $(cat "$work/out")"
pass "--csv parses with Python's csv module; --quiet prints only data rows"

# A hostile title (window title, clipboard via OSC 52, clear screen) is refused as it is
# written, on every port; one stored before that rule (written into the file here) reaches
# no output raw: not text, --json, --csv, --tsv nor --quiet.
set +e; "$T" -c 'ADD /items "x\u001b]0;TITLE\u0007\u001b]52;c;Q0xJUA==\u0007\u001b[2J" 3' >"$work/out" 2>&1; code=$?; set -e
[[ $code -eq 3 ]] && grep -q "ERR ENCODING" "$work/out" || fail "a control character in a title was stored: exit $code $(cat "$work/out")"
need sqlite3 sqlite3
"$BIN/tabulad" --port 0 --data "$work/old.sqlite" --log-level warn >"$work/oldport" 2>/dev/null &
OLD_PID=$!
for _ in $(seq 1 500); do [[ -s "$work/oldport" ]] && break; sleep 0.01; done
OLD_PORT="$(head -n1 "$work/oldport")"
"$T" -p "$OLD_PORT" -c 'ADD /items HOSTILE 3' >/dev/null || fail "adding the item to make hostile"
kill -TERM "$OLD_PID"; wait "$OLD_PID" || true
sqlite3 "$work/old.sqlite" "UPDATE items SET name = 'x' || char(27) || ']0;TITLE' || char(7) || char(27) || ']52;c;Q0xJUA==' || char(7) || char(27) || '[2J' WHERE name = 'HOSTILE'"
"$BIN/tabulad" --port "$OLD_PORT" --data "$work/old.sqlite" --log-level warn >/dev/null 2>&1 &
OLD_PID=$!
trap 'kill "$OLD_PID" 2>/dev/null || true; stop_server; rm -rf "$work"' EXIT
for _ in $(seq 1 200); do "$T" -p "$OLD_PORT" -c PING >/dev/null 2>&1 && break; sleep 0.05; done
for mode in "" --json --csv --tsv -q; do
    "$T" -p "$OLD_PORT" $mode -c 'LS /items/cheap-items' -c 'SHOW /items' >"$work/out" || fail "LS with '$mode'"
    python3 -c 'import sys; d=open(sys.argv[1],"rb").read(); bad=[b for b in d if (b<32 and b not in (9,10)) or b==127]; sys.exit(1 if bad else 0)' "$work/out" \
        || fail "control characters in '$mode' output: $(od -c "$work/out" | head -5)"
    grep -q "TITLE" "$work/out" || fail "the hostile item is missing from '$mode' output"
done
kill "$OLD_PID"; wait "$OLD_PID" || true
pass "a title with control characters is refused; one stored before reaches no output raw: text, --json, --csv, --tsv, --quiet"

# An expected failure passes; --timeout ends a \wait that never comes (exit 3); -f - reads stdin.
printf 'SHOW /nope\n\\expect-error NOTFOUND   # expected\nPING\n' | "$T" -f - >/dev/null || fail "an expected failure did not pass"
set +e; "$T" --timeout 1 -c '\wait never-happens 30' >/dev/null 2>"$work/err"; code=$?; set -e
[[ $code -eq 3 ]] && grep -q "within the --timeout of 1 seconds" "$work/err" || fail "--timeout: exit $code: $(cat "$work/err")"
pass "\\expect-error passes an expected failure; --timeout ends a \\wait (exit 3); -f - reads stdin"

# A request that waits by design is given what it asks: SYNC … TIMEOUT 20000 waits its 20 s.
start=$(date +%s)
set +e; "$T" -c 'SYNC 99999 TIMEOUT 20000' >"$work/out" 2>&1; code=$?; set -e
took=$(( $(date +%s) - start ))
[[ $code -eq 3 && $took -ge 19 ]] && grep -q "ERR TIMEOUT" "$work/out" || fail "SYNC TIMEOUT 20000: exit $code after $took s: $(cat "$work/out")"
pass "SYNC … TIMEOUT 20000 waits its 20 s and ends in the server's ERR TIMEOUT (exit 3)"

# README's batch example, as written (its trailing comments included), with another client ordering.
sed -n '/^# seed.tab$/,/^```$/p' "$ROOT/README.md" | sed '$d' >"$work/readme.tab"
( sleep 1; "$T" -c 'ORDER pesto' >/dev/null ) &
orderer=$!
"$T" -f "$work/readme.tab" >"$work/out" 2>&1 || { cat "$work/out"; fail "README's batch example failed"; }
wait "$orderer"
pass "README's batch example runs as written"

# import of a property list in seed 001's shape: README's docs/examples/catalog.plist.
cp "$ROOT/docs/examples/catalog.plist" "$work/seed.plist"  # README's example file
"$T" import "$work/seed.plist" --into /catalog >"$work/out" || fail "import"
grep -qx "imported 5 nodes from $work/seed.plist into /catalog" "$work/out" || { cat "$work/out"; fail "import count"; }
"$T" import "$work/seed.plist" --into /catalog >"$work/out" || fail "second import"
grep -q "^imported 0 nodes from $work/seed.plist into /catalog; 5 already there, kept as they are: /catalog/fruit, " "$work/out" \
    || { cat "$work/out"; fail "a second import added nodes again"; }
"$T" -c 'LS /catalog/fruit/apple' -c '\expect gala  Gala  \[image: Image.jpg\]' -c 'SHOW /catalog/fruit/pear' -c '\expect tabs: View One, View Two' -c 'SHOW /catalog/about' -c '\expect view: text' >/dev/null \
    || fail "imported tree is not as in the plist"
pass "import builds the plist's tree through ordinary ADDs; importing it again adds nothing and says so"

# The server killed in the middle of a script: exit 2.
{ echo 'WATCH /items'; echo '\wait never-happens 30'; } >"$work/long.tab"
( rc=0; "$T" -f "$work/long.tab" >"$work/killed.out" 2>"$work/killed.err" || rc=$?; echo $rc >"$work/killed.rc" ) &
wait_for "$work/killed.out" "^OK watching" 10 || fail "long script did not start"
kill -9 "$SERVER_PID"; wait "$SERVER_PID" 2>/dev/null || true; SERVER_PID=""
wait_for "$work/killed.rc" "." 10 || { cat "$work/killed.out" "$work/killed.err"; ps aux | grep -c "[t]abulad"; fail "client did not notice the server died"; }
[[ "$(cat "$work/killed.rc")" == 2 ]] || { cat "$work/killed.err"; fail "server killed mid-script: exit $(cat "$work/killed.rc"), expected 2"; }
pass "server killed mid-script → exit 2"
