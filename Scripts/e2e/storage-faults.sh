#!/usr/bin/env bash
# The real tabulad against bad data files: each refused with a clear message and exit 2,
# the file untouched; a full store fails the write with ERR STORAGE while reads go on.
set -euo pipefail
source "$(dirname "$0")/../lib.sh"
work="$(mktemp -d)"
trap 'stop_server; rm -rf "$work"' EXIT

refuse() {  # refuse DESCRIPTION EXPECTED-MESSAGE tabulad-args…
    local what="$1" msg="$2"; shift 2
    local rc=0
    "$BIN/tabulad" --port 0 "$@" >"$work/out" 2>"$work/err" || rc=$?
    [[ $rc -eq 2 ]] || { cat "$work/err"; fail "$what: exit $rc, expected 2"; }
    grep -qF -- "$msg" "$work/err" || { cat "$work/err"; fail "$what: message"; }
    pass "$what → exit 2: $(head -c 120 "$work/err")"
}

echo "my notes, not a database" >"$work/notes.txt"
refuse "a file that is not SQLite" "is not a Tabula database" --data "$work/notes.txt"
[[ "$(cat "$work/notes.txt")" == "my notes, not a database" ]] || fail "the file was touched"

sqlite3 "$work/other.db" "CREATE TABLE t(x); INSERT INTO t VALUES (1);"
refuse "another application's SQLite file" "is an SQLite database but not a Tabula one" --data "$work/other.db"

start_server --data "$work/db.sqlite"
refuse "a file another tabulad has open" "is in use by another tabulad" --data "$work/db.sqlite"
stop_server
sqlite3 "$work/db.sqlite" "PRAGMA user_version=7;"
refuse "a newer schema version" "has schema version 7, newer than this tabulad understands" --data "$work/db.sqlite"
refuse "a path in a missing directory" "its directory does not exist" --data "$work/nowhere/db.sqlite"
refuse "an unusable bind address" "cannot use --bind" --memory --bind not-an-address
rc=0; "$BIN/tabulad" --sync sometimes 2>"$work/err" || rc=$?
[[ $rc -eq 1 ]] && grep -q "takes full or normal" "$work/err" || fail "a bad flag value must exit 1"
pass "a bad flag value → exit 1: $(cat "$work/err")"
rc=0; "$BIN/tabulad" --cpu-yield maybe 2>"$work/err" || rc=$?
[[ $rc -eq 1 ]] && grep -q "takes auto or on or off" "$work/err" || fail "a bad --cpu-yield must exit 1"
pass "a bad --cpu-yield → exit 1: $(cat "$work/err")"

# A process that may run on one CPU only gets one I/O loop by default (two on one core wait
# for each other's time slices), and two otherwise.
loops_on() {  # loops_on CPU-LIST -> the I/O thread count tabulad's start-up line gives
    : >"$work/cpus.log"
    taskset -c "$1" "$BIN/tabulad" --memory --port 0 --log-level info >/dev/null 2>"$work/cpus.log" &
    local pid=$!
    for _ in $(seq 1 500); do grep -q "I/O thread" "$work/cpus.log" && break; sleep 0.01; done
    kill "$pid"; wait "$pid" 2>/dev/null || true
    grep -o "[0-9]* I/O thread" "$work/cpus.log" | grep -o "^[0-9]*"
}
[[ "$(loops_on 0)" == 1 ]] || fail "one CPU must mean one I/O loop: $(cat "$work/cpus.log")"
grep -q "busy poll 0 µs" "$work/cpus.log" || fail "one CPU must mean no busy poll: $(cat "$work/cpus.log")"
[[ "$(loops_on 0,1)" == 2 ]] || fail "two CPUs must mean two I/O loops: $(cat "$work/cpus.log")"
grep -q "busy poll 250 µs" "$work/cpus.log" || fail "two CPUs must mean a 250 µs busy poll: $(cat "$work/cpus.log")"
# The start-up line names jemalloc only once this thread's allocations were seen to go
# through it (Allocator.swift): the C library's malloc must not have been resolved first.
grep -q ", jemalloc [0-9]" "$work/cpus.log" || fail "tabulad's allocations must go through jemalloc: $(cat "$work/cpus.log")"
pass "the default I/O loops and busy poll follow the CPUs tabulad may use: 1 loop, no poll under taskset -c 0; 2 loops, 250 µs under -c 0,1; jemalloc serves its allocations"

# A cgroup CPU quota of half a CPU means one CPU, whatever the affinity (a container's --cpus).
cg=""
if [[ -d /sys/fs/cgroup/cpu ]] && mkdir "/sys/fs/cgroup/cpu/tabula-e2e-$$" 2>/dev/null; then
    cg="/sys/fs/cgroup/cpu/tabula-e2e-$$"
    echo 100000 >"$cg/cpu.cfs_period_us" && echo 50000 >"$cg/cpu.cfs_quota_us" || cg=""
