#!/usr/bin/env bash
# The project's history checker, short form: concurrent IF REV counters over the line
# protocol, HTTP and RESP, on memory and SQLite; linearizable per key, no lost update, every
# acknowledged write watched; and the checker fails on doctored histories.
set -euo pipefail
source "$(dirname "$0")/../lib.sh"
python3 "$ROOT/Scripts/history-check.py" --store memory --seconds 5 --self-test
python3 "$ROOT/Scripts/history-check.py" --store sqlite --seconds 5
