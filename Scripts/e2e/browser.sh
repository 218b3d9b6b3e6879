#!/usr/bin/env bash
# The live web view in headless Chromium (Scripts/browser-test.py): a change over TCP shows
# on the items page; its buttons are disabled while its connection is cut, and the changes made
# meanwhile all show once it is back; under chaos its copy ends equal to LS; two people act;
# HTTPS; the server's pages; a phone's width (360 and 375 px: no header over its neighbour).
set -euo pipefail
source "$(dirname "$0")/../lib.sh"
python3 "$ROOT/Scripts/browser-test.py" "$@"
