#!/usr/bin/env bash
# Two real nc sessions against the real tabulad: one watches everything, the other changes
# each of the four stores; the watcher's transcript must show every change, in order.
set -euo pipefail
source "$(dirname "$0")/../lib.sh"
need nc netcat-openbsd

work="$(mktemp -d)"
trap 'stop_server; exec 3>&- 2>/dev/null || true; rm -rf "$work"' EXIT
start_server --memory

mkfifo "$work/in"
nc 127.0.0.1 "$PORT" <"$work/in" >"$work/watcher.txt" &
exec 3>"$work/in"
echo "WATCH /" >&3
wait_for "$work/watcher.txt" "^OK watching / at rev 0" || fail "watcher did not get its OK"

printf '%s\n' \
    'SELECT /settings/my-int 64' \
    'ADD /catalog/item-1 "From nc" image nc.png' \
    'ADD /items "Red Chair" 42' \
    'FAV /items/5' \
    'ORDER /menu/pizza/margherita' \
    'RM /orders/1' \
    | nc -N 127.0.0.1 "$PORT" >"$work/writer.txt"

wait_for "$work/watcher.txt" "^\* EVENT 6 rm /orders/1" || { cat "$work/watcher.txt"; fail "watcher missed events"; }
echo "QUIT" >&3
exec 3>&-

expected=(
    '^\* EVENT 1 select /settings/my-int My Int: 64$'
    '^\* EVENT 2 add /catalog/item-1/from-nc from-nc  From nc  \[image: nc.png\]$'
    '^\* EVENT 3 add /items/5 5  Red Chair  \$42  serial=[0-9A-F]{8}$'
    '^\* EVENT 4 fav /items/5 5  Red Chair  \$42  serial=[0-9A-F]{8}  ★$'
    '^\* EVENT 5 order /orders/1 1  Margherita  /menu/pizza/margherita  '
    '^\* EVENT 6 rm /orders/1 Margherita$'
)
mapfile -t events < <(grep '^\* EVENT' "$work/watcher.txt")
[[ ${#events[@]} -eq ${#expected[@]} ]] || { cat "$work/watcher.txt"; fail "expected ${#expected[@]} events, got ${#events[@]}"; }
for i in "${!expected[@]}"; do
    [[ "${events[$i]}" =~ ${expected[$i]} ]] || fail "event $((i+1)): '${events[$i]}' does not match ${expected[$i]}"
done
grep -c '^OK' "$work/writer.txt" | grep -qx 6 || { cat "$work/writer.txt"; fail "writer did not get 6 OKs"; }
pass "nc watcher saw all six changes across the four stores, in revision order"
