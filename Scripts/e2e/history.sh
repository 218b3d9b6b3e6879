#!/usr/bin/env bash
# The project's history checker, short form: concurrent IF REV counters over the line
# protocol, HTTP and RESP, on memory and SQLite; linearizable per key, no lost update, every
# acknowledged write watched; and the checker fails on doctored histories. Then under faults:
# SQLite killed with SIGKILL and restarted, and a 3-node cluster on the private PostgreSQL
# with a node killed, PostgreSQL stopped, its backends terminated and commits delayed
# (monotonic reads, read-your-write after SYNC, writes in doubt allowed for).
set -euo pipefail
source "$(dirname "$0")/../lib.sh"
python3 "$ROOT/Scripts/history-check.py" --store memory --seconds 5 --self-test
python3 "$ROOT/Scripts/history-check.py" --store sqlite --seconds 5
python3 "$ROOT/Scripts/history_faults.py" --store sqlite-kill --seconds 8 --self-test
python3 "$ROOT/Scripts/history_faults.py" --store cluster --seconds 15
