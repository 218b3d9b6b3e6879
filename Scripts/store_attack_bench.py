"""A restricted writer against a store with no room (Scripts/bench --attacks): what it costs
the others' writes and reads. Prints its figure and what bounds it."""
import os
import threading
import time

from bench_common import conn, reply, users_file


def full_store_writer(rel, start_tabulad, work, seconds=15):
    """On SQLite capped with --max-size 4 MB, a user granted only /items and /orders sends,
    every 1.5 s, `SYNC <far> TIMEOUT 300` and 15 pipelined `ADD /items <60 KB> 1` (the adds
    wait behind the SYNC and reach the engine together). Meanwhile the admin makes small
    SELECTs one at a time and a third client SHOWs: the admin's refused fraction and the
    SHOW's p99."""
    users = users_file(os.path.join(rel, "tabulad"), os.path.join(work, "store-attack-users.txt"),
                       [("admin", "admin", []), ("ci", "write", ["--allow", "/items", "--allow", "/orders"])],
                       secret=lambda name: "pw")
    db = "%s/full-store.sqlite" % work
    p, port = start_tabulad("--data", db, "--max-size", str(4 << 20), "--history", "1000", "--users", users, "--max-line", "65536")
    stop = threading.Event()
    counts = {"ok": 0, "refused": 0, "adds": 0, "adds_refused": 0}
    shows = []

    def attacker():
        s, f = conn(port)
        s.sendall(b"AUTH ci pw\n"); reply(f)
        k = 0
        while not stop.is_set():
            batch = [b"SYNC 999999999 TIMEOUT 300\n"]
            batch += [b"ADD /items %s 1\n" % (b"%d-" % (k + i) + b"x" * 60000) for i in range(15)]
            k += 15
            s.sendall(b"".join(batch))
            reply(f)
            for _ in range(15):
                counts["adds"] += 1
                if reply(f).startswith(b"ERR"):
                    counts["adds_refused"] += 1
            stop.wait(1.5)

    def admin():
        s, f = conn(port)
        s.sendall(b"AUTH admin pw\n"); reply(f)
        k = 0
        while not stop.is_set():
            s.sendall(b"SELECT /settings/my-int #%d\n" % (k % 4 + 1)); k += 1
            counts["refused" if reply(f).startswith(b"ERR") else "ok"] += 1

    def reader():
        s, f = conn(port)
        s.sendall(b"AUTH admin pw\n"); reply(f)
        while not stop.is_set():
            t = time.time(); s.sendall(b"SHOW /settings/my-int\n"); reply(f); shows.append((time.time() - t) * 1000)
            time.sleep(0.005)

    try:
        threads = [threading.Thread(target=t, daemon=True) for t in (attacker, admin, reader)]
        for t in threads:
            t.start()
        time.sleep(seconds)
        stop.set()
        for t in threads:
            t.join(10)
        shows.sort()
        total = counts["ok"] + counts["refused"]
        print("Restricted writer on a full store (--max-size 4 MB, --history 1000, 15 x 60 KB adds behind a SYNC every 1.5 s, %d s):"
              " admin's small SELECTs %d, refused %.1f%%; the writer's adds %d, refused %d; another client's SHOW p50 %.2f ms, p99 %.2f ms, max %.2f ms"
              % (seconds, total, 100.0 * counts["refused"] / max(1, total), counts["adds"], counts["adds_refused"],
                 shows[len(shows) // 2], shows[int(len(shows) * 0.99)], shows[-1]))
    finally:
        p.terminate(); p.wait()
