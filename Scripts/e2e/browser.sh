#!/usr/bin/env bash
# The live web view in headless Chromium: a change over TCP shows on the items page, and
# the changes made while the page's connection was cut all show once it is back.
set -euo pipefail
source "$(dirname "$0")/../lib.sh"
python3 "$ROOT/Scripts/browser-test.py" "$@"
