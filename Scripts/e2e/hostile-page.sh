#!/usr/bin/env bash
# Pages of another site in headless Chromium: a crashing POST body, a link with markup and
# dot segments, a rebound DNS name, and a POST to the line port all leave tabulad up and
# its state unchanged.
set -euo pipefail
source "$(dirname "$0")/../lib.sh"
python3 "$ROOT/Scripts/hostile-page-test.py" "$@"
