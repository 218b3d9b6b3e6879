#!/usr/bin/env python3
"""A history checker of Tabula's own: concurrent compare-and-set counters, checked.

    history-check.py [--seconds S] [--clients N] [--keys K] [--store memory|sqlite] [--self-test]

Starts tabulad (--memory, or SQLite in a temporary file) with HTTP on, and runs N clients for
S seconds, spread over the line protocol (FORMAT json), POST /api/VERB and RESP2. Each
repeatedly reads an item (SHOW: its value and its entry revision) and writes value + 1 with
`IF REV` of what it read, recording when each operation was invoked and when it completed.
A watcher on /items records every event. Then it checks, sharing no code with the server:

- per key, linearizability of the history as a register with compare-and-set (the search of
  Wing and Gong, with Lowe's cache of visited states): reads and writes as they happened,
  a refused write (CONFLICT) as a failed compare-and-set, one that got no answer as either;
- no lost update: each key's final value is its first plus the writes answered OK;
- acknowledged = published: every OK write's revision is an event of the watcher, with the
  value written, and the watcher's revisions have no gap and no repeat.

--self-test runs the checker on doctored histories (a lost write, a phantom read, a stale
read, a watcher gap) and requires it to fail on each, and to pass the undoctored one.
Prints a line per check; exits 1 at the first failure.
"""
import argparse, json, os, random, socket, subprocess, sys, tempfile, threading, time, urllib.request

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BIN = os.environ.get("TABULA_BIN", os.path.join(ROOT, ".build", "debug"))


class Line:
    """The line protocol in FORMAT json: one JSON object a reply, pushes skipped."""

    def __init__(self, port):
        self.s = socket.create_connection(("127.0.0.1", port), timeout=10)
        self.f = self.s.makefile("rwb")
        self.f.readline()  # * HELLO
        self.call("FORMAT json")

    def call(self, line):
        self.f.write(line.encode() + b"\n")
        self.f.flush()
        while True:
            text = self.f.readline()
            if not text:
                raise ConnectionError("closed")
            if text.startswith(b"{"):
                o = json.loads(text)
                if "push" not in o:
                    return o

    def show(self, key):
        o = self.call(f"SHOW /items/{key}")
        f = {d["field"]: d["value"] for d in o["data"]}
        return f["value"], f["rev"]

    def cas(self, key, rev, value):
        o = self.call(f"SET /items/{key} value={value} IF REV {rev}")
        return o["ok"], o.get("code"), o.get("rev")


class HTTP:
    def __init__(self, port):
        self.base = f"http://127.0.0.1:{port}"

    def show(self, key):
        with urllib.request.urlopen(f"{self.base}/api/show?path=/items/{key}", timeout=10) as r:
            o = json.load(r)
        f = {d["field"]: d["value"] for d in o["data"]}
        return f["value"], f["rev"]

    def cas(self, key, rev, value):
        body = json.dumps({"args": [f"/items/{key}", f"value={value}", "IF", "REV", str(rev)]}).encode()
        req = urllib.request.Request(f"{self.base}/api/set", data=body, headers={"Content-Type": "application/json"})
        try:
            with urllib.request.urlopen(req, timeout=10) as r:
                o = json.load(r)
        except urllib.error.HTTPError as e:
            o = json.load(e)
        return o["ok"], o.get("code"), o.get("rev")


class RESP:
    def __init__(self, port):
        self.s = socket.create_connection(("127.0.0.1", port), timeout=10)
        self.f = self.s.makefile("rwb")

    def call(self, *words):
        out = b"*%d\r\n" % len(words) + b"".join(b"$%d\r\n%s\r\n" % (len(w.encode()), w.encode()) for w in words)
        self.f.write(out)
        self.f.flush()
        return self.read()

    def read(self):
        line = self.f.readline().rstrip(b"\r\n")
        t, rest = line[:1], line[1:]
        if t in (b"+", b"-"):
            return (t == b"+", rest.decode())
        if t == b"*":
            return [self.read() for _ in range(int(rest))]
        if t == b"$":
            data = self.f.read(int(rest) + 2)[:-2]
            return data.decode()
        raise ValueError(f"unexpected RESP {line!r}")

    def show(self, key):
        rows = self.call("SHOW", f"/items/{key}")
        f = dict(r.split(": ", 1) for r in rows)
        return int(f["value"].lstrip("$")), int(f["rev"])

    def cas(self, key, rev, value):
        ok, text = self.call("SET", f"/items/{key}", f"value={value}", "IF", "REV", str(rev))
        if ok:
            return True, None, int(text.rsplit("rev=", 1)[1])
        return False, text.split(" ", 1)[0], None


