#!/usr/bin/env python3
"""End-to-end test of a cluster: 3 tabulad nodes on one private PostgreSQL.

Writers on every node for --seconds (default 20), a watcher of / on every node. Mid-run one
node is killed with kill -9 and restarted, and PostgreSQL is stopped with
`pg_ctl stop -m immediate` and started again. At the end it checks that:
  * every watcher's stream is the same: revisions 1..head, in order, no gap, no duplicate
    (a watcher of the killed node resumes on the restarted node with SYNC and WATCH / FROM);
  * the final LS of every list is identical on every node, and on a fresh node started at the
    end (which loads the tables, not the change stream);
  * every acknowledged write is there (its order or item exists, with the revision of its
    OK naming its event), and none is half-applied;
  * while PostgreSQL is down (4 s of the default 20), writes are refused with ERR STORAGE,
    not held until it is back: some refusals arrive before it is started again.
Prints the counts. Exits non-zero on the first violation.
"""
import argparse, os, re, signal, socket, subprocess, sys, tempfile, threading, time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BIN = os.environ.get("TABULA_BIN", os.path.join(ROOT, ".build", "debug"))
PG = os.path.join(ROOT, "Scripts", "postgres")


FAILURES = []


def fail(msg):
    """Records the failure and ends the calling thread (the main thread exits at its next check)."""
    FAILURES.append(msg)
    raise SystemExit(1)


def check_failures():
    if FAILURES:
        raise SystemExit("FAIL: " + FAILURES[0])


def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    p = s.getsockname()[1]
    s.close()
    return p


class Node:
    def __init__(self, conninfo, port, log):
        self.conninfo, self.port, self.log = conninfo, port, log
        self.start()

    def start(self):
        self.p = subprocess.Popen([os.path.join(BIN, "tabulad"), "--port", str(self.port), "--postgres", self.conninfo,
                                   "--log-level", "info"], stdout=subprocess.DEVNULL, stderr=self.log)
        deadline = time.time() + 30
        while time.time() < deadline:
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=1).close()
                return
            except OSError:
                if self.p.poll() is not None:
                    fail("node on port %d exited with %s" % (self.port, self.p.returncode))
                time.sleep(0.05)
        fail("node on port %d did not start" % self.port)

    def kill9(self):
        self.p.send_signal(signal.SIGKILL)
        self.p.wait()

    def stop(self):
        self.p.send_signal(signal.SIGTERM)
        try:
            self.p.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.p.kill()


class Conn:
    """A connection that reads lines from its own buffer, so that a read timeout loses nothing."""

    def __init__(self, port, timeout=10):
        self.s = socket.create_connection(("127.0.0.1", port), timeout=timeout)
        self.buf = b""
        self.hello = self.readline()
        if not self.hello.startswith("* HELLO"):
            raise ConnectionError("no greeting: %r" % self.hello)

    def readline(self):
        """The next line without its newline; raises socket.timeout (nothing lost) or ConnectionError."""
        while b"\n" not in self.buf:
            chunk = self.s.recv(65536)
            if not chunk:
                raise ConnectionError("closed")
            self.buf += chunk
        line, self.buf = self.buf.split(b"\n", 1)
        return line.decode()

    def request(self, line, pushes=None):
        self.s.sendall((line + "\n").encode())
        lines = []
        while True:
            l = self.readline()
            if l.startswith("*"):
                if pushes is not None:
                    pushes.append(l)
                continue
            lines.append(l)
            if l.startswith("OK") or l.startswith("ERR"):
                return lines

    def close(self):
        self.s.close()


REV = re.compile(r" rev=(\d+)$")


def writer(node, wid, stop, acked, errors, timeouts):
    """Orders and items, each acknowledged one recorded with the revision of its OK. A request
    left unanswered for 5 s (its connection's deadline) is recorded in `timeouts`: a node
    that is up answers every write, with OK, ERR STORAGE or ERR INDOUBT."""
    seq, conn = 0, None
    while not stop.is_set():
        try:
            if conn is None:
                conn = Conn(node.port, timeout=5)
            seq += 1
            started = time.monotonic()
            name = None
            if seq % 3 == 0:
                name = "w%d-%d" % (wid, seq)
                final = conn.request("ADD /items %s %d" % (name, seq % 997))[-1]
                m = re.match(r"OK /items/(\d+) in \S+ rev=(\d+)$", final)
                what = ("item", name, int(m.group(1))) if m else None
            else:
                entry = ["pesto", "gelato", "margherita"][seq % 3]
                final = conn.request("ORDER %s" % entry)[-1]
                m = re.match(r"OK order (\d+): (.+) rev=(\d+)$", final)
                what = ("order", m.group(2), int(m.group(1))) if m else None
            if final.startswith("OK"):
                if not what:
                    fail("unexpected OK: %s" % final)
                acked.append(what + (int(REV.search(final).group(1)),))
            elif final.startswith("ERR STORAGE") or final.startswith("ERR INDOUBT"):
                # STORAGE: not saved (checked below for items, by name); INDOUBT: the node
                # could not learn whether it was, and says so (counted).
                errors.append((final, time.monotonic() - started, name))
                time.sleep(0.05)
            else:
                fail("unexpected reply: %s" % final)
        except TimeoutError:
            timeouts.append((node.port, seq))
            conn = None
        except (OSError, ConnectionError):
            conn = None  # the node was killed: wait for it to come back
            time.sleep(0.1)


