"""Scripts/bench --scaling: how each cost grows with the data. One pipelined client (Python,
100 requests in flight) times requests against tabulad --memory as the items grow from 10 to
1,000,000, as the history grows from 1,000 to 1,000,000 (WATCH FROM an old revision, and the
start-up of a SQLite store holding it), and as a catalog branch grows from 1 to 1,000 levels
deep. A cost that grows with n shows as microseconds that grow by the step's factor. Imported
by Scripts/bench, which builds release."""
import statistics, os, socket, time


class Client:
    def __init__(self, port):
        self.s = socket.create_connection(("127.0.0.1", port))
        self.f = self.s.makefile("rb")
        self.f.readline()

    def reply(self):
        while True:
            line = self.f.readline()
            if not line:
                raise SystemExit("the server closed the connection")
            if line.startswith((b"OK", b"ERR")):
                return line

    def run(self, lines, depth=100):
        """Sends `lines` keeping `depth` in flight; returns the replies' last lines."""
        out, sent = [], 0
        while len(out) < len(lines):
            k = min(depth, len(lines) - sent)
            if k:
                self.s.sendall(b"".join(x + b"\n" for x in lines[sent:sent + k]))
                sent += k
            for _ in range(k):
                out.append(self.reply())
        return out

    def per_request_us(self, lines):
        t = time.perf_counter()
        replies = self.run(lines)
        bad = [r for r in replies if r.startswith(b"ERR")]
        if bad:
            raise SystemExit("%s answered %s" % (lines[0].decode(), bad[0].decode()))
        return (time.perf_counter() - t) * 1e6 / len(lines)


def items(start_tabulad):
    p, port = start_tabulad("--memory", "--history", "100000")
    c = Client(port)
    rows, have = [], 0
    try:
        for n in (10, 1000, 100000, 1000000):
            for base in range(have, n, 10000):
                c.run([b"ADD /items s%d %d" % (i, i % 97 + 1) for i in range(base, min(n, base + 10000))], depth=1000)
            have = n
            k = n // 2 + 1
            cases = [
                ("SHOW item", [b"SHOW /items/%d" % k] * 2000),
                ("LS page", [b"LS /items LIMIT 20"] * 2000),
                ("ADD", [b"ADD /items t%d-%d 50" % (n, i) for i in range(2000)]),
                ("MV", [b"MV /items/%d %d" % (k, 1 + i % 2) for i in range(2000)]),
                ("FAV", [b"FAV /items/%d" % k] * 2000),
                ("reprice", [b"SET /items/%d value=%d" % (k, 10 if i % 2 else 90) for i in range(2000)]),
            ]
            rows.append((n, [(name, c.per_request_us(lines)) for name, lines in cases]))
    finally:
        p.terminate(); p.wait()
    print("\nItems: microseconds a request (one client, 100 in flight; tabulad --memory); n is the items in /items")
    print("%-10s" % "n" + "".join("%11s" % name for name, _ in rows[0][1]))
    for n, v in rows:
        print("%-10d" % n + "".join("%11.1f" % us for _, us in v))


def history(start_tabulad, work, builds=(("this build", None),)):
    """WATCH /settings FROM 1 (10 matching changes among n to /items) until its reply, on a
    restarted server (so the replay reads the store, not memory), each build in turn, 2 rounds,
    each the median of 3 WATCHes; and start-up until the port is printed."""
    rows = []
    for n in (1000, 100000, 1000000):
        times = {label: [] for label, _ in builds}
        start_ms = None
        for _ in range(2):
            for label, binary in builds:
                path = os.path.join(work, "history-%d.sqlite" % n)
                for f in (path, path + "-wal", path + "-shm"):
                    if os.path.exists(f):
                        os.remove(f)
                p, port = start_tabulad("--data", path, "--sync", "normal", "--history", "1000000", binary=binary)
                try:
                    c = Client(port)
                    for base in range(0, n, 10000):
                        c.run([b"FAV /items/%d" % (1 + i % 9) for i in range(base, min(n, base + 10000))], depth=1000)
                    c.run([b"SELECT /settings/my-int #%d" % (1 + i % 2) for i in range(10)])
                finally:
                    p.terminate(); p.wait()
                t = time.perf_counter()
                p, port = start_tabulad("--data", path, "--sync", "normal", "--history", "1000000", binary=binary)
                start_ms = start_ms or (time.perf_counter() - t) * 1000
                try:
                    each = []
                    for _ in range(3):
                        w = Client(port)
                        t = time.perf_counter()
                        w.s.sendall(b"WATCH /settings FROM 1\n")
                        w.reply()  # counted: the replay of the 10 changes under /settings among n follows
                        each.append((time.perf_counter() - t) * 1000)
                    times[label].append(statistics.median(each))
                finally:
                    p.terminate(); p.wait()
        rows.append((n, times, start_ms))
    print("\nHistory: WATCH /settings FROM 1 (10 matching changes among n) until its reply, after a restart (the store's history),"
          " and start-up until the port is printed (tabulad --data, SQLite, --history 1000000; 2 alternating rounds, each a median of 3)")
    print("%-10s" % "n" + "".join("%26s" % label for label, _ in builds) + "%14s" % "start-up ms")
    for n, times, s in rows:
        print("%-10d" % n + "".join("%26s" % ", ".join("%.1f ms" % x for x in times[label]) for label, _ in builds) + "%14.1f" % s)


