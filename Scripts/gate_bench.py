"""The fifth hostile round's attacks on the gate and the budget (Scripts/bench --gate, and
part of --attacks): each prints its figure against its bar. With --against, the same
attacks on another build, in turn, so that before and after are measured in one run.

  a page's text/plain POST to --resp-port    bar: nothing it sends runs
  150 unread connections x 4 inline 64 KB SUBSCRIBE lines   bar: RSS within a few hundred MB
  100 open transactions of 128 x 65 KB ADDs, never EXECed   bar: RSS within a few hundred MB
  300 connections: a SYNC that waits, then 1 MB of PINGs    bar: RSS bounded, PING < 50 ms
  eight wrong passwords in a row from one address           bar: each refused within 2 s
  200 writers refused for size on a full store, each once a second   bar: others' writes < 50 ms
  a title changed in a loop in a catalog of 100,000 nodes    bar: the write costs its part
  a title changed in a loop under one branch of 100,000 children   bar: the write costs its part
  6 unread snapshots of /orders, 200,000 items all renamed after each   bar: RSS within a few hundred MB
  4 snapshots of a branch of 50,000 children by a user with a deny in it   bar: PING < 50 ms
  64 unread snapshots by one read-only user; that user and another then ask   bar: granted within seconds
  LS /orders pages over 100,000 orders by a user denied one menu entry   bar: a page costs the page
  a TLS login while 4 processes handshake over TLS and hang up   bar: a login < 2 s
"""
import multiprocessing
import os
import socket
import ssl
import subprocess
import threading
import time


from bench_common import conn, handshaker, pipelined, ping_ms, reply, rss_mb, self_signed_cert, users_file
from bench_common import start_server as start
import grants_bench


def fresh_db(work, name):
    """A path in `work` for a new SQLite store, with no file of an earlier run left."""
    db = "%s/%s-%d.sqlite" % (work, name, os.getpid())
    for f in (db, db + "-wal", db + "-shm"):
        if os.path.exists(f):
            os.remove(f)
    return db


def senders(port, payloads, first=None):
    """One connection per payload, each sent from a thread of its own (blocking sends: a
    server that stops reading holds the sender, not this script); never read."""
    socks = []

    def send(s, data):
        try:
            if first:
                s.sendall(first)
                time.sleep(0.05)  # so that the first request is read on its own
            s.sendall(data)
        except OSError:
            pass

    threads = []
    for data in payloads:
        s = socket.create_connection(("127.0.0.1", port))
        s.settimeout(20)
        socks.append(s)
        t = threading.Thread(target=send, args=(s, data), daemon=True)
        t.start()
        threads.append(t)
    return socks, threads


def web_post(binary):
    p, port, resp = start(binary)
    try:
        body = b"ADD /items pwned 1\nSELECT /settings/my-int #3\n"
        s = socket.create_connection(("127.0.0.1", resp))
        s.sendall(b"POST / HTTP/1.1\r\nHost: localhost:%d\r\nOrigin: http://localhost:9\r\nContent-Type: text/plain\r\n"
                  b"Content-Length: %d\r\n\r\n%s" % (resp, len(body), body))
        s.settimeout(5)
        try:
            while s.recv(65536):
                pass
        except OSError:
            pass
        c, f = conn(port)
        c.sendall(b"LS /items\n")
        listed = b""
        while True:
            l = f.readline()
            listed += l
            if l.startswith(b"OK") or l.startswith(b"ERR") or not l:
                break
        ran = b"pwned" in listed
        return "a page's POST to --resp-port: its body %s (bar: nothing runs)" % ("RAN" if ran else "did not run")
    finally:
        p.kill()


def inline_elements(binary, conns=150, lines=4):
    p, port, resp = start(binary)
    try:
        c, f = conn(port)
        base = rss_mb(p.pid)
        line = b"SUBSCRIBE" + b" /" * 32_000 + b"\r\n"
        socks, _ = senders(resp, [line * lines] * conns)
        time.sleep(3)
        worst = ping_ms(c, f, 50)[1]
        peak = rss_mb(p.pid)
        for s in socks:
            s.close()
        return ("%d unread connections x %d inline SUBSCRIBE lines of 32,000 prefixes: RSS %d -> %d MB, another"
                " client's PING max %.1f ms (bar: a few hundred MB, 50 ms)" % (conns, lines, base, peak, worst))
    finally:
        p.kill()


