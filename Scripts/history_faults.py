#!/usr/bin/env python3
"""The history checker under faults: a 3-node cluster on PostgreSQL, or SQLite killed.

    history_faults.py --store cluster|sqlite-kill [--seconds S] [--clients N] [--keys K]

cluster: three tabulad nodes share one PostgreSQL database (TABULA_TEST_POSTGRES, a
conninfo; a fresh database is made in it). Clients are spread over the nodes and over the
line protocol, HTTP and RESP. Meanwhile: node 1 or 2 is killed with SIGKILL and started
again, PostgreSQL is stopped with SIGSTOP for 4 s, every Tabula backend is terminated
(`pg_terminate_backend`), and commits wait 100 ms more (`commit_delay`).
sqlite-kill: one node on SQLite, killed with SIGKILL and started again on the same file.

A watcher on node 0 is cut every 0.3-1 s and resumes (`WATCH /items FROM rev`). The rules
checked, beside history-check.py's (no code shared with the server):
- writes (`IF REV`) are linearizable per key across nodes; a write refused `STORAGE` or
  `CONFLICT` happened nowhere (a node that reloaded may refuse a condition though nothing
  changed: a conflict too many, never an update lost), one answered `INDOUBT` or not at all
  may or may not have happened;
- reads on one node are of some state the cluster had, never newer than what was
  acknowledged or in doubt (no phantom), and on one connection to one node never go back
  (monotonic reads, the counters only grow);
- after `SYNC r` on another node, a client reads its own write there (causality through
  a revision);
- every acknowledged write is the watcher's event of its revision, once, with no gap.
Prints a line per check; exits 1 at the first failure, with the seed.
"""
import argparse, faulthandler, importlib.util, json, os, random, signal, socket, subprocess, sys, tempfile, threading, time

faulthandler.register(signal.SIGUSR1, all_threads=True)  # a run that hangs: kill -USR1 prints every thread
HERE = os.path.dirname(os.path.abspath(__file__))
spec = importlib.util.spec_from_file_location("history_check", os.path.join(HERE, "history-check.py"))
hc = importlib.util.module_from_spec(spec)
spec.loader.exec_module(hc)


def free_port():
    s = socket.socket(); s.bind(("127.0.0.1", 0)); p = s.getsockname()[1]; s.close(); return p