def watcher(node, stop, stream, resumes):
    """WATCH / on one node; after a lost connection, SYNC to the last revision seen and
    WATCH / FROM it, as tabula does."""
    conn = None
    while True:
        try:
            if conn is None:
                conn = Conn(node.port, timeout=5)
                last = int(stream[-1].split()[2]) if stream else None
                if last is None:
                    final = conn.request("WATCH /", stream)[-1]
                else:
                    synced = conn.request("SYNC %d TIMEOUT 10000" % last)[-1]
                    if not synced.startswith("OK"):
                        fail("SYNC %d on the restarted node: %s" % (last, synced))
                    final = conn.request("WATCH / FROM %d" % last, stream)[-1]
                    resumes.append(final)
                if not final.startswith("OK"):
                    fail("watch refused: %s" % final)
                conn.s.settimeout(0.2)
            l = conn.readline()
            if l.startswith("* BYE"):
                fail("watcher got %s" % l)
            if l.startswith("* EVENT"):
                stream.append(l)
        except socket.timeout:
            if stop.is_set():
                return
        except (OSError, ConnectionError):
            if stop.is_set():
                return
            conn = None
            time.sleep(0.1)


def list_all(port):
    c = Conn(port)
    out = {}
    for path in ["/orders", "/items", "/settings", "/menu", "/catalog"]:
        rows, after = [], None
        while True:
            lines = c.request("LS %s LIMIT 10000%s" % (path, " AFTER " + after if after else ""))
            rows += lines[:-1]
            m = re.search(r"more: LS \S+ LIMIT \d+ AFTER (\S+)", lines[-1])
            if not m:
                break
            after = m.group(1)
        out[path] = rows
    head = int(re.search(r"rev=(\d+)", c.hello).group(1))
    c.close()
    return out, head


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--seconds", type=float, default=20)
    ap.add_argument("--writers", type=int, default=2, help="writer connections per node")
    args = ap.parse_args()
    pgdir = tempfile.mkdtemp(prefix="tabula-pg-", dir="/tmp")
    os.chmod(pgdir, 0o755)
    log = open(os.path.join(tempfile.gettempdir(), "tabula-cluster-test.log"), "w")
    conninfo = subprocess.check_output([PG, "start", pgdir], text=True).strip()
    nodes = []
    try:
        nodes = [Node(conninfo, free_port(), log) for _ in range(3)]
        stop_writers, stop_watchers = threading.Event(), threading.Event()
        acked, errors, streams, resumes, timeouts = [], [], [[] for _ in nodes], [], []
        watchers = [threading.Thread(target=watcher, args=(n, stop_watchers, streams[i], resumes)) for i, n in enumerate(nodes)]
        for t in watchers:
            t.start()
        time.sleep(0.5)
        writers = [threading.Thread(target=writer, args=(n, i * 10 + k, stop_writers, acked, errors, timeouts))
                   for i, n in enumerate(nodes) for k in range(args.writers)]
        t0 = time.time()
        for t in writers:
            t.start()
        s = args.seconds
        plan = [(0.3 * s, "kill -9 node 2", nodes[1].kill9), (0.4 * s, "restart node 2", nodes[1].start),
                (0.6 * s, "pg_ctl stop -m immediate", lambda: subprocess.check_call([PG, "stop", pgdir, "immediate"])),
                (0.8 * s, "PostgreSQL started again", lambda: subprocess.check_output([PG, "start", pgdir]))]
        refused_before_restart = 0
        for at, what, action in plan:
            time.sleep(max(0, t0 + at - time.time()))
            check_failures()
            if what == "PostgreSQL started again":
                refused_before_restart = sum(1 for e in list(errors) if e[0].startswith("ERR STORAGE"))
            action()
            print("  %5.1f s: %s (%d writes acknowledged so far)" % (time.time() - t0, what, len(acked)))
        time.sleep(max(0, t0 + s - time.time()))
        stop_writers.set()
        for t in writers:
            t.join()
        head = settle(nodes, streams)
        stop_watchers.set()
        for t in watchers:
            t.join()
        check_failures()
        check(nodes, conninfo, log, streams, acked, head, errors)
        indoubt = sum(1 for e in errors if e[0].startswith("ERR INDOUBT"))
        slowest = max((e[1] for e in errors if e[0].startswith("ERR STORAGE")), default=0)
        # While PostgreSQL was down writes were refused, not held until it came back: some
        # refusals had arrived before it was started again. And every write to a node that
        # was up was answered (OK, STORAGE, or INDOUBT once a cut-off commit's outcome could
        # not be learned): none met its connection's 5 s deadline. No timing is asserted.
        if refused_before_restart == 0:
            raise SystemExit("FAIL: no write was refused while PostgreSQL was down (they waited for it to come back)")
        if timeouts:
            raise SystemExit("FAIL: %d writes were left unanswered for 5 s: %s" % (len(timeouts), timeouts[:5]))
        print("ok - cluster: 3 nodes, %.0f s, %d writes acknowledged (every one present), %d refused with ERR STORAGE (no refused item present), "
              "%d answered ERR INDOUBT, head %d, "
              "%d events per watcher, identical on all 3; node 2 killed and restarted, its watcher resumed (%s); "
              "PostgreSQL stopped -m immediate and restarted (%d refusals before it was back; the slowest took %.0f ms)"
              % (s, len(acked), len(errors) - indoubt, indoubt, head, len(streams[0]), resumes[0] if resumes else "no resume", refused_before_restart, slowest * 1000))
    finally:
        for n in nodes:
            n.stop()
        subprocess.call([PG, "stop", pgdir, "fast"], stderr=subprocess.DEVNULL)
        subprocess.call(["rm", "-rf", pgdir])


