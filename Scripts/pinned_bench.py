"""Scripts/bench --pinned: every server on CPU 1 and the client on CPU 0 (taskset), as if
each had a machine of its own; Redis 7 beside tabulad with the threads it chooses for one
CPU. PING, a read (GET / SHOW) and a write (SET / FAV, a change every time) at c=50, P=1
and P=16; durable writes (appendfsync always / --sync full) at c=1 and c=50. For each case:
requests a second, p99, and the server's CPU per request (its /proc user and system time
over the run, divided by the requests). Medians of `runs` alternating runs. `variants` are
other builds (`--against` commits: (label, binary)), each measured in the same rotation and
shown beside this build."""
import os
import statistics
import subprocess

from anchors_bench import WRITES, free_port, kv, wait_port

TICK_US = 1e6 / os.sysconf("SC_CLK_TCK")


def cpu_ticks(pid):
    """The process's user and system time so far, in clock ticks (/proc/PID/stat)."""
    fields = open("/proc/%d/stat" % pid).read().rsplit(")", 1)[1].split()
    return int(fields[11]) + int(fields[12])


def start(argv):
    """`argv(port)` on CPU 1; taskset execs it, so the process is the server itself."""
    port = free_port()
    p = subprocess.Popen(["taskset", "-c", "1", *argv(port)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    wait_port(port)
    return p, port


def measure(lb, p, port, redis, line, n, c, P, writes):
    """One linebench run on CPU 0: (req/s, p99 ms, server CPU µs a request)."""
    extra = () if redis else (("-L", "-f", writes) if line is None else ("-L",))
    argv = ["taskset", "-c", "0", lb, "-p", str(port), "-c", str(c), "-P", str(P), "-n", str(n), "-T", "120",
            "-m", "redis" if redis else "okerr", "-q", *extra, line or "PING"]
    before = cpu_ticks(p.pid)
    out = kv(subprocess.run(argv, check=True, capture_output=True, text=True).stdout)
    return float(out["rps"]), float(out["p99_ms"]), (cpu_ticks(p.pid) - before) * TICK_US / n


def run(runs, n, work, rel, lb, variants=()):
    writes = os.path.join(work, "pinned-writes.txt")
    with open(writes, "w") as fh:
        fh.write(WRITES)
    aof = os.path.join(work, "pinned-aof")
    os.makedirs(aof, exist_ok=True)
    builds = [("this build", os.path.join(rel, "tabulad"))] + [(label, b) for label, b in variants if b]
    redis_flags = ["--bind", "127.0.0.1", "--save", "", "--maxclients", "20000"]
    servers = {
        "redis": start(lambda port: ["redis-server", "--port", str(port), *redis_flags, "--appendonly", "no"]),
        "redis-aof": start(lambda port: ["redis-server", "--port", str(port), *redis_flags, "--dir", aof,
                                         "--appendonly", "yes", "--appendfsync", "always"]),
    }
    for i, (_, binary) in enumerate(builds):
        servers[("tabulad", i)] = start(lambda port: [binary, "--memory", "--port", str(port), "--log-level", "warn"])
        servers[("tabulad-disk", i)] = start(
            lambda port: [binary, "--data", os.path.join(work, "pinned-%d.sqlite" % i), "--sync", "full",
                          "--port", str(port), "--log-level", "warn"])
    cases = [  # (case, load, redis line, tabula line (None: the writes file), durable, requests, c, P)
        ("PING", "P=1", "PING", "PING", False, n, 50, 1),
        ("PING", "P=16", "PING", "PING", False, n * 4, 50, 16),
        ("read", "P=1", "GET k", "SHOW /settings/my-int", False, n, 50, 1),
        ("read", "P=16", "GET k", "SHOW /settings/my-int", False, n * 4, 50, 16),
        ("write", "P=1", "SET k v", None, False, n, 50, 1),
        ("write", "P=16", "SET k v", None, False, n * 4, 50, 16),
        ("durable", "c=1", "SET k v", None, True, max(2000, n // 100), 1, 1),
        ("durable", "c=50", "SET k v", None, True, max(20000, n // 10), 50, 1),
    ]
    res = {}
    try:
        for k in range(runs):
            for case, load, rline, tline, durable, count, c, P in cases:
                r, t = ("redis-aof", "tabulad-disk") if durable else ("redis", "tabulad")
                order = [(r, None, rline)] + [((t, i), i, tline) for i in range(len(builds))]
                shift = k % len(order)
                for name, build, line in order[shift:] + order[:shift]:
                    p, port = servers[name]
                    res.setdefault((case, load, build), []).append(
                        measure(lb, p, port, build is None, line, count, c, P, writes))
    finally:
        for p, _ in servers.values():
            p.terminate(); p.wait()
    report(runs, cases, res, builds)


def report(runs, cases, res, builds):
    print("\nEvery server on CPU 1, the client on CPU 0 (taskset; linebench; tabulad's own thread choice for one CPU;"
          " durable: redis appendfsync always, tabulad --sync full; medians of %d alternating runs)" % runs)
    for i, (label, _) in enumerate(builds):
        print("\n%s beside Redis" % label)
        print("%-8s %-5s %11s %11s %7s %9s %9s %6s %10s %10s" % ("case", "load", "redis/s", "tabulad/s", "ratio",
                                                               "redis p99", "tab p99", "p99 x", "redis µs", "tabulad µs"))
        for case, load, *_ in cases:
            rd = [statistics.median(x[j] for x in res[(case, load, None)]) for j in range(3)]
            tb = [statistics.median(x[j] for x in res[(case, load, i)]) for j in range(3)]
            print("%-8s %-5s %11.0f %11.0f %6.2fx %9.3f %9.3f %5.2fx %10.2f %10.2f"
                  % (case, load, rd[0], tb[0], tb[0] / rd[0], rd[1], tb[1], tb[1] / rd[1], rd[2], tb[2]))
