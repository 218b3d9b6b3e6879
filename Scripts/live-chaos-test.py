#!/usr/bin/env python3
"""The terminal live view under chaos: `tabula live /items` in tmux, twice (as the admin,
and as a read-only user whose grants hide item 3), connected through a proxy that cuts its
connections every 50–500 ms, while random writes (ADD, SET, FAV, MV, RM) go to the server
directly as the admin; the server (SQLite, a history of 20 changes, so resumes fall back to
snapshots; a users file) is restarted twice. After quiescence the rows on each screen (ids in
order, stars) must equal LS /items as that user. The seed is printed; TABULA_SEED replays it.
"""
import json, os, random, re, socket, subprocess, sys, tempfile, time

from cutting_proxy import CuttableProxy

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BIN = os.environ.get("TABULA_BIN", os.path.join(ROOT, ".build", "debug"))


SECRETS = {"admin": "admin-secret-42", "viewer": "viewer-secret-42"}


def users_file(work):
    """The admin, and `viewer` (read-only, item 3 hidden), with cheap hashes."""
    path = os.path.join(work, "users")
    lines = []
    for name, role, flags in (("admin", "admin", []), ("viewer", "read", ["--deny", "/items/3"])):
        out = subprocess.run([os.path.join(BIN, "tabulad"), "passwd", name, role, "--iterations", "1000", *flags],
                             input=SECRETS[name] + "\n", capture_output=True, text=True, check=True).stdout
        lines.append(out.strip())
    open(path, "w").write("\n".join(lines) + "\n")
    return path


def request(port, line, user="admin"):
    with socket.create_connection(("127.0.0.1", port), timeout=10) as s:
        f = s.makefile("rwb")
        f.readline()
        f.write(b"AUTH %s %s\n" % (user.encode(), SECRETS[user].encode()))
        f.flush()
        f.readline()
        f.write(line.encode() + b"\n")
        f.flush()
        out = []
        while True:
            l = f.readline().decode().rstrip("\n")
            out.append(l)
            if l.startswith(("OK", "ERR")):
                return out


def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    p = s.getsockname()[1]
    s.close()
    return p


def start(port, data, users):
    p = subprocess.Popen([os.path.join(BIN, "tabulad"), "--port", str(port), "--data", data, "--history", "20", "--log-level", "warn", "--users", users],
                         stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.time() + 20
    while time.time() < deadline:
        try:
            request(port, "PING")
            return p
        except OSError:
            time.sleep(0.05)
    raise SystemExit("FAIL: tabulad did not start")


def main():
    seed = int(os.environ.get("TABULA_SEED", time.time_ns() % 2**32))
    rng = random.Random(seed)
    work = tempfile.mkdtemp()
    data, port, sock = os.path.join(work, "db.sqlite"), free_port(), "tabula-live-chaos-%d" % os.getpid()
    users = users_file(work)
    server = start(port, data, users)
    proxy = CuttableProxy(port)
    tm = lambda *a: subprocess.run(["tmux", "-L", sock, *a], check=True, capture_output=True, text=True).stdout
    try:
        for window, user in (("v", "admin"), ("r", "viewer")):
            tm("new-session", "-d", "-s", window, "-x", "120", "-y", "50",
               f"env TERM=xterm-256color TABULA_HISTFILE={work}/h-{user} TABULA_USER={user} TABULA_SECRET={SECRETS[user]} "
               f"{BIN}/tabula -p {proxy.port} live /items; sleep 60")
        panes = {user: (lambda w=window: tm("capture-pane", "-t", w, "-p")) for window, user in (("v", "admin"), ("r", "viewer"))}
        pane = panes["admin"]
        for user in panes:
            wait(lambda: "Rusty Spork" in panes[user](), 10, f"the live view of {user} did not start", panes[user])
        ids, cuts, restarts, writes = [1, 2, 3, 4], 0, 0, 0
        for i in range(80):
            if ids and (rng.random() < 0.65 or len(ids) >= 36):  # the whole list stays on one screen
                item = rng.choice(ids)
                line = rng.choice([f"SET /items/{item} value={rng.randint(1, 99)}", f"FAV /items/{item}", f"MV /items/{item} {rng.randint(1, 3)}", f"RM /items/{item}"])
                if line.startswith("RM") and item == 3:
                    line = "FAV /items/3"  # kept: the item the user may not see
                elif line.startswith("RM"):
                    ids.remove(item)
            else:
                line = f"ADD /items Chaos{i} {rng.randint(1, 99)}"
            final = request(port, line)[-1]
            writes += 1
            if line.startswith("ADD") and final.startswith("OK"):
                ids.append(int(re.search(r"/items/(\d+)", final).group(1)))
            if rng.random() < 0.25:
                proxy.cut()
                cuts += 1
                time.sleep(rng.uniform(0.05, 0.5))  # the fault's length, not a wait for anything
                proxy.restore()
            if i in (30, 60):
                server.terminate()
                server.wait(10)
                server = start(port, data, users)
                restarts += 1
        counts = {}
        for user, pane in panes.items():
            listed = json.loads(json_ls(port, user))
            want = [(r["id"], r["favorite"]) for r in listed if r.get("type") == "item"]
            shown = lambda: [(int(m.group(2)), m.group(1) == "★") for m in re.finditer(r"^[> ] (★| ) +(\d+)  ", pane(), re.M)]
            try:
                wait(lambda: shown() == want, 20, "", pane)
            except SystemExit:
                raise SystemExit(f"FAIL (seed {seed}): after {writes} writes, {cuts} cuts and {restarts} restarts {user}'s view shows {shown()}, its LS has {want}\n{pane()}")
            counts[user] = len(want)
        print(f"ok - the terminal live view under chaos (seed {seed}: {writes} writes, {cuts} cuts, {restarts} restarts, history of 20) equals LS, "
              f"as the admin ({counts['admin']} items) and as a user who may not see item 3 ({counts['viewer']} items), 0 mismatched")
    finally:
        subprocess.run(["tmux", "-L", sock, "kill-server"], capture_output=True)
        server.terminate()
        server.wait(10)


def json_ls(port, user):
    with socket.create_connection(("127.0.0.1", port), timeout=10) as s:
        f = s.makefile("rwb")
        f.readline()
        f.write(b"AUTH %s %s\nFORMAT json\nLS /items LIMIT 1000\n" % (user.encode(), SECRETS[user].encode()))
        f.flush()
        f.readline()
        f.readline()
        return json.dumps(json.loads(f.readline())["data"])


def wait(condition, seconds, what, pane):
    deadline = time.time() + seconds
    while time.time() < deadline:
        if condition():
            return
        time.sleep(0.05)
    raise SystemExit(f"FAIL: {what}\n{pane()}")


if __name__ == "__main__":
    main()
