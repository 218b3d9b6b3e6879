"""Scripts/bench --attacks, the login and handshake floods: what another client sees while
they run. Flooders run in processes of their own (not threads: the GIL would time them
against the measuring client)."""
import multiprocessing, os, socket, ssl, statistics, subprocess, time


def source(a, b):
    return ("127.%d.%d.%d" % (a, b // 250, 1 + b % 250), 0)


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
            f.write(subprocess.run([os.path.join(rel, "tabulad"), "passwd", name, role], input="pw\npw\n", check=True,
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
        stop.set()
        for q in procs:
            q.join(5)
            if q.is_alive():
                q.terminate()
        p.terminate(); p.wait()


def handshaker(port, cafile, stop):
    """TLS handshakes and closes in a loop (cafile None: plain TCP connects, the control)."""
    ctx = ssl.create_default_context(cafile=cafile) if cafile else None
    while not stop.is_set():
        try:
            s = socket.create_connection(("127.0.0.1", port))
            s = ctx.wrap_socket(s, server_hostname="127.0.0.1") if ctx else s
            if not ctx:
                s.recv(100)  # the greeting: as far as a handshake goes
            s.close()
        except OSError:
            pass


def handshake_flood(rel, start_tabulad, work):
    rsa, ec = ["-newkey", "rsa:2048"], ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1"]
    for kind, keyopts, tls in (("plain TCP connects, the control", rsa, False), ("RSA 2048", rsa, True), ("ECDSA P-256", ec, True)):
        cert, key = os.path.join(work, "hs-cert.pem"), os.path.join(work, "hs-key.pem")
        subprocess.run(["openssl", "req", "-x509", *keyopts, "-nodes", "-keyout", key, "-out", cert, "-subj", "/CN=localhost", "-days", "2",
                        "-addext", "subjectAltName=DNS:localhost,IP:127.0.0.1"], check=True, capture_output=True)
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
            stop.set()
            for q in procs:
                q.join(5)
                if q.is_alive():
                    q.terminate()
            p.terminate(); p.wait()
