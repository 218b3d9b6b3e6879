"""RESP requests that declare a million elements (Scripts/bench --attacks): the server's RSS
and another client's PING while they are sent. Prints the figure and what bounds it."""
import socket
import time

from bench_common import conn, ping_ms, rss_mb


def unread(port, data):
    """A connection that sends what the socket takes of `data` at once and never reads."""
    s = socket.create_connection(("127.0.0.1", port))
    s.setblocking(False)
    try:
        s.send(data)
    except BlockingIOError:
        pass
    return s


def million_elements(start_tabulad, subscribers=16, unfinished=300):
    """`subscribers` connections each send `*1048576`, `$9 SUBSCRIBE` and 1,048,575 empty
    prefixes (6 MB) and never read; `unfinished` connections each send `*1048576` and
    100,000 `$0` elements and never finish. Before, the first became a million units each
    (2.0 GB at 16) and the second held ~8 MB a connection past --max-partial-input."""
    p, port = start_tabulad("--memory")
    try:
        a, af = conn(port)
        base = rss_mb(p.pid)
        sub = b"*1048576\r\n$9\r\nSUBSCRIBE\r\n" + b"$0\r\n\r\n" * 1_048_575
        part = b"*1048576\r\n" + b"$0\r\n\r\n" * 100_000
        held = [unread(port, sub) for _ in range(subscribers)] + [unread(port, part) for _ in range(unfinished)]
        time.sleep(2)
        peak = rss_mb(p.pid)
        p50, worst = ping_ms(a, af, 50)
        print("RESP million-element requests (%d x SUBSCRIBE of 1,048,575 prefixes, %d x 100,000 unfinished elements): RSS %d MB -> %d MB,"
              " another client's PING p50 %.2f ms, max %.2f ms (bound: 4,096 elements a request, refused at the header)"
              % (subscribers, unfinished, base, peak, p50, worst))
        for s in held:
            s.close()
    finally:
        p.terminate(); p.wait()
