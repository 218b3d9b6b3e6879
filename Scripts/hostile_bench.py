"""The third hostile round's attacks, each with another client's PING while it runs
(Scripts/bench --attacks). Each prints its figure and what bounds it."""
import os
import socket
import subprocess
import time

from bench_common import conn, cpu_seconds, ping_ms, reply, rss_mb, users_file


def fill_items(port, n, user=b"admin"):
    """Adds n items (pipelined in thousands) as `user`."""
    a, af = conn(port)
    a.sendall(b"AUTH %s pw\n" % user); reply(af)
    for start in range(0, n, 1000):
        a.sendall(b"".join(b"ADD /items i%d %d\n" % (start + i, (start + i) % 100) for i in range(1000)))
        for _ in range(1000):
            reply(af)
    return a, af


def restricted_reads(rel, start_tabulad, work, items=1000000):
    """A user with path grants pipelines 128 LS /items LIMIT 1 AFTER k (distinct k, so no
    cache answers) over `items` items; another client's PING meanwhile."""
    users = users_file(os.path.join(rel, "tabulad"), os.path.join(work, "hostile-users.txt"),
                       [("admin", "admin", []), ("ci", "read", ["--allow", "/items", "--deny", "/items/3"])],
                       secret=lambda name: "pw")
    p, port = start_tabulad("--memory", "--users", users, "--history", "1000")
    try:
        a, af = fill_items(port, items)
        r, rf = conn(port)
        r.sendall(b"AUTH ci pw\n"); reply(rf)
        one = []
        for k in range(20):
            t = time.time(); r.sendall(b"LS /items LIMIT 1 AFTER %d\n" % (1000 + k)); reply(rf); one.append((time.time() - t) * 1000)
        one.sort()
        r.sendall(b"".join(b"LS /items LIMIT 1 AFTER %d\n" % (5000 + k) for k in range(128)))
        reply(rf)  # the reads have begun
        # A write meanwhile: it needs the lock the restricted reads hold (a PING takes none).
        t = time.time(); a.sendall(b"SELECT /settings/my-int #2\n"); reply(af); write = (time.time() - t) * 1000
        for _ in range(127):
            reply(rf)
        p50, worst = ping_ms(a, af)
        print("Restricted reads (a user with grants, LS /items LIMIT 1 AFTER k over %d items): one request p50 %.2f ms;"
              " 128 pipelined, another client's write meanwhile %.2f ms, then PING p50 %.2f ms, max %.2f ms" % (items, one[len(one) // 2], write, p50, worst))
    finally:
        p.terminate(); p.wait()


def unread_pages(rel, start_tabulad, work, conns=800):
    """`conns` connections each ask for a 10 MB page (10,000 items of 1,000-byte names) and
    never read; the server's RSS and another client's PING meanwhile."""
    p, port = start_tabulad("--memory", "--max-connections-per-ip", "0")
    try:
        a, af = conn(port)
        name = b"n" * 1000
        for start in range(0, 10000, 1000):
            a.sendall(b"".join(b"ADD /items %s%d %d\n" % (name, start + i, i % 100) for i in range(1000)))
            for _ in range(1000):
                reply(af)
        before = rss_mb(p.pid)
        attackers = []
        for k in range(conns):
            s, _ = conn(port)
            s.sendall(b"LS /items LIMIT 10000 AFTER %d\n" % (k + 1))
            attackers.append(s)
        peak, worst = before, 0.0
        for _ in range(20):  # sampled for 4 s
            time.sleep(0.2)
            peak = max(peak, rss_mb(p.pid))
            worst = max(worst, ping_ms(a, af, 5)[1])
        a.sendall(b"STATS\n")
        held = 0
        while True:
            l = af.readline()
            if l.startswith(b"- unread_output_peak_bytes: "):
                held = int(l.split(b": ")[1])
            if not l or l.startswith(b"OK") or l.startswith(b"ERR"):
                break
        print("Unread pages (%d connections each ask for a different 10 MB page and never read): RSS %d MB before, peak %d MB;"
              " unread output at most %d MB (bound 256 MiB); another client's PING max %.2f ms" % (conns, before, peak, held >> 20, worst))
        for s in attackers:
            s.close()
    finally:
        p.terminate(); p.wait()


def stalled_replays(rel, start_tabulad, work, conns=600, seconds=20, changes=200000, binary=None):
    """`conns` connections each send WATCH / FROM 0 over a history of `changes` (SQLite),
    never read, and are reopened every 10 s; the server's CPU seconds in the window and
    another client's PING (one every 10 ms: p50, p99, max)."""
    path = os.path.join(work, "stalled-%d.sqlite" % os.getpid())
    for f in (path, path + "-wal", path + "-shm"):
        if os.path.exists(f):
            os.remove(f)
    p, port = start_tabulad("--data", path, "--sync", "normal", "--history", "1000000", "--max-connections-per-ip", "0", binary=binary)
    try:
        a, af = conn(port)
        for start in range(0, changes, 10000):
            a.sendall(b"".join(b"FAV /items/%d\n" % (1 + i % 4) for i in range(10000)))
            for _ in range(10000):
                reply(af)
        attackers, lat = [], []
        cpu0, t0, opened = cpu_seconds(p.pid), time.time(), 0.0
        while time.time() - t0 < seconds:
            if time.time() - opened >= 10:
                for s in attackers:
                    s.close()
                attackers = []
                for _ in range(conns):
                    s = socket.create_connection(("127.0.0.1", port))
                    s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
                    s.sendall(b"WATCH / FROM 0\n")
                    attackers.append(s)
                opened = time.time()
            t = time.time(); a.sendall(b"PING\n"); reply(af); lat.append((time.time() - t) * 1000)
            time.sleep(0.01)
        cpu = cpu_seconds(p.pid) - cpu0
        wall = time.time() - t0
        lat.sort()
        print("Stalled replays (%d connections WATCH / FROM 0 over %d changes, never read, reopened every 10 s, %.0f s): server CPU %.1f s"
              " (%.0f%% of one core); another client's PING p50 %.2f ms, p99 %.2f ms, max %.2f ms"
              % (conns, changes, wall, cpu, 100 * cpu / wall, lat[len(lat) // 2], lat[int(len(lat) * 0.99)], lat[-1]), flush=True)
        for s in attackers:
            s.close()
    finally:
        p.terminate(); p.wait()


def clients_scrape(rel, start_tabulad, work, conns=5000, seconds=10, binary=None):
    """`conns` idle connections, and a client that GETs /clients in a loop on one kept-alive
    connection; another client's PING (one every 10 ms) and the server's CPU meanwhile."""
    import threading
    p, port = start_tabulad("--memory", "--http", "0", "--max-connections-per-ip", "0", "--max-connections", str(conns * 2 + 100), binary=binary)
    try:
        http = int(p.stdout.readline())
        idle = [socket.create_connection(("127.0.0.1", port)) for _ in range(conns)]
        a, af = conn(port)
        stop, scrapes = threading.Event(), [0]

        def scrape():
            s = socket.create_connection(("127.0.0.1", http))
            f = s.makefile("rb")
            while not stop.is_set():
                s.sendall(b"GET /clients HTTP/1.1\r\nHost: localhost\r\n\r\n")
                length = 0
                while (line := f.readline()) not in (b"\r\n", b""):
                    if line.lower().startswith(b"content-length:"):
                        length = int(line.split(b":")[1])
                f.read(length)
                scrapes[0] += 1
        t = threading.Thread(target=scrape, daemon=True)
        cpu0, t0, lat = cpu_seconds(p.pid), time.time(), []
        t.start()
        while time.time() - t0 < seconds:
            t1 = time.time(); a.sendall(b"PING\n"); reply(af); lat.append((time.time() - t1) * 1000)
            time.sleep(0.01)
        stop.set(); t.join(5)
        cpu, wall = cpu_seconds(p.pid) - cpu0, time.time() - t0
        lat.sort()
        print("/clients scraped in a loop with %d connections open (%.0f s): %.0f scrapes/s, server CPU %.1f s (%.0f%% of one core);"
              " another client's PING p50 %.2f ms, p99 %.2f ms, max %.2f ms"
              % (conns, wall, scrapes[0] / wall, cpu, 100 * cpu / wall, lat[len(lat) // 2], lat[int(len(lat) * 0.99)], lat[-1]), flush=True)
        for s in idle:
            s.close()
    finally:
        p.terminate(); p.wait()


def run(rel, start_tabulad, work, quick=False):
    restricted_reads(rel, start_tabulad, work, 100000 if quick else 1000000)
    unread_pages(rel, start_tabulad, work, 100 if quick else 800)
    stalled_replays(rel, start_tabulad, work, 200 if quick else 600)
    clients_scrape(rel, start_tabulad, work, 1000 if quick else 5000)
