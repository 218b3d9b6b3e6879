"""A client that reads, among attackers that trickle (Scripts/bench --attacks): 160
connections each ask for a 5 MB page and read 4 KB of it every 0.3 s, which together pass
the server's unread-output bound, while one client reads 10 MB pages at about 1 MB/s. The
bound sheds the connections that would take longest to read what they hold; the figure is
whether the reader was ever dropped, and how many connections the server dropped."""
import socket
import threading
import time

from bench_common import conn, ping_ms, reply


def fill(port, items=10000):
    """`items` items of 1,000-byte names: a 10,000-row page is about 10 MB."""
    a, af = conn(port)
    name = b"n" * 1000
    for start in range(0, items, 1000):
        a.sendall(b"".join(b"ADD /items %s%d %d\n" % (name, start + i, i % 100) for i in range(1000)))
        for _ in range(1000):
            reply(af)
    return a, af


def trickle(port, attackers, stop):
    """Each attacker asks for a 5 MB page, then reads 4 KB of it every 0.3 s."""
    socks = []
    for k in range(attackers):
        s, _ = conn(port)
        s.sendall(b"LS /items LIMIT 5000 AFTER %d\n" % (k + 1))
        s.setblocking(False)
        socks.append(s)
    while not stop.is_set():
        for s in list(socks):
            try:
                if s.recv(4096) == b"":
                    socks.remove(s)
            except BlockingIOError:
                pass
            except OSError:
                socks.remove(s)
        time.sleep(0.3)


def read_pages(port, seconds, outcome):
    """Asks for 10 MB pages one after another, reading about 100 KB every 0.1 s."""
    s, f = conn(port)
    t0 = time.time()
    while time.time() - t0 < seconds:
        s.sendall(b"LS /items LIMIT 10000\n")
        while True:
            line = f.readline()
            if not line or line.startswith(b"* BYE"):
                outcome["dropped"] = (line or b"end of stream").decode().strip()
                return
            if line.startswith(b"OK") or line.startswith(b"ERR"):
                outcome["pages"] += 1
                break
            outcome["bytes"] += len(line)
            if outcome["bytes"] // 100000 != (outcome["bytes"] - len(line)) // 100000:
                time.sleep(0.1)


def reader_among_tricklers(start_tabulad, attackers=160, seconds=15):
    p, port = start_tabulad("--memory", "--max-connections-per-ip", "0")
    try:
        a, af = fill(port)
        stop = threading.Event()
        outcome = {"pages": 0, "bytes": 0, "dropped": None}
        t = threading.Thread(target=trickle, args=(port, attackers, stop))
        t.start()
        time.sleep(2)  # the attackers' pages are queued
        r = threading.Thread(target=read_pages, args=(port, seconds, outcome))
        r.start()
        worst = 0.0
        while r.is_alive():
            worst = max(worst, ping_ms(a, af, 5)[1])
            time.sleep(0.2)
        stop.set()
        t.join()
        stats = {}
        a.sendall(b"STATS\n")
        while True:
            line = af.readline()
            if line.startswith(b"- "):
                k, _, v = line[2:].partition(b": ")
                stats[k.decode()] = v.strip().decode()
            if not line or line.startswith(b"OK") or line.startswith(b"ERR"):
                break
        print("A reader among %d connections trickling 4 KB every 0.3 s from 5 MB pages: the reader read %d pages"
              " (%.1f MB in %d s) and was %s; %d attackers dropped; unread output at most %d MiB; another client's"
              " PING max %.2f ms" % (attackers, outcome["pages"], outcome["bytes"] / 1e6, seconds,
                                     "never dropped" if outcome["dropped"] is None else "DROPPED (%s)" % outcome["dropped"],
                                     int(stats["slow_consumers_dropped"]), int(stats["unread_output_peak_bytes"]) >> 20, worst), flush=True)
    finally:
        p.terminate(); p.wait()
