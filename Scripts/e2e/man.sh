#!/usr/bin/env bash
# The committed man pages are what the executables write from their declarations (the same
# as --help): regenerate them with `tabula --man > man/tabula.1` (and tabulad, tabulad passwd).
set -euo pipefail
source "$(dirname "$0")/../lib.sh"
diff <("$BIN/tabula" --man) "$ROOT/man/tabula.1" || fail "man/tabula.1 is stale: tabula --man > man/tabula.1"
diff <("$BIN/tabulad" --man) "$ROOT/man/tabulad.1" || fail "man/tabulad.1 is stale: tabulad --man > man/tabulad.1"
diff <("$BIN/tabulad" passwd --man) "$ROOT/man/tabulad-passwd.1" || fail "man/tabulad-passwd.1 is stale"
if command -v groff >/dev/null; then
    for f in "$ROOT"/man/*.1; do  # as man reads them (UTF-8 through preconv), with every warning
        warnings="$(groff -k -man -Tutf8 -ww "$f" 2>&1 >/dev/null || true)"
        [[ -z "$warnings" ]] || fail "groff warns on $f: $warnings"
    done
fi
pass "man pages tabula.1, tabulad.1, tabulad-passwd.1 match --man, written from the --help declarations"
