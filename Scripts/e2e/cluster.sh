#!/usr/bin/env bash
# A 3-node cluster on a private PostgreSQL, 20 s of writers and watchers on every node, one
# node killed with kill -9 and restarted, PostgreSQL stopped -m immediate and restarted: see
# Scripts/cluster-test.py for what is checked.
set -euo pipefail
source "$(dirname "$0")/../lib.sh"
python3 "$ROOT/Scripts/cluster-test.py" --seconds 20