elif grep -qw cpu /sys/fs/cgroup/cgroup.controllers 2>/dev/null && mkdir "/sys/fs/cgroup/tabula-e2e-$$" 2>/dev/null; then
    cg="/sys/fs/cgroup/tabula-e2e-$$"
    echo "50000 100000" >"$cg/cpu.max" || cg=""
fi
if [[ -n "$cg" ]]; then
    : >"$work/quota.log"
    sh -c 'echo $$ >"$1/cgroup.procs" && exec "$2" --memory --port 0 --log-level info' sh "$cg" "$BIN/tabulad" >/dev/null 2>"$work/quota.log" &
    qpid=$!
    for _ in $(seq 1 500); do grep -q "I/O thread" "$work/quota.log" && break; sleep 0.01; done
    kill "$qpid"; wait "$qpid" 2>/dev/null || true
    rmdir "$cg" 2>/dev/null || true
    grep -q "1 I/O thread for 1 CPU (affinity [0-9]*, a cgroup quota of 0.5 CPUs)" "$work/quota.log" || fail "a quota of half a CPU must mean one I/O loop: $(cat "$work/quota.log")"
    pass "a cgroup quota of 0.5 CPU means one I/O loop, and the start-up line says why: $(grep -o '1 I/O thread for[^)]*)' "$work/quota.log")"
else
    echo "skip - no cgroup could be made here, so the CPU quota was not tried (CPUBudgetTests read quota files)"
fi

# An idle server sleeps: after a burst of requests (which makes the loops poll), tabulad
# uses no CPU to speak of while nothing comes (at most one poll of 250 µs per thread).
start_server --memory
for _ in 1 2 3; do printf 'PING\nSHOW /items/1\nFAV /items/1\n' | nc -N 127.0.0.1 "$PORT" >/dev/null; done
ticks() { awk '{print $14 + $15}' "/proc/$SERVER_PID/stat"; }
before="$(ticks)"; sleep 2; after="$(ticks)"
(( after - before <= 5 )) || fail "an idle tabulad used $((after - before)) CPU ticks in 2 s"
pass "an idle tabulad sleeps: $((after - before)) CPU ticks (1/100 s) in 2 s after a burst"

# Memory that closed connections held goes back to the system (jemalloc's purge and glibc's
# trim, within a second of the last close): 300 clients each leave 60 KB of an unfinished
# line in the server, then all close; its RSS must come back near where it was.
python3 - "$PORT" "$SERVER_PID" <<'PY' || fail "memory held by closed connections was not given back"
import socket, sys, time
port, pid = int(sys.argv[1]), sys.argv[2]
def rss_kb():
    return int(next(l for l in open("/proc/%s/status" % pid) if l.startswith("VmRSS")).split()[1])
def connections():  # as STATS counts them, this asking connection included
    with socket.create_connection(("127.0.0.1", port)) as s:
        s.sendall(b"STATS\n")
        text = b""
        while b"\nOK" not in text:
            text += s.recv(65536)
    return int(text.split(b"- connections: ")[1].split(b"\n")[0])
# Waits with a deadline for a real signal and answers what the last check saw. A check is
# asked once a round: a second STATS right after a first may count the first's connection,
# closed by this client but not yet by the server's other loop.
def until(check, seconds):
    deadline = time.time() + seconds
    while True:
        seen = check()
        if seen or time.time() >= deadline:
            return seen
        time.sleep(0.05)
before = rss_kb()
clients = [socket.create_connection(("127.0.0.1", port)) for _ in range(300)]
for c in clients:
    c.sendall(b"PING " + b"x" * 60_000)  # no line end: the server keeps it
# Read by the server: its RSS has grown and stopped growing.
last = [0]
def settled():
    now, was = rss_kb(), last[0]
    last[0] = now
    return now > before + 12_000 and now == was
until(settled, 20)
held = rss_kb()
for c in clients:
    c.close()
gone = until(lambda: connections() == 1, 20)
given = until(lambda: rss_kb() <= before + 4_000, 10)
after = rss_kb()
figures = "RSS %d kB, %d kB with 300 unfinished lines of 60 KB, %d kB after they closed" % (before, held, after)
if held > before + 12_000 and gone and given:
    print("ok - memory held by closed connections is given back: " + figures)
    sys.exit(0)
print("%s; every line read: %s, all closed (STATS): %s, given back: %s" % (figures, held > before + 12_000, gone, given))
sys.exit(1)
PY
stop_server

start_server --data "$work/small.sqlite" --max-size 131072
got=""
for i in $(seq 1 400); do
    line="$(printf 'ADD /items %s%d 5\n' "$(head -c 600 /dev/zero | tr '\0' x)" "$i" | nc -N 127.0.0.1 "$PORT" | tail -n 1)"
    if [[ "$line" == ERR* ]]; then got="$line"; break; fi
done
[[ "$got" == "ERR STORAGE the change could not be saved (disk full"* ]] || fail "a full store did not give ERR STORAGE (last: $got)"
printf 'LS /settings\nPING\n' | nc -N 127.0.0.1 "$PORT" | grep -q '^OK PONG$' || fail "reads stopped after the failed write"
pass "a full store fails the write with ERR STORAGE and reads go on"
