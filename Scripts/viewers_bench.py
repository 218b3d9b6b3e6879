"""Scripts/bench --viewers: what one change costs while 1,000 viewers keep a list, as the
list grows from 1,000 to 100,000 items. One writer makes 200 changes a second (SET, FAV and
MV of random items) for 15 s; the viewers are 1,000 connections, each `FORMAT json` and
`WATCH /items SNAPSHOT`, in a process of their own. Reported: the server's CPU per change,
the bytes each viewer is sent per change, and the viewers' process CPU per change. The
viewers watch without a snapshot (a snapshot is paid once, not per change: one viewer's is
timed apart, its rows and bytes).

"before" is what a view that reads its list again on each change costs (as the web page and
the terminal view did): each viewer answers every event with `LS /items LIMIT 1000`.
"restricted" viewers log in as a user denied a few items: their events carry positions in
their own view, found by the write for that user's grants."""
import multiprocessing, os, random, selectors, socket, time

from floods_bench import fill
from bench_common import cpu_seconds, users_file

VIEWERS = 1000
RATE = 200
SECONDS = 15


def viewers(port, n, rereads, ready, stop, out, login=b""):
    """`n` viewer connections, each after `login`; counts bytes and events after `ready` until `stop`."""
    sel = selectors.DefaultSelector()
    socks = []
    for _ in range(n):
        s = socket.create_connection(("127.0.0.1", port))
        s.sendall(login + b"FORMAT json\nWATCH /items\n")
        s.setblocking(False)
        sel.register(s, selectors.EVENT_READ)
        socks.append(s)
    counting, got, events = False, 0, 0
    cpu0 = time.process_time()
    while not stop.is_set():
        if not counting and ready.is_set():
            counting, got, events, cpu0 = True, 0, 0, time.process_time()
        for key, _ in sel.select(0.05):
            try:
                data = key.fileobj.recv(1 << 20)
            except BlockingIOError:
                continue
            if counting:
                got += len(data)
                k = data.count(b'"push":"event"')
                events += k
                if rereads and k:
                    key.fileobj.sendall(b"LS /items LIMIT 1000\n" * k)
    out.put((got, events, time.process_time() - cpu0))


def writer(port, items, seconds, stop, login=b""):
    """RATE changes a second of random items, each answered before the next."""
    s = socket.create_connection(("127.0.0.1", port))
    f = s.makefile("rb")
    if login:
        s.sendall(login)
        while not f.readline().startswith((b"OK", b"ERR")):
            pass
    rng, t0, made = random.Random(7), time.time(), 0
    while time.time() - t0 < seconds and not stop.is_set():
        i = rng.randint(1, items)
        line = rng.choice([b"SET /items/%d value=%d\n" % (i, rng.randint(1, 99)), b"FAV /items/%d\n" % i, b"MV /items/%d 1\n" % i])
        s.sendall(line)
        while not f.readline().startswith((b"OK", b"ERR")):
            pass
        made += 1
        time.sleep(max(0, t0 + made / RATE - time.time()))


def one(start_tabulad, items, rereads, users=None):
    """`users`: a users file of `admin` and `viewer`, whom the viewers log in as."""
    logins = (b"AUTH admin pw-admin\n", b"AUTH viewer pw-viewer\n") if users else (b"", b"")
    p, port = start_tabulad("--memory", "--max-connections-per-ip", "0", "--history", "1000", *(["--users", users] if users else []))
    try:
        fill(port, items, logins[0])
        ready, stop, out = multiprocessing.Event(), multiprocessing.Event(), multiprocessing.Queue()
        v = multiprocessing.Process(target=viewers, args=(port, VIEWERS, rereads, ready, stop, out, logins[1]), daemon=True)
        v.start()
        time.sleep(3)  # every viewer watching
        ready.set()
        cpu0 = cpu_seconds(p.pid)
        w = multiprocessing.Process(target=writer, args=(port, items, SECONDS, stop, logins[0]), daemon=True)
        w.start()
        w.join()
        time.sleep(1)  # the last events delivered
        cpu = cpu_seconds(p.pid) - cpu0
        stop.set()
        got, events, vcpu = out.get(timeout=60)
        v.join(5)
        changes = events / VIEWERS if events else 0
        return cpu, got, changes, vcpu
    finally:
        p.terminate(); p.wait()


def snapshot(start_tabulad, items):
    """One viewer's `WATCH /items SNAPSHOT` of `items`: seconds until its SYNCED, bytes."""
    p, port = start_tabulad("--memory")
    try:
        fill(port, items)
        s = socket.create_connection(("127.0.0.1", port))
        t0, got, buf = time.time(), 0, b""
        s.sendall(b"FORMAT json\nWATCH /items SNAPSHOT\n")
        while b'"push":"synced"' not in buf:
            data = s.recv(1 << 20)
            got += len(data)
            buf = buf[-64:] + data
        return time.time() - t0, got
    finally:
        p.terminate(); p.wait()


def run(start_tabulad):
    for items in (1000, 100000):
        secs, got = snapshot(start_tabulad, items)
        print("one snapshot of %d items: %.3f s, %.1f MB (%.0f bytes a row)" % (items, secs, got / 1e6, got / items), flush=True)
    print("| views | items | changes | server CPU per change | bytes per change per viewer | viewers' CPU per change |")
    print("|---|---|---|---|---|---|")
    base = {}
    p, _ = start_tabulad("--memory")
    binary = os.readlink("/proc/%d/exe" % p.pid)
    p.terminate(); p.wait()
    users = users_file(binary, "/tmp/tabula-viewers-users",
                       [("admin", "admin", []), ("viewer", "read", ["--deny", "/items/3", "--deny", "/items/500", "--deny", "/items/77"])])
    for rereads, restricted in ((False, False), (False, True), (True, False)):
        for items in (1000, 100000):
            cpu, got, changes, vcpu = one(start_tabulad, items, rereads, users if restricted else None)
            per = cpu / changes * 1e3 if changes else float("nan")
            base.setdefault((rereads, restricted), per)
            name = "read again per event (before)" if rereads else "restricted, patched from events" if restricted else "patched from events"
            print("| %s | %d | %.0f | %.2f ms (%.2fx) | %.0f | %.2f ms |" % (
                name, items, changes, per, per / base[(rereads, restricted)], got / max(1, changes) / VIEWERS, vcpu / max(1, changes) * 1e3), flush=True)