def postgres_history(start_tabulad):
    """WATCH /settings FROM 1 on a PostgreSQL node (10 matching changes among n to /items),
    with the change table's index by list and without it (dropped and made again between the
    WATCHes, the same node and data): 3 alternating rounds, each the median of 3. The n
    changes are written into the change table by one INSERT (as the nodes write them: a
    favourite toggled, no state row), the 10 to /settings through the node."""
    import subprocess, tempfile
    pg = os.path.join(os.path.dirname(os.path.abspath(__file__)), "postgres")
    pgdir = tempfile.mkdtemp(prefix="tabula-bench-pg-", dir="/tmp")
    os.chmod(pgdir, 0o755)
    conninfo = subprocess.check_output([pg, "start", pgdir], text=True).strip()

    def sql(q):
        return subprocess.run(["psql", "-X", "-At", conninfo, "-c", q], check=True, capture_output=True, text=True).stdout.strip()

    rows, have = [], 0
    try:
        p, port = start_tabulad("--postgres", conninfo, "--history", "10000000")
        Client(port)
        p.terminate(); p.wait()
        for n in (1000, 100000, 1000000):
            head = int(sql("SELECT rev FROM tabula_head"))
            sql("INSERT INTO tabula_changes SELECT r, 0, '/items/' || (1 + r %% 9), 'fav', '', 'null', '[]' FROM generate_series(%d, %d) r;"
                " UPDATE tabula_head SET rev = %d; ANALYZE tabula_changes" % (head + 1, head + n - have, head + n - have))
            have = n
            p, port = start_tabulad("--postgres", conninfo, "--history", "10000000")
            try:
                Client(port).run([b"SELECT /settings/my-int #%d" % (1 + i % 2) for i in range(10)])
            finally:
                p.terminate(); p.wait()
            p, port = start_tabulad("--postgres", conninfo, "--history", "10000000")
            times = {"indexed": [], "without": []}
            try:
                for _ in range(3):
                    for label in ("without", "indexed"):
                        sql("DROP INDEX IF EXISTS tabula_changes_list" if label == "without" else
                            "CREATE INDEX IF NOT EXISTS tabula_changes_list ON tabula_changes ((split_part(path, '/', 2)), rev)")
                        each = []
                        for _ in range(3):
                            w = Client(port)
                            t = time.perf_counter()
                            w.s.sendall(b"WATCH /settings FROM 1\n")
                            w.reply()
                            each.append((time.perf_counter() - t) * 1000)
                        times[label].append(statistics.median(each))
            finally:
                p.terminate(); p.wait()
            rows.append((n, times))
    finally:
        subprocess.run([pg, "stop", pgdir], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        subprocess.run(["rm", "-rf", pgdir])
    print("\nHistory on PostgreSQL: WATCH /settings FROM 1 (10 matching changes among n) until its reply, on one node,"
          " with the change table's index by list and without it (3 alternating rounds, each a median of 3)")
    print("%-10s %26s %26s" % ("n", "indexed", "without the index"))
    for n, t in rows:
        print("%-10d %26s %26s" % (n, ", ".join("%.1f ms" % x for x in t["indexed"]), ", ".join("%.1f ms" % x for x in t["without"])))


def depth(start_tabulad):
    p, port = start_tabulad("--memory", "--max-line", "65536")
    c = Client(port)
    rows, path, have = [], b"/catalog", 0
    try:
        for d in (1, 10, 100, 1000):
            while have < d:
                c.run([b"ADD %s n" % path])
                path += b"/n"
                have += 1
            rows.append((d, c.per_request_us([b"SHOW " + path] * 2000), c.per_request_us([b"LS " + path] * 2000)))
    finally:
        p.terminate(); p.wait()
    print("\nCatalog depth: microseconds a request on the deepest branch (its path has depth + 1 segments)")
    print("%-10s %12s %12s" % ("depth", "SHOW", "LS"))
    for d, s, t in rows:
        print("%-10d %12.1f %12.1f" % (d, s, t))


def run(start_tabulad, work, builds=(("this build", None),)):
    items(start_tabulad)
    history(start_tabulad, work, builds)
    postgres_history(start_tabulad)
    depth(start_tabulad)
