"""Scripts/bench --attacks, the login and handshake floods: what another client sees while
they run. Flooders run in processes of their own (not threads: the GIL would time them
against the measuring client)."""
import multiprocessing, os, socket, ssl, statistics, subprocess, threading, time

from bench_common import conn, handshaker, ping_ms, reply, rss_mb, self_signed_cert, source


def guesser(port, k, stop):
    """One connection from its own address guessing admin's secret as fast as answered."""
    try:
        s = socket.create_connection(("127.0.0.1", port), source_address=source(1, k))
        f = s.makefile("rb")
        f.readline()
        n = 0
        while not stop.is_set():
            n += 1
            s.sendall(b"AUTH admin wrong-%d-%d\n" % (k, n))
            if not f.readline():
                return
    except OSError:
        return


def churner(port, stop):
    """Connects, sends a wrong AUTH and hangs up, in a loop, from one address."""
    while not stop.is_set():
        try:
            s = socket.create_connection(("127.0.0.1", port), source_address=source(2, 0))
            s.sendall(b"AUTH admin churn\n")
            s.close()
        except OSError:
            pass


def stop_all(stop, procs, server):
    """Stops the flooding processes, then the server."""
    stop.set()
    for q in procs:
        q.join(5)
        if q.is_alive():
            q.terminate()
    server.terminate(); server.wait()


def login(port, src, line=b"AUTH ci pw\n"):
    s = socket.create_connection(("127.0.0.1", port), source_address=src)
    f = s.makefile("rb")
    f.readline()
    t = time.time()
    s.sendall(line)
    reply = f.readline()
    took = time.time() - t
    s.close()
    assert reply.startswith(b"OK"), reply
    return took


def login_flood(rel, start_tabulad, work):
    users = os.path.join(work, "flood-users.txt")
    with open(users, "w") as f:
        for name, role in (("admin", "admin"), ("ci", "write"), ("ops", "write"), ("qa", "read")):  # the default 600,000 iterations
            f.write(subprocess.run([os.path.join(rel, "tabulad"), "passwd", name, role, "--force"], input="pw\n", check=True,
                                   capture_output=True, text=True).stdout)
    p, port = start_tabulad("--memory", "--users", users)
    stop = multiprocessing.Event()
    procs = [multiprocessing.Process(target=guesser, args=(port, k, stop)) for k in range(50)]
    procs.append(multiprocessing.Process(target=churner, args=(port, stop)))
    try:
        for q in procs:
            q.start()
        time.sleep(2)
        first = [login(port, source(3, k), b"AUTH %s pw\n" % name) for k, name in enumerate((b"ci", b"ops", b"qa"))]
        again = [login(port, source(3, 0)) for _ in range(20)]
        print("Login flood (50 addresses guessing admin's secret as fast as answered, one address connecting, sending a wrong AUTH and"
              " hanging up in a loop; PBKDF2 at 600,000 iterations): another address's first login %s s, a repeated login median %.1f ms,"
              " max %.1f ms" % (", ".join("%.2f" % x for x in first), statistics.median(again) * 1000, max(again) * 1000))
    finally:
        stop_all(stop, procs, p)