def open_transactions(binary, conns=100):
    p, port, resp = start(binary, "--stall-timeout", "5")
    try:
        c, f = conn(port)
        base = rss_mb(p.pid)
        add = b"ADD /items " + b"x" * 65_000 + b" 5\n"
        socks, _ = senders(port, [b"\nMULTI\n" + add * 128] * conns)
        time.sleep(3)
        peak = rss_mb(p.pid)
        worst = ping_ms(c, f, 50)[1]
        time.sleep(4)  # past --stall-timeout 5 from the MULTIs
        after = rss_mb(p.pid)
        for s in socks:
            s.close()
        return ("%d open transactions of 128 x 65 KB ADDs, never EXECed: RSS %d -> %d MB (%d MB after --stall-timeout 5),"
                " another client's PING max %.1f ms (bar: a few hundred MB)" % (conns, base, peak, after, worst))
    finally:
        p.kill()


def sync_holds(binary, conns=300):
    p, port, resp = start(binary)
    try:
        c, f = conn(port)
        base = rss_mb(p.pid)
        pings = (b"PING " + b"p" * 1000 + b"\n") * 1000
        started = time.time()
        socks, threads = senders(port, [pings] * conns, first=b"\nSYNC 999999999999 TIMEOUT 60000\n")
        worst = 0.0
        while any(t.is_alive() for t in threads) and time.time() - started < 20:
            worst = max(worst, ping_ms(c, f, 5)[1])
        peak = rss_mb(p.pid)
        for s in socks:
            s.close()
        return ("%d connections: a SYNC that waits, then 1 MB of PINGs each: RSS %d -> %d MB, another client's PING max"
                " %.1f ms while they were sent (bar: bounded RSS, PING < 50 ms)" % (conns, base, peak, worst))
    finally:
        p.kill()


def wrong_passwords(binary, work):
    users = "%s/gate-users" % work
    subprocess.run([binary, "passwd", "ci", "write", "--iterations", "1000", "--force"], input="hunter2\n",
                   text=True, stdout=open(users, "w"), check=True)
    p, port, resp = start(binary, "--users", users)
    try:
        s = socket.create_connection(("127.0.0.1", resp))
        s.settimeout(30)
        worst = 0.0
        for _ in range(8):
            t = time.time()
            s.sendall(b"*3\r\n$4\r\nAUTH\r\n$2\r\nci\r\n$5\r\nwrong\r\n")
            s.recv(1000)
            worst = max(worst, time.time() - t)
        return "eight wrong passwords in a row: the slowest refused in %.2f s (bar: 2 s; redis-py's timeout 5 s)" % worst
    finally:
        p.kill()


