"""Scripts/bench --resp: redis-benchmark, a client nobody here wrote, against Redis and
tabulad (--memory) side by side in one run: PING, a read and a write, at P=1 and P=16,
c=50. Runs alternate (Redis, tabulad, Redis, …); each figure is the median of --runs.

The commands: PING against PING; GET of a 3-byte value against SHOW /settings/my-int; SET
against FAV /items/1 (a toggle, so every request is a change with its revision and event).
Debian has no memtier_benchmark, so redis-benchmark is the one external client.
"""
import csv
import io
import os
import shutil
import socket
import statistics
import subprocess
import time

CASES = [  # (name, redis command, tabula command)
    ("PING", ["PING"], ["PING"]),
    ("read", ["GET", "k"], ["SHOW", "/settings/my-int"]),
    ("write", ["SET", "k", "v"], ["FAV", "/items/1"]),
]


def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    p = s.getsockname()[1]
    s.close()
    return p


def start_redis(work):
    port = free_port()
    p = subprocess.Popen(["redis-server", "--port", str(port), "--save", "", "--appendonly", "no", "--dir", work],
                         stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    for _ in range(500):
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            break
        except OSError:
            time.sleep(0.01)
    subprocess.run(["redis-cli", "-p", str(port), "SET", "k", "v"], check=True, stdout=subprocess.DEVNULL)
    return p, port


def one(port, command, n, P):
    """redis-benchmark's requests/s and p99 (ms) for one command."""
    out = subprocess.run(["redis-benchmark", "-p", str(port), "-c", "50", "-n", str(n), "-P", str(P), "--csv", *command],
                         check=True, capture_output=True, text=True).stdout
    rows = [r for r in csv.DictReader(io.StringIO(out))]
    return float(rows[-1]["rps"]), float(rows[-1]["p99_latency_ms"])


def run(runs, n, work, start_tabulad):
    if not shutil.which("redis-benchmark") or not shutil.which("redis-server"):
        print("redis-benchmark and redis-server are needed (apt: redis-tools redis-server)")
        return
    redis, rport = start_redis(work)
    tabula, tport = start_tabulad("--memory")
    results = {}
    try:
        for _ in range(runs):
            for name, rc, tc in CASES:
                for P in (1, 16):
                    results.setdefault((name, P, "redis"), []).append(one(rport, rc, n, P))
                    results.setdefault((name, P, "tabula"), []).append(one(tport, tc, n, P))
    finally:
        redis.terminate()
        tabula.terminate()
        redis.wait()
        tabula.wait()
    print("redis-benchmark -c 50 -n %d, medians of %d alternating runs (Redis %s)" % (n, runs, redis_version()))
    print("%-6s %3s %12s %12s %7s %10s %10s" % ("case", "P", "redis/s", "tabula/s", "ratio", "redis p99", "tabula p99"))
    for name, _, _ in CASES:
        for P in (1, 16):
            r = results[(name, P, "redis")]
            t = results[(name, P, "tabula")]
            rr, tr = statistics.median(x[0] for x in r), statistics.median(x[0] for x in t)
            print("%-6s %3d %12.0f %12.0f %6.2fx %9.3fms %9.3fms" % (name, P, rr, tr, tr / rr, statistics.median(x[1] for x in r), statistics.median(x[1] for x in t)))


def redis_version():
    out = subprocess.run(["redis-server", "--version"], capture_output=True, text=True).stdout
    return out.split("v=")[1].split()[0] if "v=" in out else "?"