def handshake_flood(rel, start_tabulad, work):
    rsa, ec = ["-newkey", "rsa:2048"], ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1"]
    for kind, keyopts, tls in (("plain TCP connects, the control", rsa, False), ("RSA 2048", rsa, True), ("ECDSA P-256", ec, True)):
        cert, key = self_signed_cert(work, "hs", keyopts)
        tport = socket.socket(); tport.bind(("127.0.0.1", 0)); tp = tport.getsockname()[1]; tport.close()
        p, port = start_tabulad("--memory", "--io-threads", "1", "--tls-port", str(tp), "--tls-cert", cert, "--tls-key", key)
        stop = multiprocessing.Event()
        procs = [multiprocessing.Process(target=handshaker, args=(tp, cert, stop) if tls else (port, None, stop)) for _ in range(4)]
        try:
            c = socket.create_connection(("127.0.0.1", port)); f = c.makefile("rb"); f.readline()
            for q in procs:
                q.start()
            time.sleep(1)
            lat = []
            t_end = time.time() + 4
            while time.time() < t_end:
                t = time.time(); c.sendall(b"PING\n"); f.readline(); lat.append(time.time() - t)
                time.sleep(0.002)
            lat.sort()
            print("TLS handshake flood (%s, 4 processes handshaking and closing, one I/O thread): another client's PING on the same loop"
                  " p50 %.2f ms, p99 %.2f ms over %d PINGs" % (kind, lat[len(lat) // 2] * 1000, lat[int(len(lat) * 0.99)] * 1000, len(lat)))
        finally:
            stop_all(stop, procs, p)


def cached_reply_burst(rel, start_tabulad):
    """Six clients send 128 cached LS /items LIMIT 10000 each over 20,000 items and never read."""
    p, port = start_tabulad("--memory", "--io-threads", "1")
    try:
        a, af = conn(port)
        for start in range(0, 20000, 1000):
            a.sendall(b"".join(b"ADD /items i%d %d\n" % (start + i, i % 100) for i in range(1000)))
            for _ in range(1000):
                reply(af)
        a.sendall(b"LS /items LIMIT 10000\n"); reply(af)
        before = rss_mb(p.pid)
        attackers = [conn(port) for _ in range(6)]
        for s, _ in attackers:
            s.sendall(b"LS /items LIMIT 10000\n" * 128)
        time.sleep(2)
        p50, worst = ping_ms(a, af)
        print("Cached-reply burst (6 clients x 128 cached LS /items LIMIT 10000 over 20,000 items, never read): RSS %d MB before, %d MB"
              " after; another client's PING on the same loop p50 %.2f ms, max %.2f ms" % (before, rss_mb(p.pid), p50, worst))
    finally:
        p.terminate(); p.wait()


def path_amplification(rel, start_tabulad):
    """SET . title=xN pipelined at a catalog node whose path is about 60 KB long."""
    p, port = start_tabulad("--memory")
    try:
        a, af = conn(port)
        path = "/catalog"
        for depth in range(60):
            title = "L%d-" % depth + "p" * 990
            a.sendall(b'ADD %s "%s"\n' % (path.encode(), title.encode()))
            path = reply(af).decode().split()[1]
        a.sendall(b"CD %s\n" % path.encode()); reply(af)
        before = rss_mb(p.pid)
        lines = b"".join(b"SET . title=x%d\n" % i for i in range(150000))  # about 2.1 MB of requests
        a.sendall(lines)
        for _ in range(150000):
            reply(af)
        print("Path amplification (150,000 SET . title=xN, 2.1 MB of requests, at a %d-byte catalog path): RSS %d MB before, %d MB after"
              " (history bounded by --history-memory, 64 MiB)" % (len(path), before, rss_mb(p.pid)))
    finally:
        p.terminate(); p.wait()


def cold_replay(rel, start_tabulad, work, changes=200000):
    """A replay reading a cold SQLite history, one I/O thread: another client's PING meanwhile."""
    db = os.path.join(work, "cold.db")
    p, port = start_tabulad("--data", db, "--io-threads", "1", "--history-memory", "65536")
    try:
        a, af = conn(port)
        for start in range(0, changes, 2000):
            a.sendall(b"ORDER pesto\n" * 2000)
            for _ in range(2000):
                reply(af)
        r, rf = conn(port)
        r.sendall(b"WATCH /orders FROM 0\n")  # counted and sent from the store, off the loop
        p50, worst = ping_ms(a, af, 50)
        print("Cold replay (WATCH /orders FROM 0 over %d changes in SQLite, memory holding 64 KiB of them, one I/O thread): another"
              " client's PING meanwhile p50 %.2f ms, max %.2f ms" % (changes, p50, worst))
    finally:
        p.terminate(); p.wait()


def slots_and_bands(start_tabulad):
    """Slots and partial lines, then BANDS on a million items; prints what it measured."""
    slots(start_tabulad)
    bands(start_tabulad)


def slots(start_tabulad):
    """10,000 connections from 10 addresses, each holding a 65,002-byte incomplete line."""
    p, port = start_tabulad("--memory")
    try:
        start = rss_mb(p.pid)
        socks, payload = [], b"LS " + b"x" * 65002
        for i in range(10000):
            s = socket.socket()
            s.bind(("127.0.%d.%d" % (1 + i // 1000, 1 + i % 200), 0))
            s.connect(("127.0.0.1", port))
            s.setblocking(False)
            try:
                s.send(payload)
            except BlockingIOError:
                pass
            socks.append(s)
        time.sleep(2)
        peak = rss_mb(p.pid)
        open_ = 0
        for s in socks:
            try:
                d = s.recv(65536)
                open_ += 1 if d and b"BYE" not in d else 0
            except BlockingIOError:
                open_ += 1
            except OSError:
                pass
        c = socket.create_connection(("127.0.0.1", port), source_address=("127.0.99.1", 0))
        c.recv(1000)
        t = time.time(); c.sendall(b"PING\n"); c.recv(100); ping = (time.time() - t) * 1000
        for s in socks:
            s.close()
        time.sleep(3)
        print("10,000 connections with a 65,002-byte incomplete line: RSS %d MB at start, %d MB with them (%d kept, the rest closed by the bound),"
              " %d MB after they closed; another client's PING %.1f ms" % (start, peak, open_, rss_mb(p.pid), ping))
    finally:
        p.terminate(); p.wait()


def bands(start_tabulad):
    """BANDS over 1,000,000 items while another client reads."""
    p, port = start_tabulad("--memory")
    try:
        def conn():
            s = socket.create_connection(("127.0.0.1", port)); f = s.makefile("rb"); f.readline(); return s, f

        def reply(f):
            while True:
                l = f.readline()
                if l.startswith(b"OK") or l.startswith(b"ERR"):
                    return l
        a, af = conn()
        for start in range(0, 1000000, 10000):
            a.sendall(b"".join(b"ADD /items i%d %d\n" % (start + i, (i * 7) % 100) for i in range(10000)))
            for _ in range(10000):
                reply(af)
        b, bf = conn()
        lat, done = [], threading.Event()

        def reader():
            while not done.is_set():
                t0 = time.time(); b.sendall(b"SHOW /items/1\n"); reply(bf); lat.append(time.time() - t0)
        th = threading.Thread(target=reader); th.start()
        time.sleep(0.3)
        t = time.time(); a.sendall(b"BANDS Low 30 Mid 60 High\n"); reply(af); took = time.time() - t
        done.set(); th.join()
        lat.sort()
        print("BANDS over 1,000,000 items took %.2f s on a copy; %d reads meanwhile, median %.2f ms, max %.1f ms" % (took, len(lat), lat[len(lat) // 2] * 1000, lat[-1] * 1000))
    finally:
        p.terminate(); p.wait()


def run_all(rel, start_tabulad, work, quick=False):
    """Every attack of `Scripts/bench --attacks`, one figure each."""
    import floods_bench, hostile_bench, resp_attack_bench, shed_reader_bench, store_attack_bench
    slots_and_bands(start_tabulad)
    login_flood(rel, start_tabulad, work)
    handshake_flood(rel, start_tabulad, work)
    cached_reply_burst(rel, start_tabulad)
    path_amplification(rel, start_tabulad)
    cold_replay(rel, start_tabulad, work)
    hostile_bench.run(rel, start_tabulad, work, quick)
    shed_reader_bench.reader_among_tricklers(start_tabulad)
    store_attack_bench.full_store_writer(rel, start_tabulad, work)
    resp_attack_bench.million_elements(start_tabulad)
    floods_bench.run(start_tabulad)  # the floods of Scripts/bench --floods, each with its PING
