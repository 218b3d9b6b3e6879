"""Scripts/bench --floods: the third hostile round's item 7, each attack run by processes of
its own (not threads: the GIL would time them against the measuring client) while another
client sends a PING every 10 ms (the attackers at nice 19, as if on machines of their own); each prints that client's PING p50, p99 and max, and the
server's CPU. Usage: Scripts/bench --floods [--only NAME] (names below)."""
import multiprocessing, os, socket, time

from bench_common import conn, cpu_seconds, reply, source


def pinger(port, seconds):
    """PINGs every 10 ms for `seconds`; the latencies in ms, sorted."""
    a, af = conn(port)
    lat, t0 = [], time.time()
    while time.time() - t0 < seconds:
        t = time.time(); a.sendall(b"PING\n"); reply(af); lat.append((time.time() - t) * 1000)
        time.sleep(0.01)
    a.close()
    lat.sort()
    return lat


def report(name, lat, cpu, wall, extra=""):
    print("%s: another client's PING p50 %.2f ms, p99 %.2f ms, max %.2f ms; server CPU %.1f s in %.0f s%s"
          % (name, lat[len(lat) // 2], lat[int(len(lat) * 0.99)], lat[-1], cpu, wall, extra), flush=True)


def measure(name, p, port, attackers, seconds=10, extra=lambda wall: ""):
    """Starts the attacking processes, PINGs meanwhile, stops them, reports."""
    stop = multiprocessing.Event()
    procs = [multiprocessing.Process(target=niced, args=(f, args + (stop,)), daemon=True) for f, args in attackers]
    for q in procs:
        q.start()
    time.sleep(1)  # the attack is under way
    cpu0, t0 = cpu_seconds(p.pid), time.time()
    lat = pinger(port, seconds)
    cpu, wall = cpu_seconds(p.pid) - cpu0, time.time() - t0
    stop.set()
    for q in procs:
        q.join(5)
        if q.is_alive():
            q.terminate()
    report(name, lat, cpu, wall, extra(wall))


def niced(f, args):
    """Runs an attacker at the lowest priority: on this 2-core machine the attackers would
    otherwise take the CPU from the measuring client as well as from the server (a remote
    attacker spends its own machine's CPU)."""
    os.nice(19)
    f(*args)


def unread_senders(port, stop, line, pause, first=b""):
    """5 connections that send `first`, then `line` every `pause` seconds, and never read."""
    socks = []
    for _ in range(5):
        s = socket.create_connection(("127.0.0.1", port))
        s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        s.sendall(first)
        s.setblocking(False)
        socks.append(s)
    while not stop.is_set():
        for s in socks:
            try:
                s.send(line)
            except OSError:
                pass
        time.sleep(pause)


def unread_cached(port, k, stop):
    """Connections that pipeline cached LS /items LIMIT 10000 and never read."""
    unread_senders(port, stop, b"LS /items LIMIT 10000\n" * 64, 0.05)


def trickle_http(http, k, stop):
    """From an address of its own: GET / one request at a time, a few bytes per write,
    reconnecting after each (1,000 requests, or until stopped)."""
    req = b"GET /api/show?path=/settings/my-int HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n"
    for _ in range(1000):
        if stop.is_set():
            return
        try:
            s = socket.create_connection(("127.0.0.1", http), source_address=source(3, k))
            for i in range(0, len(req), 8):
                s.sendall(req[i:i + 8])
                time.sleep(0.001)
            while s.recv(65536):
                pass
            s.close()
        except OSError:
            time.sleep(0.01)


def unread_sse(http, k, stop):
    """500 event streams of / from one process, never read."""
    socks = []
    for i in range(500):
        try:
            s = socket.create_connection(("127.0.0.1", http), source_address=source(4, k * 500 + i))
            s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
            s.sendall(b"GET /events?prefix=/ HTTP/1.1\r\nHost: localhost\r\n\r\n")
            socks.append(s)
        except OSError:
            pass
    stop.wait()


def resp_subscribers(port, k, stop):
    """5 RESP2 connections subscribed to /orders, each pipelining PINGs and never reading."""
    unread_senders(port, stop, b"*1\r\n$4\r\nPING\r\n" * 256, 0.001, first=b"*2\r\n$9\r\nSUBSCRIBE\r\n$7\r\n/orders\r\n")


def writer(port, k, stop):
    """Changes an item as fast as answered (the events the streams must carry)."""
    s, f = conn(port)
    n = 0
    while not stop.is_set():
        s.sendall(b"FAV /items/%d\n" % (1 + n % 4) * 16)
        for _ in range(16):
            reply(f)
        n += 1


def order_writer(port, k, stop):
    """Orders a dish as fast as answered (events for the subscribers)."""
    s, f = conn(port)
    while not stop.is_set():
        s.sendall(b"ORDER margherita\n" * 16)
        for _ in range(16):
            reply(f)


def churn_watch(port, k, counted, stop):
    """Connects, sends WATCH /, closes, as fast as it can, from addresses of its own."""
    n = 0
    while not stop.is_set():
        try:
            s = socket.create_connection(("127.0.0.1", port), source_address=source(5, k * 250 + n % 250))
            s.sendall(b"WATCH /\n")
            s.close()
            n += 1
            if n % 100 == 0:
                with counted.get_lock():
                    counted.value += 100
        except OSError:
            pass


def fill(port, items, login=b""):
    """`items` items added to the server at `port`, after `login` (an AUTH line, or nothing)."""
    a, af = conn(port)
    if login:
        a.sendall(login); reply(af)
    for start in range(0, items, 1000):
        a.sendall(b"".join(b"ADD /items i%d %d\n" % (start + i, (start + i) % 100) for i in range(1000)))
        for _ in range(1000):
            reply(af)
    a.sendall(b"LS /items LIMIT 10000\n"); reply(af)
    a.close()


def run(start_tabulad, only=None):
    if only in (None, "cached"):
        p, port = start_tabulad("--memory", "--max-connections-per-ip", "0")
        try:
            fill(port, 20000)
            measure("50 connections pipelining cached LS /items LIMIT 10000 (20,000 items), never reading", p, port,
                    [(unread_cached, (port, k)) for k in range(10)])
        finally:
            p.terminate(); p.wait()
    if only in (None, "trickle"):
        p, port = start_tabulad("--memory", "--http", "0")
        http = int(p.stdout.readline())
        try:
            measure("10 addresses trickling HTTP requests 8 bytes a millisecond, reconnecting after each", p, port,
                    [(trickle_http, (http, k)) for k in range(10)])
        finally:
            p.terminate(); p.wait()
    if only in (None, "sse"):
        p, port = start_tabulad("--memory", "--http", "0", "--max-connections-per-ip", "0")
        http = int(p.stdout.readline())
        try:
            measure("5,000 event streams of / never read, a writer changing items meanwhile", p, port,
                    [(unread_sse, (http, k)) for k in range(10)] + [(writer, (port, 0))])
        finally:
            p.terminate(); p.wait()
    if only in (None, "resp-subscribers"):
        p, port = start_tabulad("--memory", "--max-connections-per-ip", "0")
        try:
            measure("50 RESP2 subscribers of /orders pipelining PINGs, never reading, ORDERs meanwhile", p, port,
                    [(resp_subscribers, (port, k)) for k in range(10)] + [(order_writer, (port, 0))])
        finally:
            p.terminate(); p.wait()
    if only in (None, "churn"):
        p, port = start_tabulad("--memory", "--max-connections-per-ip", "0")
        counted = multiprocessing.Value("i", 0)
        try:
            measure("connect, WATCH /, close in a loop from 4 processes", p, port,
                    [(churn_watch, (port, k, counted)) for k in range(4)], extra=lambda wall: "; %d connections a second" % (counted.value / (wall + 1)))
        finally:
            p.terminate(); p.wait()