def client(kind, ports, keys, until, history, lock, seed):
    rng = random.Random(seed)
    c = {"line": lambda: Line(ports["line"]), "http": lambda: HTTP(ports["http"]), "resp": lambda: RESP(ports["line"])}[kind]()
    while time.monotonic() < until:
        key = rng.choice(keys)
        t0 = time.monotonic()
        value, rev = c.show(key)
        t1 = time.monotonic()
        with lock:
            history.append({"key": key, "op": "read", "value": value, "start": t0, "end": t1, "ok": True})
        t2 = time.monotonic()
        try:
            ok, code, got = c.cas(key, rev, value + 1)
        except (OSError, ValueError):
            ok, code, got = None, "LOST", None  # no answer: it may or may not have happened
        t3 = time.monotonic() if ok is not None else float("inf")
        if ok is False and code != "CONFLICT":
            raise SystemExit(f"FAIL: {kind} write refused with {code}, not CONFLICT")
        with lock:
            history.append({"key": key, "op": "cas", "from": value, "value": value + 1, "start": t2, "end": t3, "ok": ok, "rev": got})


def watcher(port, events, ready):
    w = Line(port)
    w.call("WATCH /items")
    ready.set()
    while True:
        text = w.f.readline()
        if not text:
            return
        if text.startswith(b"{"):
            o = json.loads(text)
            if o.get("push") == "event":
                events.append(o)


def linearizable(ops, first):
    """Wing & Gong's search over one key's operations, iterative, with Lowe's cache of the
    (placed operations, value) pairs already tried: is there an order, consistent with real
    time, in which a register starting at `first` explains every outcome? A read must see the
    value; an OK write must find its `from` and leaves its value; a refused one must not find
    it; one with no answer does what a compare-and-set does with the value it finds."""
    calls = []
    for i, o in enumerate(ops):
        calls.append((o["start"], 0, i))
        calls.append((o["end"], 1, i))
    calls.sort()
    # A doubly linked list of the entries, a head sentinel at 0.
    n = len(calls)
    nxt = list(range(1, n + 2))
    prv = list(range(-1, n))
    kind = [None] + [c[1] for c in calls]
    opof = [None] + [c[2] for c in calls]
    match = {}
    for pos in range(1, n + 1):
        match[(opof[pos], kind[pos])] = pos
    nxt[n] = None

    def lift(pos):
        r = match[(opof[pos], 1)]
        for p in (pos, r):
            nxt[prv[p]] = nxt[p]
            if nxt[p] is not None:
                prv[nxt[p]] = prv[p]

    def unlift(pos):
        r = match[(opof[pos], 1)]
        for p in (r, pos):
            nxt[prv[p]] = p
            if nxt[p] is not None:
                prv[nxt[p]] = p

    def step(state, o):
        if o["op"] == "read":
            return (o["value"] == state), state
        applies = state == o["from"]
        if o["ok"] is True:
            return applies, o["value"]
        if o["ok"] is False:
            return (not applies), state
        return True, (o["value"] if applies else state)

    cache = set()
    stack = []
    placed = 0
    state = first
    pos = nxt[0]
    while nxt[0] is not None:
        if pos is None:
            return False
        if kind[pos] == 0:
            i = opof[pos]
            ok, after = step(state, ops[i])
            key = (placed | (1 << i), after)
            if ok and key not in cache:
                cache.add(key)
                stack.append((pos, state))
                placed |= 1 << i
                state = after
                lift(pos)
                pos = nxt[0]
                continue
            pos = nxt[pos]
        else:
            if not stack:
                return False
            pos, state = stack.pop()
            placed &= ~(1 << opof[pos])
            unlift(pos)
            pos = nxt[pos]
    return True


def check(history, events, firsts, finals):
    """The checks, each a (name, passed, detail); no code shared with the server."""
    results = []
    for key, first in firsts.items():
        ops = [o for o in history if o["key"] == key]
        results.append((f"key {key}: linearizable ({len(ops)} operations)", linearizable(ops, first), ""))
        oks = sum(1 for o in ops if o["op"] == "cas" and o["ok"] is True)
        results.append((f"key {key}: no lost update ({first} + {oks} OK writes = {finals[key]})", first + oks == finals[key], ""))
    by_rev = {e["rev"]: e for e in events}
    revs = sorted(e["rev"] for e in events)
    gapless = revs == list(range(revs[0], revs[0] + len(revs))) if revs else True
    results.append((f"the watcher's {len(revs)} revisions have no gap and no repeat", gapless and len(set(revs)) == len(revs), ""))
    missing = [o for o in history if o["op"] == "cas" and o["ok"] is True and (o["rev"] not in by_rev or by_rev[o["rev"]]["value"]["value"] != o["value"] or by_rev[o["rev"]]["path"] != f"/items/{o['key']}")]
    results.append(("every acknowledged write is the watcher's event of its revision, with its value", not missing, f"{missing[:2]}"))
    return results


