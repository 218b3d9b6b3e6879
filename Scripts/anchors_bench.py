"""Scripts/bench --anchors, --fanout-10k and --mixed: Tabula's writes beside the Redis commands
that do comparable work, fan-out to 10,000 watchers beside Redis pub/sub, and a mixed load.
Imported by Scripts/bench (which builds release and linebench). Every figure comes from the same
client (linebench), runs alternate between the servers, and tables give medians."""
import os, socket, statistics, subprocess, time

# A toggle: every request is a change with its revision, history row and event, from any
# number of connections (a SELECT cycling #1-#4 was often no change when 50 clients raced).
WRITES = "FAV /items/1\n"


def redis(work, *flags):
    port = free_port()
    p = subprocess.Popen(["redis-server", "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--dir", work,
                          "--maxclients", "20000", *flags], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    wait_port(port)
    return p, port


def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


def wait_port(port, deadline=10.0):
    end = time.monotonic() + deadline
    while time.monotonic() < end:
        try:
            socket.create_connection(("127.0.0.1", port)).close()
            return
        except OSError:
            time.sleep(0.05)
    raise SystemExit("nothing listens on %d after %.0f s" % (port, deadline))


def kv(out):
    return dict(x.split("=", 1) for x in out.split())


def lb_run(lb, port, mode, line, n, c=50, P=1, extra=()):
    out = subprocess.run([lb, "-p", str(port), "-c", str(c), "-P", str(P), "-n", str(n), "-m", mode, "-q", "-T", "120", *extra, line],
                         check=True, capture_output=True, text=True).stdout
    return kv(out)


def tabula_writes(lb, work, port, n, c=50, P=1):
    f = os.path.join(work, "writes.txt")
    with open(f, "w") as fh:
        fh.write(WRITES)
    return lb_run(lb, port, "okerr", "PING", n, c, P, ("-L", "-f", f))


def rss_kb(pid):
    with open("/proc/%d/status" % pid) as f:
        return next(int(l.split()[1]) for l in f if l.startswith("VmRSS"))


def anchors(runs, n, work, start_tabulad, lb, variants=()):
    """Writes beside SET (the plain anchor) and beside XADD to a capped stream (a global
    order, a resumable history, a notification: what a Tabula write also does), in memory at
    P=1 and P=16; durable writes beside Redis with appendfsync always at c=1 and c=50. Each
    variant (`--against` commits, `--variant` flags) runs the same Tabula cases, in turn."""
    mem_r, mem_rport = redis(work, "--appendonly", "no")
    aof_dir = os.path.join(work, "aof")
    os.makedirs(aof_dir, exist_ok=True)
    aof_r, aof_rport = redis(aof_dir, "--appendonly", "yes", "--appendfsync", "always")
    builds = [("this build", None, ())] + [(label, binary, () if binary else tuple(label.split())) for label, binary in variants]
    servers = []  # per build: (memory port, disk port), and every process
    procs = [mem_r, aof_r]
    for k, (label, binary, flags) in enumerate(builds):
        mem_t, mem_tport = start_tabulad("--memory", *flags, binary=binary)
        disk_t, disk_tport = start_tabulad("--data", os.path.join(work, "anchors-%d.sqlite" % k), "--sync", "full", *flags, binary=binary)
        servers.append((mem_tport, disk_tport))
        procs += [mem_t, disk_t]
    cases = [  # (name, load, redis port, redis line, durable?, requests, c, P)
        ("write vs SET", "P=1", mem_rport, "SET k v", False, n, 50, 1),
        ("write vs XADD", "P=1", mem_rport, "XADD s MAXLEN ~ 100000 * f v", False, n, 50, 1),
        ("write vs SET", "P=16", mem_rport, "SET k v", False, n * 4, 50, 16),
        ("write vs XADD", "P=16", mem_rport, "XADD s MAXLEN ~ 100000 * f v", False, n * 4, 50, 16),
        ("durable vs AOF always", "c=1", aof_rport, "SET k v", True, max(2000, n // 100), 1, 1),
        ("durable vs AOF always", "c=50", aof_rport, "SET k v", True, max(20000, n // 10), 50, 1),
    ]
    res = {}
    try:
        for run in range(runs):
            for name, load, rport, rline, durable, count, c, P in cases:
                r = lb_run(lb, rport, "redis", rline, count, c, P)
                order = list(range(len(builds)))
                order = order[run % len(order):] + order[:run % len(order)]
                got = {k: tabula_writes(lb, work, servers[k][1 if durable else 0], count, c, P) for k in order}
                res.setdefault((name, load), []).append([float(r["rps"]), float(r["p99_ms"])] + [x for k in range(len(builds)) for x in (float(got[k]["rps"]), float(got[k]["p99_ms"]))])
    finally:
        for p in procs:
            p.terminate(); p.wait()
    print("\nWrites beside fair anchors (linebench; tabula: FAV /items/1, a change every time; memory: tabulad --memory and redis"
          " without persistence; durable: tabulad --data --sync full and redis --appendonly yes --appendfsync always; medians of %d alternating runs)" % runs)
    head = "%-22s %5s %12s %10s" % ("case", "load", "redis/s", "redis p99")
    for label, _, _ in builds:
        head += " | %s: /s, ratio, p99" % label
    print(head)
    for (name, load), v in res.items():
        med = [statistics.median(x[i] for x in v) for i in range(len(v[0]))]
        line = "%-22s %5s %12.0f %10.3f" % (name, load, med[0], med[1])
        for k in range(len(builds)):
            line += " | %10.0f %5.2fx %7.3f" % (med[2 + 2 * k], med[2 + 2 * k] / med[0], med[3 + 2 * k])
        print(line)


def hold_watchers(port, n, line):
    """n connections that each sent `line` and read its acknowledgement; the caller closes them."""
    socks = []
    for _ in range(n):
        s = socket.create_connection(("127.0.0.1", port))
        s.sendall(line)
        socks.append(s)
    for s in socks:  # each answers with a greeting and an ack (tabula) or a subscribe ack (redis)
        s.settimeout(10)
        s.recv(4096)
    return socks


def fanout_10k(runs, work, start_tabulad, lb, watchers=10000, variants=()):
    """One writer, `watchers` watchers on as many connections: deliveries per second, the
    delivery time p50/p99, and the server's memory per watcher (RSS with them held, less RSS
    before, over their number), beside Redis pub/sub with as many subscribers, and beside each
    variant's tabulad (`--against` commits, `--variant` flags), the runs alternating."""
    r, rport = redis(work, "--appendonly", "no")
    flags = ("--memory", "--max-connections", str(2 * watchers), "--max-connections-per-ip", "0")
    servers = [("redis", r, rport, b"SUBSCRIBE ch\r\n"), ("tabula", *start_tabulad(*flags), b"WATCH /items\n")]
    for label, binary in variants:
        servers.append((label, *start_tabulad(*flags, *([] if binary else label.split()), binary=binary), b"WATCH /items\n"))
    res = {name: [] for name, *_ in servers}
    try:
        for name, proc, port, line in servers:
            before = rss_kb(proc.pid)
            socks = hold_watchers(port, watchers, line)
            time.sleep(0.5)  # let the server settle its buffers: RSS read once, not a wait for an event
            res[name + " mem"] = (rss_kb(proc.pid) - before) * 1024 / watchers
            for s in socks:
                s.close()
        for _ in range(runs):
            for name, _, port, _ in servers:
                if name == "redis":
                    res[name].append(lb_run(lb, port, "redis", "PUBLISH ch t=__now_us__", 200, 1, 1, ("-S", str(watchers), "-s", "SUBSCRIBE ch")))
                else:
                    res[name].append(lb_run(lb, port, "okerr", "ADD /items t__now_us__ 1", 200, 1, 1, ("-L", "-S", str(watchers), "-s", "WATCH /items", "-a", "1")))
    finally:
        for _, p, _, _ in servers:
            p.terminate(); p.wait()
    print("\nFan-out to %d watchers on %d connections (one writer at P=1, 200 changes a run; redis: PUBLISH to as many SUBSCRIBE connections;"
          " medians of %d alternating runs)" % (watchers, watchers, runs))
    print("%-22s %14s %10s %10s %16s" % ("server", "deliveries/s", "p50 ms", "p99 ms", "bytes/watcher"))
    for name, *_ in servers:
        v = res[name]
        med = lambda k: statistics.median(float(x[k]) for x in v)
        print("%-22s %14.0f %10.2f %10.2f %16.0f" % (name, med("push_rate"), med("fan_p50_ms"), med("fan_p99_ms"), res[name + " mem"]))


def server_stats(port):
    """STATS as a dict of its numeric fields (the server's own counts)."""
    s = socket.create_connection(("127.0.0.1", port))
    f = s.makefile("rb")
    f.readline()
    s.sendall(b"STATS\n")
    out = {}
    for line in f:
        if line.startswith((b"OK", b"ERR")):
            break
        k, _, v = line[2:].decode().partition(": ")
        if v.strip().isdigit():
            out[k] = int(v)
    s.close()
    return out


def mixed(work, start_tabulad, lb, seconds=60):
    """For `seconds` at once: 100 writers, 1,000 watchers on four prefixes, 1,000 readers.
    Each kind's throughput and p99, the deliveries, and the server's RSS before and after."""
    t, port = start_tabulad("--memory", "--max-connections", "10000", "--max-connections-per-ip", "0")
    writes = os.path.join(work, "mixed-writes.txt")
    reads = os.path.join(work, "mixed-reads.txt")
    with open(writes, "w") as f:
        for i in range(400):
            f.write(["SELECT /settings/my-int #%d\n" % (i % 4 + 1), "ADD /items m%d %d\n" % (i, i % 90 + 1), "FAV /items/%d\n" % (i % 9 + 1), "ORDER pesto\n"][i % 4])
    with open(reads, "w") as f:
        for i in range(400):
            f.write(["SHOW /items/%d\n" % (i % 9 + 1), "LS /items LIMIT 20\n", "SHOW /settings/my-int\n", "LS /catalog\n"][i % 4])
    try:
        start = rss_kb(t.pid)
        # Each watcher process also keeps one connection PINGing for the run (a subscriber-only
        # linebench stops once pushes pause, which they do before the load starts).
        watch = [subprocess.Popen([lb, "-p", str(port), "-c", "1", "-S", "250", "-s", "WATCH %s" % prefix, "-a", "1", "-m", "okerr", "-L", "-q",
                                   "-n", "0", "-T", str(seconds + 2), "PING"], stdout=subprocess.PIPE, text=True)
                 for prefix in ("/items", "/settings", "/orders", "/")]
        time.sleep(2)  # the watchers connect and are acknowledged (a window, not a wait for a signal)
        common = ["-n", "0", "-T", str(seconds), "-m", "okerr", "-L", "-q"]
        before = server_stats(port)
        w = subprocess.Popen([lb, "-p", str(port), "-c", "100", "-f", writes, *common, "PING"], stdout=subprocess.PIPE, text=True)
        r = subprocess.Popen([lb, "-p", str(port), "-c", "1000", "-f", reads, *common, "PING"], stdout=subprocess.PIPE, text=True)
        wo, ro = kv(w.communicate()[0]), kv(r.communicate()[0])
        after_load = server_stats(port)
        during = rss_kb(t.pid)
        wa = [kv(p.communicate()[0]) for p in watch]
        time.sleep(1)
        after = rss_kb(t.pid)
    finally:
        t.terminate(); t.wait()
    print("\nMixed load for %d s (tabulad --memory; linebench: 100 writers and 1,000 readers at P=1 cycling assorted requests, 1,000 watchers"
          " in four processes on /items, /settings, /orders and /)" % seconds)
    print("%-13s %12s %10s %10s" % ("kind", "per second", "p50 ms", "p99 ms"))
    print("%-13s %12.0f %10s %10s" % ("writes", float(wo["rps"]), wo["p50_ms"], wo["p99_ms"]))
    print("%-13s %12.0f %10s %10s" % ("reads", float(ro["rps"]), ro["p50_ms"], ro["p99_ms"]))
    delivered = after_load["events_delivered"] - before["events_delivered"]
    print("%-13s %12.0f %10s %10s" % ("events", delivered / seconds, "-", "-"))
    print("%-13s %12.0f %10s %10s" % ("watcher PINGs", sum(float(x["rps"]) for x in wa), "%.3f" % max(float(x["p50_ms"]) for x in wa),
                                      "%.3f" % max(float(x["p99_ms"]) for x in wa)))
    print("(events: deliveries to the 1,000 watchers, the server's own count; slow consumers dropped: %d; watcher connections failed: %s)"
          % (after_load["slow_consumers_dropped"] - before["slow_consumers_dropped"], sum(int(x.get("conn_errors", 0)) for x in wa)))
    print("RSS %d MB before, %d MB at the end of the load, %d MB after the clients left" % (start // 1024, during // 1024, after // 1024))


def fanout_100(runs, rel, lb, variants=()):
    """One writer (c=1) and 100 watchers of /items on --memory --io-threads 2, at P=1 and P=16:
    deliveries per second for this build and each variant (`--against` commits, `--variant`
    flags), alternating with the order rotated every run. Twice: client and server sharing
    both cores ("shared"), then the server on CPU 1 and the client on CPU 0 ("pinned"), so a
    difference in what the client pays (its kernel's receive work) tells apart from the
    server's capacity."""
    builds = [("this build", os.path.join(rel, "tabulad"), ())]
    builds += [(label, binary or os.path.join(rel, "tabulad"), () if binary else tuple(label.split())) for label, binary in variants]
    res = {}
    for placement in ("shared", "pinned"):
        for P in (1, 16):
            for r in range(runs):
                for k in range(len(builds)):
                    label, binary, flags = builds[(k + r) % len(builds)]
                    port = free_port()
                    pin = ["taskset", "-c", "1"] if placement == "pinned" else []
                    p = subprocess.Popen([*pin, binary, "--memory", "--io-threads", "2", "--port", str(port), "--log-level", "warn", *flags],
                                         stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
                    try:
                        wait_port(port)
                        argv = [*(["taskset", "-c", "0"] if placement == "pinned" else []), lb, "-p", str(port), "-c", "1", "-P", str(P),
                                "-n", str(15000 if P == 1 else 60000), "-m", "okerr", "-L", "-q", "-S", "100", "-s", "WATCH /items", "-a", "1",
                                "ADD /items t__now_us__ 1"]
                        out = kv(subprocess.run(argv, check=True, capture_output=True, text=True).stdout)
                        res.setdefault((placement, P, label), []).append(float(out["push_rate"]))
                    finally:
                        p.terminate(); p.wait()
    print("\nFan-out to 100 watchers (one writer, ADD /items; tabulad --memory --io-threads 2; shared: client and server on both cores;"
          " pinned: server on CPU 1, client on CPU 0; medians of %d runs, builds alternating in a rotated order)" % runs)
    print("%-8s %-4s %-26s %14s %10s   %s" % ("where", "P", "server", "deliveries/s", "vs this", "runs"))
    for placement in ("shared", "pinned"):
        for P in (1, 16):
            base = statistics.median(res[(placement, P, builds[0][0])])
            for label, _, _ in builds:
                v = res[(placement, P, label)]
                print("%-8s %-4d %-26s %14.0f %9.2fx   %s" % (placement, P, label, statistics.median(v), statistics.median(v) / base,
                                                          " ".join("%.0f" % x for x in v)))
