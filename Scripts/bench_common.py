"""What the bench modules share: a server started on free ports, a connection that read its
greeting, a request's final reply, pipelined requests, another client's PING, a process's
RSS and CPU seconds, a source address per flooder, a users file, a TLS certificate and a
handshaker. It imports no bench, and no bench takes these from another (two take
workloads: pinned_bench from anchors_bench, viewers_bench from floods_bench), so no bench
imports another in a circle."""
import os
import socket
import ssl
import subprocess
import threading
import time


def conn(port):
    """A line-protocol connection to 127.0.0.1:port, its greeting read: (socket, file)."""
    s = socket.create_connection(("127.0.0.1", port))
    f = s.makefile("rb")
    f.readline()
    return s, f


def reply(f):
    """Reads up to a request's final line (OK or ERR, or the end) and returns it."""
    while True:
        l = f.readline()
        if not l or l.startswith(b"OK") or l.startswith(b"ERR"):
            return l


def ping_ms(s, f, n=20):
    """n PINGs one after another: the median and the slowest, in milliseconds."""
    lat = []
    for _ in range(n):
        t = time.time(); s.sendall(b"PING\n"); reply(f); lat.append((time.time() - t) * 1000)
    lat.sort()
    return lat[len(lat) // 2], lat[-1]


def rss_mb(pid):
    """The process's resident memory, in MB."""
    with open("/proc/%d/status" % pid) as f:
        return int(next(l for l in f if l.startswith("VmRSS")).split()[1]) // 1024


def cpu_seconds(pid):
    """The process's user and system CPU seconds so far (/proc/PID/stat)."""
    fields = open("/proc/%d/stat" % pid).read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def source(a, b):
    """A loopback source address of its own for flooder (a, b): the per-address bounds then
    count each alone."""
    return ("127.%d.%d.%d" % (a, b // 250, 1 + b % 250), 0)


def users_file(binary, path, users, secret=lambda name: "pw-%s" % name):
    """Writes a users file at `path` of (name, role, [passwd flags]), each with
    `secret(name)` (cheap hashes: 1,000 iterations); returns the path."""
    with open(path, "w") as out:
        for name, role, flags in users:
            subprocess.run([binary, "passwd", name, role, "--iterations", "1000", "--force", *flags],
                           input=secret(name) + "\n", text=True, stdout=out, check=True)
    return path


def start_server(binary, *flags):
    """tabulad on free ports (line, then RESP), on memory unless --data is given: (process, port, resp port)."""
    store = [] if "--data" in flags else ["--memory"]
    p = subprocess.Popen([binary, "--port", "0", "--resp-port", "0", "--log-level", "error", *store, *flags],
                         stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    return p, int(p.stdout.readline()), int(p.stdout.readline())


def pipelined(port, lines):
    """Sends `lines` (bytes, one request each) on one connection and reads their replies."""
    s, f = conn(port)
    t = threading.Thread(target=s.sendall, args=(b"".join(lines),), daemon=True)
    t.start()
    for _ in lines:
        reply(f)
    t.join()
    s.close()


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


def self_signed_cert(work, name, keyopts=("-newkey", "rsa:2048")):
    """A certificate for localhost and 127.0.0.1 and its key, made in `work`: (cert, key)."""
    cert, key = os.path.join(work, name + "-cert.pem"), os.path.join(work, name + "-key.pem")
    subprocess.run(["openssl", "req", "-x509", *keyopts, "-nodes", "-keyout", key, "-out", cert, "-subj", "/CN=localhost",
                    "-days", "2", "-addext", "subjectAltName=DNS:localhost,IP:127.0.0.1"], check=True, capture_output=True)
    return cert, key