def run(args):
    work = tempfile.mkdtemp()
    store = ["--memory"] if args.store == "memory" else ["--data", os.path.join(work, "h.sqlite"), "--sync", "normal"]
    server = subprocess.Popen([os.path.join(BIN, "tabulad"), "--port", "0", "--http", "0", "--log-level", "warn"] + store, stdout=subprocess.PIPE, text=True)
    try:
        ports = {"line": int(server.stdout.readline()), "http": int(server.stdout.readline())}
        keys = list(range(1, args.keys + 1))
        probe = Line(ports["line"])
        firsts = {k: probe.show(k)[0] for k in keys}
        history, events, lock, ready = [], [], threading.Lock(), threading.Event()
        threading.Thread(target=watcher, args=(ports["line"], events, ready), daemon=True).start()
        if not ready.wait(10):
            raise SystemExit("FAIL: the watcher did not start")
        until = time.monotonic() + args.seconds
        kinds = ["line", "http", "resp"]
        threads = [threading.Thread(target=client, args=(kinds[i % 3], ports, keys, until, history, lock, args.seed + i), daemon=True) for i in range(args.clients)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(args.seconds + 30)
        finals = {k: probe.show(k)[0] for k in keys}
        # The watcher has every event once it has the last write's revision.
        last = max((o["rev"] for o in history if o["op"] == "cas" and o["ok"]), default=0)
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline and (not events or events[-1]["rev"] < last):
            time.sleep(0.02)
        return history, events, firsts, finals
    finally:
        server.terminate()
        server.wait(10)


def self_test(history, events, firsts, finals):
    """The checker must fail on each doctored history, and pass the one recorded."""
    def fails(name, h, e, f):
        passed = all(ok for _, ok, _ in check(h, e, firsts, f))
        if passed:
            raise SystemExit(f"FAIL: the checker passed a doctored history ({name})")
        print(f"ok - the checker fails a doctored history: {name}")

    key = next(k for k in firsts if any(o["key"] == k and o["op"] == "cas" and o["ok"] for o in history))
    ok_writes = [i for i, o in enumerate(history) if o["key"] == key and o["op"] == "cas" and o["ok"]]
    # A lost write: the server acknowledged it, but the final value lacks it.
    lost = dict(finals)
    lost[key] -= 1
    fails("a lost write (acknowledged, not in the final value)", history, events, lost)
    # A phantom: a read of a value nobody wrote.
    phantom = history + [{"key": key, "op": "read", "value": 10 ** 6, "start": history[-1]["end"] + 1, "end": history[-1]["end"] + 2, "ok": True}]
    fails("a phantom read", phantom, events, finals)
    # A stale read: after the last write completed, a read of the first value.
    end = max(o["end"] for o in history if o["end"] != float("inf"))
    stale = history + [{"key": key, "op": "read", "value": firsts[key], "start": end + 1, "end": end + 2, "ok": True}]
    fails("a stale read (the first value, after every write)", stale, events, finals)
    # A watcher gap: one acknowledged write's event missing.
    gone = history[ok_writes[len(ok_writes) // 2]]["rev"]
    fails("a watcher gap (an acknowledged write's event missing)", history, [e for e in events if e["rev"] != gone], finals)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--seconds", type=float, default=10)
    ap.add_argument("--clients", type=int, default=6)
    ap.add_argument("--keys", type=int, default=2)
    ap.add_argument("--store", choices=["memory", "sqlite"], default="memory")
    ap.add_argument("--seed", type=int, default=int(os.environ.get("TABULA_SEED", "1")))
    ap.add_argument("--self-test", action="store_true")
    args = ap.parse_args()
    history, events, firsts, finals = run(args)
    reads = sum(1 for o in history if o["op"] == "read")
    oks = sum(1 for o in history if o["op"] == "cas" and o["ok"] is True)
    refused = sum(1 for o in history if o["op"] == "cas" and o["ok"] is False)
    unknown = sum(1 for o in history if o["op"] == "cas" and o["ok"] is None)
    print(f"history ({args.store}, {args.clients} clients over line, HTTP and RESP, {args.seconds:g} s, seed {args.seed}): {reads} reads, {oks} writes OK, {refused} refused CONFLICT, {unknown} unanswered; {len(events)} events watched")
    for name, ok, detail in check(history, events, firsts, finals):
        if not ok:
            raise SystemExit(f"FAIL: {name} {detail} (seed {args.seed})")
        print(f"ok - {name}")
    if args.self_test:
        self_test(history, events, firsts, finals)


if __name__ == "__main__":
    main()
