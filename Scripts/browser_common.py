"""What the browser tests share: a request over the line protocol, several on one
connection, and a wait on a condition with a deadline."""
import socket
import time


def request(port, line):
    """Sends one request over the line protocol and returns its final line."""
    with socket.create_connection(("127.0.0.1", port)) as s:
        f = s.makefile("rwb")
        f.readline()  # * HELLO
        f.write(line.encode() + b"\n")
        f.flush()
        while True:
            reply = f.readline().decode().rstrip("\n")
            if reply.startswith(("OK", "ERR")):
                return reply


def request_all(port, *lines):
    """Sends requests on one connection; each one's final line (a JSON reply's whole line)."""
    with socket.create_connection(("127.0.0.1", port)) as s:
        f = s.makefile("rwb")
        f.readline()  # * HELLO
        out = []
        for line in lines:
            f.write(line.encode() + b"\n")
            f.flush()
            while True:
                reply = f.readline().decode().rstrip("\n")
                if reply.startswith(("OK", "ERR", '{"ok"')):
                    out.append(reply)
                    break
        return out


def wait_until(what, condition, seconds):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            if condition():
                return time.monotonic()
        except Exception:
            pass
        time.sleep(0.02)
    raise SystemExit(f"FAIL: {what} (waited {seconds} s)")
