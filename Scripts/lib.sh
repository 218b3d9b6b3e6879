# Shared helpers for the end-to-end scripts. Source it; do not run it.

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BIN="${TABULA_BIN:-$ROOT/.build/debug}"

# Installs Debian packages for any missing command or header: need CHECK PACKAGE...
need() {
    local check="$1"; shift
    if [[ "$check" == /* ]]; then [[ -e "$check" ]] && return 0; else command -v "$check" >/dev/null 2>&1 && return 0; fi
    echo "installing $* (for $check)" >&2
    local sudo=""
    [[ "$(id -u)" != 0 ]] && sudo="sudo"
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y "$@" >/dev/null 2>&1 \
        || { DEBIAN_FRONTEND=noninteractive $sudo apt-get update >/dev/null 2>&1 && DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y "$@" >/dev/null; }
}

# Installs PyPI packages unless Python can already import the modules:
# need_pip "MODULE[, MODULE…]" PACKAGE...
need_pip() {
    local modules="$1"; shift
    python3 -c "import $modules" 2>/dev/null && return 0
    echo "installing $* (pip)" >&2
    python3 -m pip install -q "$@" >/dev/null 2>&1 || python3 -m pip install -q --break-system-packages "$@" >/dev/null
}

# Starts tabulad on a free port with the given extra flags; sets SERVER_PID and PORT.
start_server() {
    local out
    out="$(mktemp)"
    "$BIN/tabulad" --port 0 --log-level "${SERVER_LOG_LEVEL:-warn}" "$@" >"$out" 2>>"${SERVER_LOG:-/dev/null}" &
    SERVER_PID=$!
    for _ in $(seq 1 500); do
        PORT="$(head -n1 "$out" 2>/dev/null || true)"
        [[ -n "$PORT" ]] && break
        kill -0 "$SERVER_PID" 2>/dev/null || { echo "tabulad failed to start" >&2; return 1; }
        sleep 0.01
    done
    rm -f "$out"
    [[ -n "$PORT" ]] || { echo "tabulad did not report its port" >&2; return 1; }
}

stop_server() {
    [[ -n "${SERVER_PID:-}" ]] || return 0
    kill -TERM "$SERVER_PID" 2>/dev/null || true
    wait "$SERVER_PID" 2>/dev/null || true
    SERVER_PID=""
}

fail() { echo "FAIL: $*" >&2; exit 1; }
pass() { echo "ok - $*"; }

# Waits until FILE contains PATTERN (grep -E), up to SECONDS.
wait_for() {
    local file="$1" pattern="$2" seconds="${3:-5}"
    local deadline=$(( $(date +%s%N) + seconds * 1000000000 ))
    while (( $(date +%s%N) < deadline )); do
        grep -qE -- "$pattern" "$file" 2>/dev/null && return 0
        sleep 0.02
    done
    return 1
}

# tmux helpers for the interactive tests: set $sock (the tmux server) and $S (the session).
tm() { tmux -L "$sock" "$@"; }
pane() { tm capture-pane -t "$S" -p -J | sed -e 's/[[:space:]]*$//' -e '/^$/d'; }  # trailing blanks dropped
wait_pane() {  # wait_pane REGEX [SECONDS]
    local deadline=$(( $(date +%s%N) + ${2:-5} * 1000000000 ))
    while (( $(date +%s%N) < deadline )); do
        pane | grep -qE -- "$1" && return 0
        sleep 0.05
    done
    pane >&2
    return 1
}
