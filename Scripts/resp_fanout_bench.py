"""Scripts/bench --resp-fanout: what one change costs the server while RESP subscribers of
one prefix receive it. 2,000 connections each `SUBSCRIBE /orders` (RESP2 and RESP3 alike,
half each), in a process of their own that reads everything; one writer makes 2,000 ORDERs
over the line protocol, each answered before the next. Reported: the server's CPU per
change (its /proc user+system time over the writes, over the changes) and per delivery,
beside each --against build or --variant, the runs alternating, medians."""
import multiprocessing, selectors, socket, statistics, time

from bench_common import cpu_seconds

SUBSCRIBERS = 2000
CHANGES = 2000


def subscribers(port, n, ready, stop, out):
    """`n` RESP subscribers of /orders; counts the messages after `ready` until `stop`."""
    sel = selectors.DefaultSelector()
    for i in range(n):
        s = socket.create_connection(("127.0.0.1", port))
        hello = b"*2\r\n$5\r\nHELLO\r\n$1\r\n3\r\n" if i % 2 else b""
        s.sendall(hello + b"*2\r\n$9\r\nSUBSCRIBE\r\n$7\r\n/orders\r\n")
        s.setblocking(False)
        sel.register(s, selectors.EVENT_READ)
    counting, messages = False, 0
    while not stop.is_set():
        if not counting and ready.is_set():
            counting, messages = True, 0
        for key, _ in sel.select(0.05):
            try:
                data = key.fileobj.recv(1 << 20)
            except BlockingIOError:
                continue
            if counting:
                messages += data.count(b"$7\r\nmessage\r\n")
        if counting:
            out.put(messages)
            messages = 0
    out.put(None)


def watches(port):
    s = socket.create_connection(("127.0.0.1", port))
    f = s.makefile("rb")
    f.readline()
    s.sendall(b"STATS\n")
    n = 0
    while not (line := f.readline()).startswith(b"OK"):
        if line.startswith(b"- watches: "):
            n = int(line.split()[-1])
    s.close()
    return n


def writer(port, changes):
    s = socket.create_connection(("127.0.0.1", port))
    f = s.makefile("rb")
    f.readline()
    for _ in range(changes):
        s.sendall(b"ORDER margherita\n")
        while not f.readline().startswith((b"OK", b"ERR")):
            pass
    s.close()


def one(start_tabulad, flags, binary):
    p, port = start_tabulad("--memory", "--max-connections-per-ip", "0", "--history", "1000", *flags, binary=binary)
    try:
        ready, stop, out = multiprocessing.Event(), multiprocessing.Event(), multiprocessing.Queue()
        v = multiprocessing.Process(target=subscribers, args=(port, SUBSCRIBERS, ready, stop, out), daemon=True)
        v.start()
        deadline = time.time() + 60
        while watches(port) < SUBSCRIBERS and time.time() < deadline:
            time.sleep(0.05)  # polling a real signal (STATS) with a deadline
        ready.set()
        cpu0 = cpu_seconds(p.pid)
        writer(port, CHANGES)
        delivered, want = 0, SUBSCRIBERS * CHANGES
        while delivered < want and time.time() < deadline + 120:
            got = out.get(timeout=60)
            delivered += got or 0
        cpu = cpu_seconds(p.pid) - cpu0
        stop.set()
        v.join(5)
        return cpu, delivered
    finally:
        p.terminate(); p.wait()


def run(runs, start_tabulad, variants=()):
    servers = [("tabula", (), None)] + [(label, () if binary else tuple(label.split()), binary) for label, binary in variants]
    res = {name: [] for name, *_ in servers}
    for _ in range(runs):
        for name, flags, binary in servers:
            res[name].append(one(start_tabulad, flags, binary))
    print("\nRESP fan-out: %d subscribers of /orders (half RESP3), %d changes, one writer at P=1; medians of %d alternating runs" % (SUBSCRIBERS, CHANGES, runs))
    print("| server | server CPU per change | per delivery | deliveries |")
    print("|---|---|---|---|")
    for name, *_ in servers:
        cpu = statistics.median(c for c, _ in res[name])
        got = statistics.median(d for _, d in res[name])
        print("| %s | %.2f ms | %.2f µs | %.0f |" % (name, cpu / CHANGES * 1e3, cpu / max(1, got) * 1e6, got), flush=True)
