"""Attacks on what a user with grants costs (part of Scripts/bench --gate): reading pages of
lists whose entries its grants partly hide.

  4 snapshots of a branch of 50,000 children by a user with a deny in it   bar: PING < 50 ms
  LS /orders pages over 100,000 orders by a user denied one menu entry   bar: a page costs the page
  LS /orders pages at the end of what a user sees, 100,000 hidden after  bar: a page costs the page
"""
import threading
import time

from bench_common import conn, pipelined, ping_ms, reply, start_server as start, users_file


def granted_branch_snapshots(binary, work, children=50_000, snaps=4):
    users = users_file(binary, "%s/gate-branch-users" % work,
                       [("admin", "admin", []), ("cat", "read", ["--allow", "/catalog", "--deny", "/catalog/big/child-7"])])
    p, port, resp = start(binary, "--users", users)
    try:
        lines = [b"AUTH admin pw-admin\n", b"ADD /catalog big\n"]
        lines += [b"ADD /catalog/big child-%d\n" % i for i in range(children)]
        pipelined(port, lines)
        c, f = conn(port)
        c.sendall(b"AUTH admin pw-admin\n")
        reply(f)
        cpu = lambda: sum(int(x) for x in open("/proc/%d/stat" % p.pid).read().split(")")[1].split()[11:13]) / 100
        before = cpu()
        socks = []
        t = time.time()
        for _ in range(snaps):
            s, sf = conn(port)
            s.sendall(b"AUTH cat pw-cat\nWATCH /catalog/big SNAPSHOT\nPING done\n")
            socks.append((s, sf))
        worst = 0.0
        done = 0
        readers = []
        for s, sf in socks:
            def drain(sf=sf):
                for l in iter(sf.readline, b""):
                    if l.startswith(b"OK done"):
                        return
            th = threading.Thread(target=drain, daemon=True)
            th.start()
            readers.append(th)
        while any(th.is_alive() for th in readers) and time.time() - t < 120:
            worst = max(worst, ping_ms(c, f, 5)[1])
        took = time.time() - t
        used = cpu() - before
        for s, _ in socks:
            s.close()
        return ("%d snapshots of a branch of %d children by a user with a deny in it, read: %.1f s, server CPU %.1f s,"
                " another client's PING max %.1f ms (bar: 50 ms)" % (snaps, children, took, used, worst))
    finally:
        p.kill()


def diner_pages(binary, work, name, orders, requests):
    """Sends `orders` (ORDER lines) as the admin of a server whose user `diner` is denied the
    margherita, then each of `requests` as diner, one at a time: their times, sorted, in ms."""
    users = users_file(binary, "%s/gate-%s-users" % (work, name),
                       [("admin", "admin", []), ("diner", "read", ["--deny", "/menu/pizza/margherita"])])
    p, port, resp = start(binary, "--users", users)
    try:
        pipelined(port, [b"AUTH admin pw-admin\n"] + orders)
        c, f = conn(port)
        c.sendall(b"AUTH diner pw-diner\n")
        reply(f)
        lat = []
        for line in requests:
            t = time.time()
            c.sendall(line)
            r = reply(f)
            lat.append((time.time() - t) * 1000)
            assert r.startswith(b"OK"), r
        return sorted(lat)
    finally:
        p.kill()


def restricted_orders(binary, work, orders=100_000, pages=200):
    dishes = [b"pepperoni", b"carbonara", b"tiramisu", b"margherita"]
    afters = [1 + k * 401 % (orders - 200) for k in range(pages)]
    afters = [a + (a % 4 == 0) for a in afters]  # order 4k is a margherita: hidden from this user
    lat = diner_pages(binary, work, "orders", [b"ORDER %s\n" % dishes[i % 4] for i in range(orders)],
                      [b"LS /orders LIMIT 100 AFTER %d\n" % a for a in afters])
    return ("%d pages of LS /orders LIMIT 100 AFTER k over %d orders, as a user denied one menu entry: p50 %.2f ms,"
            " max %.1f ms (bar: a page costs the page)" % (pages, orders, lat[len(lat) // 2], lat[-1]))


def hidden_orders_tail(binary, work, orders=100_000, pages=200):
    """A page of the few orders a user sees, followed by `orders` it does not: whether more
    follow is known without reading past them."""
    # The page ends at the last seen order; no two requests alike (a reply cache would answer).
    lat = diner_pages(binary, work, "tail", [b"ORDER pepperoni\n"] * 10 + [b"ORDER margherita\n"] * orders,
                      [b"LS /orders LIMIT %d AFTER %d\n" % (5 + k, 5 + k % 4) for k in range(pages)])
    return ("%d pages of LS /orders LIMIT 5+k followed by %d orders hidden from the user: p50 %.2f ms, max %.1f ms"
            " (bar: a page costs the page)" % (pages, orders, lat[len(lat) // 2], lat[-1]))