def settle(nodes, streams):
    """Waits until every node has reached the cluster's head and every watcher holds it;
    returns the head."""
    head = max(list_all(n.port)[1] for n in nodes)
    for n in nodes:
        c = Conn(n.port)
        if not c.request("SYNC %d TIMEOUT 20000" % head)[-1].startswith("OK"):
            raise SystemExit("FAIL: node on port %d did not reach revision %d" % (n.port, head))
        c.close()
    deadline = time.time() + 20
    while time.time() < deadline and any(len(st) < head for st in streams):
        time.sleep(0.05)
    return head


def check(nodes, conninfo, log, streams, acked, head, errors):
    def fail(msg):
        raise SystemExit("FAIL: " + msg)

    for i, st in enumerate(streams):
        revs = [int(l.split()[2]) for l in st]
        if revs != list(range(1, head + 1)):
            have = set(revs)
            gaps = [r for r in range(1, head + 1) if r not in have][:8]
            dups = len(revs) - len(set(revs))
            fail("watcher %d: %d events for head %d (missing e.g. %s, %d duplicates)" % (i + 1, len(revs), head, gaps, dups))
        if st != streams[0]:
            first = next(k for k in range(len(st)) if st[k] != streams[0][k])
            fail("watcher %d differs from watcher 1 at %r / %r" % (i + 1, st[first], streams[0][first]))
    fresh = Node(conninfo, free_port(), log)
    try:
        lists = [list_all(n.port)[0] for n in nodes + [fresh]]
    finally:
        fresh.stop()
    for i, l in enumerate(lists[1:], 2):
        for path in l:
            if l[path] != lists[0][path]:
                fail("LS %s differs between node 1 and %s" % (path, "the fresh node" if i == 4 else "node %d" % i))
    orders = {int(r.split()[1]): r for r in lists[0]["/orders"]}
    items = {}
    for r in lists[0]["/items"]:
        parts = r.split()
        if len(parts) > 2 and parts[1].isdigit():
            items[int(parts[1])] = r
    by_rev = {int(l.split()[2]): l for l in streams[0]}
    present = {r.split()[2] for r in items.values() if len(r.split()) > 2}
    for final, _, name in errors:
        if name and final.startswith("ERR STORAGE") and name in present:
            fail("item %s was refused as not saved (%s) but is in the store" % (name, final))
    for kind, name, ident, rev in acked:
        event = by_rev.get(rev, "")
        if kind == "order":
            if ident not in orders or name not in orders[ident]:
                fail("acknowledged order %d (%s) is missing: %s" % (ident, name, orders.get(ident)))
            if " order /orders/%d " % ident not in event:
                fail("the OK of order %d said rev=%d, whose event is %r" % (ident, rev, event))
        else:
            if ident not in items or name not in items[ident]:
                fail("acknowledged item %d (%s) is missing: %s" % (ident, name, items.get(ident)))
            if "/items/%d " % ident not in event:
                fail("the OK of item %d said rev=%d, whose event is %r" % (ident, rev, event))


if __name__ == "__main__":
    main()
