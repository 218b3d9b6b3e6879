#!/usr/bin/env bash
# The terminal live view under chaos (Scripts/live-chaos-test.py): its connection cut every
# 50–500 ms through a proxy, random writes, two server restarts, a history of 20 changes; the
# rows on screen must end equal to LS /items.
set -euo pipefail
source "$(dirname "$0")/../lib.sh"
need tmux tmux
python3 "$ROOT/Scripts/live-chaos-test.py" "$@"