class Node:
    def __init__(self, store_flags):
        self.flags, self.line, self.http, self.p = store_flags, free_port(), free_port(), None
        self.start()

    def start(self):
        self.p = subprocess.Popen([os.path.join(hc.BIN, "tabulad"), "--port", str(self.line), "--http", str(self.http), "--log-level", "error"] + self.flags,
                                  stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            try:
                socket.create_connection(("127.0.0.1", self.http), timeout=1).close()
                return
            except OSError:
                time.sleep(0.02)
        raise SystemExit("FAIL: a node did not start within 30 s")

    def kill(self):
        self.p.send_signal(signal.SIGKILL); self.p.wait()

    def ports(self):
        return {"line": self.line, "http": self.http}


def with_db(conninfo, db):
    return " ".join(("dbname=" + db) if x.startswith("dbname=") else x for x in conninfo.split())


def psql(conninfo, *sql):
    kv = dict(x.split("=", 1) for x in conninfo.split())
    cmd = ["psql", "-h", kv["host"], "-p", kv["port"], "-U", kv.get("user", "postgres"), "-d", kv.get("dbname", "postgres"), "-qAt"]
    for s in sql:
        cmd += ["-c", s]
    return subprocess.run(cmd, capture_output=True, text=True, timeout=30).stdout


def outcome(c, key, rev, value):
    """A write's outcome: True, False (a refused compare), "noop" (STORAGE: not applied), or
    None (in doubt, or no answer)."""
    try:
        ok, code, got = c.cas(key, rev, value)
    except (OSError, ValueError, KeyError, json.JSONDecodeError):
        return None, None
    if ok:
        return True, got
    if code == "CONFLICT":
        return False, None
    if code in ("STORAGE", "TIMEOUT", "LIMIT"):
        return "noop", None
    return None, None  # INDOUBT, or anything else: either


def client(kind, nodes, i, keys, until, history, syncs, lock, seed):
    rng = random.Random(seed)
    node = nodes[i % len(nodes)]
    make = {"line": lambda: hc.Line(node.line), "http": lambda: hc.HTTP(node.http), "resp": lambda: hc.RESP(node.line)}[kind]
    c, conn_id = None, 0
    while time.monotonic() < until:
        try:
            if c is None:
                c, conn_id = make(), conn_id + 1
            key = rng.choice(keys)
            t0 = time.monotonic(); value, rev = c.show(key); t1 = time.monotonic()
        except (OSError, ValueError, KeyError, json.JSONDecodeError):
            c = None; time.sleep(0.05); continue
        with lock:
            history.append({"key": key, "op": "read", "value": value, "start": t0, "end": t1, "ok": True, "conn": (seed, conn_id)})
        t2 = time.monotonic()
        ok, got = outcome(c, key, rev, value + 1)
        if ok is None:
            c = None
        with lock:
            history.append({"key": key, "op": "cas", "from": value, "value": value + 1, "start": t2, "end": time.monotonic() if ok is not None else float("inf"), "ok": ok, "rev": got})
        if ok is True and kind == "line" and rng.random() < 0.2:
            other = nodes[(i + 1) % len(nodes)]
            try:
                o = hc.Line(other.line)
                if o.call(f"SYNC {got} TIMEOUT 5000")["ok"]:
                    seen, _ = o.show(key)
                    with lock:
                        syncs.append((key, value + 1, seen))
            except (OSError, ValueError, KeyError, json.JSONDecodeError):
                pass


def watcher(node, events, stop, ready, seed):
    """Cut every 0.3-1 s and resumed from the highest revision seen."""
    rng, last = random.Random(seed), None
    while not stop.is_set():
        try:
            w = hc.Line(node.line)
            w.s.settimeout(0.2)
            w.call("WATCH /items" + (f" FROM {last}" if last is not None else ""))
            ready.set()
            cut = time.monotonic() + rng.uniform(0.3, 1.0)
            while time.monotonic() < cut or stop.is_set() and time.monotonic() < cut + 5:
                try:
                    text = w.f.readline()
                except (socket.timeout, TimeoutError):
                    if stop.is_set():
                        break
                    continue
                if not text:
                    break
                if text.startswith(b"{"):
                    o = json.loads(text)
                    if o.get("push") == "event" and o["path"].startswith("/items/"):
                        events.append(o)
                        last = o["rev"]
                    elif o.get("push") == "synced":
                        last = max(last or 0, o["rev"])
            w.s.close()
        except (OSError, ValueError):
            time.sleep(0.05)


def faults(kind, nodes, conninfo, until, log):
    rng = random.Random(7)
    step = 0
    while time.monotonic() < until - 2:
        time.sleep(rng.uniform(1.0, 2.0))
        step += 1
        if kind == "sqlite-kill" or step % 4 == 1:
            n = nodes[-1] if kind == "sqlite-kill" else nodes[1 + step % 2]
            n.kill(); time.sleep(0.2); n.start(); log.append("kill -9 and restart a node")
        elif step % 4 == 2:
            pids = [int(x) for x in subprocess.run(["pgrep", "-u", "postgres", "postgres"], capture_output=True, text=True).stdout.split()]
            for p in pids:
                os.kill(p, signal.SIGSTOP)
            time.sleep(4)
            for p in pids:
                os.kill(p, signal.SIGCONT)
            log.append("PostgreSQL stopped 4 s")
        elif step % 4 == 3:
            psql(conninfo, "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()")
            log.append("backends terminated")
        else:
            psql(with_db(conninfo, "postgres"), "ALTER SYSTEM SET commit_delay = 100000", "SELECT pg_reload_conf()")
            log.append("commit_delay 100 ms")


def check_reads(history, syncs, firsts):
    results = []
    for key, first in firsts.items():
        writes = [o for o in history if o["key"] == key and o["op"] == "cas"]
        possible = first + sum(1 for o in writes if o["ok"] is True or o["ok"] is None)
        reads = [o for o in history if o["key"] == key and o["op"] == "read"]
        # A CONFLICT is a write that did nothing, not proof that the compare failed: a node that
        # reloaded (after a restart, or a commit it could not confirm) gives every entry the
        # revision it loaded, so a condition read before refuses though nothing changed the
        # entry (Protocol.md, IF REV: a conflict too many, never an update lost).
        taken = [o for o in writes if o["ok"] is True or o["ok"] is None]
        results.append((f"key {key}: writes linearizable across nodes ({len(taken)} taken or in doubt)", hc.linearizable(taken, first), ""))
        results.append((f"key {key}: no read newer than the writes acknowledged or in doubt ({len(reads)} reads, at most {possible})", all(first <= o["value"] <= possible for o in reads), ""))
        highest, back = {}, []
        for o in sorted(reads, key=lambda o: o["start"]):
            if highest.get(o["conn"], o["value"]) > o["value"]:
                back.append(o)
            highest[o["conn"]] = max(highest.get(o["conn"], o["value"]), o["value"])
        results.append((f"key {key}: reads on one connection never go back", not back, f"{back[:2]}"))
    results.append((f"after SYNC to its revision on another node, a client reads its own write ({len(syncs)} times)", all(seen >= mine for _, mine, seen in syncs), f"{[s for s in syncs if s[2] < s[1]][:3]}"))
    return results


def check_writes(history, events, firsts, finals):
    """No lost update, and every acknowledged write watched, with writes in doubt allowed."""
    results = []
    for key, first in firsts.items():
        oks = sum(1 for o in history if o["key"] == key and o["op"] == "cas" and o["ok"] is True)
        doubt = sum(1 for o in history if o["key"] == key and o["op"] == "cas" and o["ok"] is None)
        results.append((f"key {key}: no lost update ({first} + {oks} OK writes <= {finals[key]} <= that + {doubt} in doubt)", first + oks <= finals[key] <= first + oks + doubt, ""))
    revs = sorted(e["rev"] for e in events)
    results.append((f"the watcher's {len(revs)} revisions, over its resumes, have no gap and no repeat", revs == list(range(revs[0], revs[0] + len(revs))) if revs else True, ""))
    by_rev = {e["rev"]: e for e in events}
    missing = [o for o in history if o["op"] == "cas" and o["ok"] is True and (o["rev"] not in by_rev or by_rev[o["rev"]]["value"]["value"] != o["value"] or by_rev[o["rev"]]["path"] != f"/items/{o['key']}")]
    results.append(("every acknowledged write is the watcher's event of its revision, with its value", not missing, f"{missing[:2]}"))
    return results


def self_test(history, syncs, events, firsts, finals):
    """The checks must fail on doctored histories: a read that goes back on its connection, a
    read after SYNC that misses the client's own write, a lost update among writes in doubt."""
    def fails(name, results):
        if all(ok for _, ok, _ in results):
            raise SystemExit(f"FAIL: the checker passed a doctored history ({name})")
        print(f"ok - the checker fails a doctored history: {name}")

    read = next(o for o in reversed(history) if o["op"] == "read" and o["value"] > firsts[o["key"]])
    back = history + [dict(read, value=firsts[read["key"]], start=read["end"] + 1, end=read["end"] + 2)]
    fails("a read that goes back on one connection", check_reads(back, syncs, firsts))
    fails("a read after SYNC without the client's own write", check_reads(history, syncs + [(1, 10 ** 6, 0)], firsts))
    taken = next(o for o in history if o["op"] == "cas" and o["ok"] is True)
    twice = history + [dict(taken, start=max(o["start"] for o in history) + 1, end=max(o["start"] for o in history) + 2, rev=None)]
    fails("a write taken twice from the same value (a lost update)", check_reads(twice, syncs, firsts))
    key = next(iter(firsts))
    fails("a lost update among writes in doubt", check_writes(history, events, firsts, {**finals, key: firsts[key]}))


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--store", choices=["cluster", "sqlite-kill"], default="cluster")
    ap.add_argument("--seconds", type=float, default=20)
    ap.add_argument("--clients", type=int, default=9)
    ap.add_argument("--keys", type=int, default=2)
    ap.add_argument("--seed", type=int, default=int(os.environ.get("TABULA_SEED", "1")))
    ap.add_argument("--self-test", action="store_true", help="also require the checks to fail on doctored histories")
    args = ap.parse_args()
    work, conninfo = tempfile.mkdtemp(), os.environ.get("TABULA_TEST_POSTGRES", "")
    if args.store == "cluster":
        if not conninfo:
            raise SystemExit("history_faults.py --store cluster needs TABULA_TEST_POSTGRES (Scripts/test starts a private PostgreSQL)")
        db = "tabula_history_%d" % os.getpid()
        psql(conninfo, f"CREATE DATABASE {db}")
        conninfo = with_db(conninfo, db)
        nodes = [Node(["--postgres", conninfo])]
        nodes += [Node(["--postgres", conninfo]) for _ in range(2)]
    else:
        nodes = [Node(["--data", os.path.join(work, "h.sqlite"), "--sync", "full"])]
    history, syncs, events, lock, log, stop, ready = [], [], [], threading.Lock(), [], threading.Event(), threading.Event()
    try:
        keys = list(range(1, args.keys + 1))
        probe = hc.Line(nodes[0].line)
        firsts = {k: probe.show(k)[0] for k in keys}
        threading.Thread(target=watcher, args=(nodes[0], events, stop, ready, args.seed), daemon=True).start()
        if not ready.wait(10):
            raise SystemExit("FAIL: the watcher did not start")
        until = time.monotonic() + args.seconds
        kinds = ["line", "http", "resp"]
        threads = [threading.Thread(target=client, args=(kinds[i % 3], nodes, i, keys, until, history, syncs, lock, args.seed * 100 + i), daemon=True) for i in range(args.clients)]
        threads.append(threading.Thread(target=faults, args=(args.store, nodes, conninfo, until, log), daemon=True))
        for t in threads:
            t.start()
        for t in threads:
            t.join(args.seconds + 60)
        last = max((o["rev"] for o in history if o["op"] == "cas" and o["ok"] is True), default=0)
        probe = hc.Line(nodes[0].line)
        probe.call(f"SYNC {last} TIMEOUT 30000")
        finals = {k: probe.show(k)[0] for k in keys}
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline and (not events or max(e["rev"] for e in events) < last):
            time.sleep(0.05)
        stop.set()
    finally:
        for n in nodes:
            n.p.terminate(); n.p.wait(10)
        if args.store == "cluster":  # PostgreSQL's setting outlives the run: always put back
            psql(with_db(conninfo, "postgres"), "ALTER SYSTEM RESET commit_delay", "SELECT pg_reload_conf()")
    count = lambda f: sum(1 for o in history if o["op"] == "cas" and f(o["ok"]))
    print(f"history ({args.store}, {len(nodes)} node(s), {args.clients} clients, {args.seconds:g} s, seed {args.seed}): "
          f"{sum(1 for o in history if o['op'] == 'read')} reads, {count(lambda k: k is True)} writes OK, {count(lambda k: k is False)} CONFLICT, "
          f"{count(lambda k: k == 'noop')} refused STORAGE, {count(lambda k: k is None)} in doubt or unanswered; {len(events)} events watched; faults: {len(log)} ({', '.join(sorted(set(log)))})")
    results = check_reads(history, syncs, firsts) + check_writes(history, events, firsts, finals)
    for name, ok, detail in results:
        if not ok:
            kept = os.path.join(work, "history.json")
            with open(kept, "w") as f:
                json.dump({"history": [dict(o, end=None if o["end"] == float("inf") else o["end"]) for o in history], "events": events, "firsts": firsts, "finals": finals, "faults": log}, f)
            raise SystemExit(f"FAIL: {name} {detail} (seed {args.seed}, store {args.store}; the history is in {kept})")
        print(f"ok - {name}")
    if args.self_test:
        self_test(history, syncs, events, firsts, finals)


if __name__ == "__main__":
    main()
