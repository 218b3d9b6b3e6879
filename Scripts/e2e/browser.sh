#!/usr/bin/env bash
# The live web view in headless Chromium (Scripts/browser-test.py): a change over TCP shows
# on the items page; the changes made while the page's connection was cut all show once it is
# back; under chaos its copy ends equal to LS; two people act; HTTPS; the server's pages; a
# phone's width.
set -euo pipefail
source "$(dirname "$0")/../lib.sh"
python3 "$ROOT/Scripts/browser-test.py" "$@"
