"""Scripts/bench --cluster: write throughput of PostgreSQL clusters of 1, 2 and 3 nodes beside
one SQLite node at --sync full, and the time from a write's OK on one node to its event on a
watcher of another. Imported by Scripts/bench (which builds release and linebench)."""
import os, socket, statistics, subprocess, tempfile, threading, time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PG = os.path.join(ROOT, "Scripts", "postgres")


def start_node(binary, *flags):
    p = subprocess.Popen([binary, "--port", "0", "--log-level", "warn", *flags],
                         stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    return p, int(p.stdout.readline())


def stop(procs):
    for p in procs:
        p.terminate()
    for p in procs:
        p.wait()


def database(pgdir, conninfo, name):
    subprocess.run([PG, "psql", pgdir, "-c", "CREATE DATABASE %s" % name], check=True, stdout=subprocess.DEVNULL)
    return conninfo.replace("dbname=tabula", "dbname=%s" % name)


def turns(conninfo):
    """How many write turns committed to `db`: the updates of its head row (PostgreSQL's
    own count; each turn of each node locks and advances it once)."""
    out = subprocess.run(["psql", "-X", "-At", conninfo, "-c", "SELECT n_tup_upd FROM pg_stat_user_tables WHERE relname = 'tabula_head'"],
                         capture_output=True, text=True).stdout.strip()
    return int(out or 0)


class LockWaiters:
    """PostgreSQL's own count of turns waiting for the head's lock: every 20 ms, the
    ungranted locks in pg_locks (one psql session asks them all); `mean` once stopped."""
    def __init__(self, conninfo):
        self.samples, self.done = [], threading.Event()
        self.psql = subprocess.Popen(["psql", "-X", "-At", conninfo], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
        self.thread = threading.Thread(target=self.sample)
        self.thread.start()

    def sample(self):
        while not self.done.wait(0.02):
            self.psql.stdin.write("SELECT count(*) FROM pg_locks WHERE NOT granted;\n")
            self.samples.append(int(self.psql.stdout.readline()))

    def stop(self):
        self.done.set()
        self.thread.join()
        self.psql.stdin.close()
        self.psql.wait()
        return statistics.mean(self.samples) if self.samples else 0.0


def writes(lb, ports, n):
    """linebench c=50 per node, all at once; total writes per second over the slowest."""
    procs = [subprocess.Popen([lb, "-p", str(p), "-c", "50", "-n", str(n), "-m", "okerr", "-L", "-q", "-T", "120", "ORDER pesto"],
                              stdout=subprocess.PIPE, text=True) for p in ports]
    outs = [dict(x.split("=", 1) for x in q.communicate()[0].split()) for q in procs]
    if any(int(o["errors"]) for o in outs):
        raise SystemExit("writes failed: %s" % outs)
    return sum(int(o["replies"]) for o in outs) / max(float(o["elapsed_s"]) for o in outs), max(float(o["p99_ms"]) for o in outs)


class Lines:
    def __init__(self, port):
        self.s = socket.create_connection(("127.0.0.1", port))
        self.buf = b""
        self.readline()

    def readline(self):
        while b"\n" not in self.buf:
            self.buf += self.s.recv(65536)
        line, self.buf = self.buf.split(b"\n", 1)
        return line.decode(), time.monotonic()


def propagation(a, b, rate=1000, seconds=10, writers=10):
    """Writers on node a at `rate` writes/s in all; a watcher on node b. Each event's arrival
    on b minus its write's OK on a, in ms."""
    ok, seen, stop_at = {}, {}, time.monotonic() + seconds
    w = Lines(b)
    w.s.sendall(b"WATCH /orders\n")
    w.readline()

    def watch():
        while True:
            line, t = w.readline()
            if line.startswith("* EVENT"):
                seen[int(line.split()[2])] = t
            if line == "OK PONG":
                return

    def write(k):
        c = Lines(a)
        period = writers / rate
        nxt = time.monotonic() + k * period / writers
        while time.monotonic() < stop_at:
            time.sleep(max(0, nxt - time.monotonic()))
            nxt += period
            c.s.sendall(b"ORDER pesto\n")
            line, t = c.readline()
            while not line.startswith("OK"):  # the order's row comes first
                line, t = c.readline()
            ok[int(line.rsplit("rev=", 1)[1])] = t

    wt = threading.Thread(target=watch)
    wt.start()
    ts = [threading.Thread(target=write, args=(k,)) for k in range(writers)]
    for t in ts:
        t.start()
    for t in ts:
        t.join()
    time.sleep(1)
    w.s.sendall(b"PING\n")
    wt.join()
    d = sorted((seen[r] - ok[r]) * 1000 for r in ok if r in seen)
    missing = len([r for r in ok if r not in seen])
    return len(ok) / seconds, d[len(d) // 2], d[int(len(d) * 0.99)], d[-1], missing


def run(runs, n, work, rel, lb, variants=(), flush_delay_us=0):
    """`variants`: (label, tabulad binary) of other builds, measured alternating with this one
    on PostgreSQL (each on a database of its own, made by that build). `flush_delay_us`:
    PostgreSQL's commit_delay with commit_siblings = 0, so that every commit that waits for
    its flush waits that much longer, as on a slower disk or with a synchronous standby
    further away."""
    builds = [("this build", os.path.join(rel, "tabulad"))] + [(label, b) for label, b in variants if b]
    cases = [("sqlite", builds[0])] + [(nodes, b) for nodes in (1, 2, 3) for b in builds]
    pgdir = tempfile.mkdtemp(prefix="tabula-bench-pg-", dir="/tmp")
    os.chmod(pgdir, 0o755)
    conninfo = subprocess.check_output([PG, "start", pgdir], text=True).strip()
    if flush_delay_us:
        for q in ("ALTER SYSTEM SET commit_delay = %d" % flush_delay_us, "ALTER SYSTEM SET commit_siblings = 0", "SELECT pg_reload_conf()"):
            subprocess.run(["psql", "-X", "-q", conninfo, "-c", q], check=True, stdout=subprocess.DEVNULL)
    res, k, lat = {}, 0, {}
    try:
        for r in range(runs):
            for case, (label, binary) in cases:
                k += 1
                if case == "sqlite":
                    procs = [start_node(binary, "--data", os.path.join(work, "b%d.sqlite" % k), "--sync", "full")]
                else:
                    db = database(pgdir, conninfo, "b%d" % k)
                    procs = [start_node(binary, "--postgres", db) for _ in range(case)]
                try:
                    waiters = LockWaiters(db) if case != "sqlite" else None
                    rate, p99 = writes(lb, [p for _, p in procs], n)
                    waiting = waiters.stop() if waiters else 0.0
                    time.sleep(0.6)  # PostgreSQL's statistics lag by up to 0.5 s
                    per_turn = n * len(procs) / max(1, turns(db)) if case != "sqlite" else 0
                    res.setdefault((case, label), []).append((rate, p99, per_turn, waiting))
                finally:
                    stop(p for p, _ in procs)
        for label, binary in builds:
            db = database(pgdir, conninfo, "latency%d" % len(lat))
            procs = [start_node(binary, "--postgres", db) for _ in range(2)]
            try:
                lat[label] = propagation(procs[0][1], procs[1][1])
            finally:
                stop(p for p, _ in procs)
    finally:
        subprocess.call([PG, "stop", pgdir, "fast"])
        subprocess.call(["rm", "-rf", pgdir])
    print("Cluster writes (ORDER, linebench c=50 per node, %d per node; medians of %d alternating runs%s)"
          % (n, runs, "; every flushing commit %d µs longer" % flush_delay_us if flush_delay_us else ""))
    print("%-26s %-22s %12s %10s %16s %10s %14s" % ("store", "build", "writes/s", "p99 ms", "writes per turn", "turns/s", "lock waiters"))
    for (case, label), v in res.items():
        name = "SQLite --sync full, 1 node" if case == "sqlite" else "PostgreSQL, %d node%s" % (case, "" if case == 1 else "s")
        rate, per = statistics.median(x[0] for x in v), statistics.median(x[2] for x in v)
        waiting = statistics.median(x[3] for x in v)
        print("%-26s %-22s %12.0f %10.1f %16s %10s %14s" % (name, label, rate, statistics.median(x[1] for x in v), "%.1f" % per if per else "",
                                                          "%.0f" % (rate / per) if per else "", "%.2f" % waiting if per else ""))
    print("(turns: updates of the head row, from pg_stat_user_tables; lock waiters: ungranted locks in pg_locks, sampled every 20 ms, mean)")
    for label, (rate, p50, p99, worst, missing) in lat.items():
        print("%s: OK on node A to the event on a watcher of node B, %.0f writes/s for 10 s: p50 %.2f ms, p99 %.2f ms, max %.2f ms%s"
              % (label, rate, p50, p99, worst, "" if not missing else " (%d events missing!)" % missing))