def refused_commits(binary, work, conns=200, seconds=12):
    """On SQLite at --max-size (4 MB, filled first), `conns` connections each send one 60 KB
    ADD a second, which the store refuses; the admin SELECTs one at a time meanwhile."""
    p, port, _ = start(binary, "--data", fresh_db(work, "full"), "--max-size", str(4 << 20), "--history", "1000",
                       "--max-connections-per-ip", "0")
    try:
        a, af = conn(port)
        k = 0
        while True:  # fill the store until it refuses
            a.sendall(b"ADD /items fill%d-%s 1\n" % (k, b"f" * 60_000))
            k += 1
            if reply(af).startswith(b"ERR"):
                break
        stop = threading.Event()
        refused = [0]

        def attacker(i):
            s, f = conn(port)
            n = 0
            while not stop.is_set():
                s.sendall(b"ADD /items a%d-%d-%s 1\n" % (i, n, b"x" * 60_000))
                n += 1
                if reply(f).startswith(b"ERR"):
                    refused[0] += 1
                stop.wait(1)

        threads = [threading.Thread(target=attacker, args=(i,), daemon=True) for i in range(conns)]
        for t in threads:
            t.start()
        lat = []
        started = time.time()
        while time.time() - started < seconds:
            t = time.time()
            a.sendall(b"SELECT /settings/my-int #%d\n" % (len(lat) % 4 + 1))
            reply(af)
            lat.append((time.time() - t) * 1000)
        stop.set()
        lat.sort()
        return ("%d writers x one 60 KB ADD a second on a full store (--max-size 4 MB), %d s: %d refused; the admin's"
                " SELECT p50 %.1f ms, max %.1f ms (bar: 50 ms)" % (conns, seconds, refused[0], lat[len(lat) // 2], lat[-1]))
    finally:
        p.kill()


def wide_branch_writes(binary, work):
    """`catalog_writes` with one branch of 100,000 children, one of which is retitled."""
    return catalog_writes(binary, work, branches=1, children=100_000, target=b"SET /catalog/b0/n5 title=T%d\n")


def catalog_writes(binary, work, branches=200, children=500, seconds=10, target=b"SET /catalog/b0 title=T%d\n"):
    """On SQLite (whose writes keep the model's committed copy), a catalog of `branches` x
    `children` nodes built by pipelined ADDs (timed), then one client changes a title
    (`target`: a branch's) in a loop while another SHOWs a node: writes a second and the
    SHOW's p50 and max."""
    p, port, resp = start(binary, "--data", fresh_db(work, "catalog"), "--sync", "normal")
    try:
        a, af = conn(port)
        started = time.time()
        for b in range(branches):
            pipelined(port, [b"ADD /catalog B%d\n" % b] + [b"ADD /catalog/b%d N%d\n" % (b, k) for k in range(children)])
        built = time.time() - started
        stop = threading.Event()
        writes = [0]

        def writer():
            s, f = conn(port)
            k = 0
            while not stop.is_set():
                s.sendall(target % (k % 2))
                if not reply(f).startswith(b"OK"):
                    raise SystemExit("the catalog writer was refused: the figure would not be a write's")
                k += 1
                writes[0] += 1

        t = threading.Thread(target=writer, daemon=True)
        t.start()
        lat = []
        began = time.time()
        while time.time() - began < seconds:
            t0 = time.time()
            a.sendall(b"SHOW /catalog/b%d/n1\n" % (1 % branches))
            reply(af)
            lat.append((time.time() - t0) * 1000)
            time.sleep(0.005)
        stop.set()
        t.join()
        lat.sort()
        return ("SQLite: a catalog of %d nodes built by ADD in %.1f s; one writer changing a title: %.0f writes/s, another client's"
                " SHOW p50 %.2f ms, max %.1f ms (bar: a catalog write costs its part, not the catalog)"
                % (branches * (children + 1), built, writes[0] / seconds, lat[len(lat) // 2], lat[-1]))
    finally:
        p.kill()


def pinned_snapshots(binary, snaps=6, items=200_000):
    p, port, resp = start(binary)
    try:
        pad = b"x" * 80  # names of about 100 bytes: each version of the items is tens of MB
        pipelined(port, [b"ADD /items item-%d-%s 5\n" % (i, pad) for i in range(items)])
        # What each snapshot sends: more orders than the sockets' buffers take. Its watcher is
        # sent no item event, so it is not dropped for unread events while items change.
        pipelined(port, [b"ORDER margherita\n"] * 100_000)
        c, f = conn(port)
        base = rss_mb(p.pid)
        socks = []
        for r in range(snaps):
            s = socket.socket()
            s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
            s.connect(("127.0.0.1", port))
            s.sendall(b"\nWATCH /orders SNAPSHOT\n")
            socks.append(s)
            pipelined(port, [b"SET /items/%d name=renamed-%d-%d-%s\n" % (i, r, i, pad) for i in range(1, items + 1)])
        peak = rss_mb(p.pid)
        c.sendall(b"STATS\n")
        held = []
        for l in iter(f.readline, b""):
            if l.startswith(b"- snapshot"):
                held.append(l.strip()[2:])
            if l.startswith(b"OK") or l.startswith(b"ERR"):
                break
        time.sleep(5)  # past the 3 s an unread snapshot may keep an old version
        worst = ping_ms(c, f, 20)[1]
        after = rss_mb(p.pid)
        print("    at the peak:", b", ".join(held).decode(), flush=True)
        for s in socks:
            s.close()
        return ("%d unread snapshots of 100,000 orders, %d items all renamed after each: RSS %d -> %d MB, %d MB 5 s later,"
                " another client's PING max %.1f ms (bar: a few hundred MB)" % (snaps, items, base, peak, after, worst))
    finally:
        p.kill()


def snapshot_shares(binary, work, attackers=64, items=100_000):
    users = users_file(binary, "%s/gate-share-users" % work,
                       [("admin", "admin", []), ("reader", "read", []), ("other", "read", [])])
    p, port, resp = start(binary, "--users", users)
    try:
        pipelined(port, [b"AUTH admin pw-admin\n"] + [b"ADD /items item-%d 5\n" % i for i in range(items)])
        socks = []
        held = 0
        for _ in range(attackers):
            s = socket.socket()
            s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
            s.connect(("127.0.0.1", port))
            f = s.makefile("rb")
            f.readline()
            s.sendall(b"AUTH reader pw-reader\n")
            reply(f)  # logged in one after another: each is hashed at once
            s.sendall(b"WATCH /items SNAPSHOT\n")
            held += reply(f).startswith(b"OK")
            socks.append(s)

        def granted(user):
            c, f = conn(port)
            c.sendall(b"AUTH %s pw-%s\n" % (user, user))
            reply(f)
            t = time.time()
            refused = 0
            while time.time() - t < 20:
                c.sendall(b"WATCH /orders SNAPSHOT\n")
                if reply(f).startswith(b"OK"):
                    c.close()
                    return "%.1f s (%d refused first)" % (time.time() - t, refused)
                refused += 1
                time.sleep(0.2)
            c.close()
            return "never in 20 s (%d refused)" % refused
        other = granted(b"other")
        same = granted(b"reader")
        for s in socks:
            s.close()
        return ("%d of %d snapshots of %d items taken by user reader and never read: another user's snapshot granted"
                " in %s, the same user's in %s (bar: within seconds)" % (held, attackers, items, other, same))
    finally:
        p.kill()


def tls_login_flood(binary, work, seconds=10):
    """A TLS login (handshake, greeting, AUTH) every 0.2 s while 4 processes handshake on the
    same TLS port and hang up (RSA 2048): the logins' p50 and max."""
    cert, key = self_signed_cert(work, "flood")
    users = users_file(binary, os.path.join(work, "flood-users"), [("admin", "admin", [])])
    t = socket.socket(); t.bind(("127.0.0.1", 0)); tls_port = t.getsockname()[1]; t.close()
    p, port, resp = start(binary, "--tls-port", str(tls_port), "--tls-cert", cert, "--tls-key", key, "--users", users)
    stop = multiprocessing.Event()
    flooders = [multiprocessing.Process(target=handshaker, args=(tls_port, cert, stop)) for _ in range(4)]
    try:
        for q in flooders:
            q.start()
        time.sleep(1)
        ctx, lat = ssl.create_default_context(cafile=cert), []
        ends = time.time() + seconds
        while time.time() < ends:
            began = time.time()
            raw = socket.create_connection(("127.0.0.1", tls_port), timeout=10)  # a stalled server fails, not hangs
            with ctx.wrap_socket(raw, server_hostname="127.0.0.1") as s:
                f = s.makefile("rwb")
                f.readline()
                f.write(b"AUTH admin pw-admin\n"); f.flush()
                if not f.readline().startswith(b"OK"):
                    raise SystemExit("the TLS login was refused: the figure would not be a login's")
            lat.append((time.time() - began) * 1000)
            time.sleep(0.2)
        lat.sort()
        return ("%d TLS logins (handshake, greeting, AUTH) while 4 processes handshake and hang up: p50 %.0f ms, max %.0f ms"
                " (bar: a login < 2 s)" % (len(lat), lat[len(lat) // 2], lat[-1]))
    finally:
        stop.set()
        for q in flooders:
            q.join(5)
        p.kill()


def run(binaries, work):
    """Each attack on each of `binaries` (name, path), in turn."""
    for attack in (web_post, inline_elements, open_transactions, sync_holds, wrong_passwords, refused_commits,
                   catalog_writes, wide_branch_writes, pinned_snapshots, grants_bench.granted_branch_snapshots, snapshot_shares,
                   grants_bench.restricted_orders, grants_bench.hidden_orders_tail, tls_login_flood):
        for name, binary in binaries:
            with_work = (wrong_passwords, refused_commits, catalog_writes, wide_branch_writes, grants_bench.granted_branch_snapshots,
                         snapshot_shares, grants_bench.restricted_orders, grants_bench.hidden_orders_tail, tls_login_flood)
            figure = attack(binary, work) if attack in with_work else attack(binary)
            print("%-10s %s" % (name, figure), flush=True)
