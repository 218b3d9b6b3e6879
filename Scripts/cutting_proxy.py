"""A TCP proxy a test can cut: the faults of the live-view chaos tests (browser-test.py,
live-chaos-test.py)."""
import socket, threading


class CuttableProxy:
    """Forwards 127.0.0.1:port to the target; cut() drops every connection and refuses new ones."""

    def __init__(self, target):
        self.target, self.open, self.pairs, self.lock = target, True, [], threading.Lock()
        self.listener = socket.socket()
        self.listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.listener.bind(("127.0.0.1", 0))
        self.listener.listen(64)
        self.port = self.listener.getsockname()[1]
        threading.Thread(target=self.accept, daemon=True).start()

    def accept(self):
        while True:
            client, _ = self.listener.accept()
            try:
                if not self.open:
                    raise OSError("cut")
                upstream = socket.create_connection(("127.0.0.1", self.target))
            except OSError:
                client.close()
                continue
            with self.lock:
                self.pairs.append((client, upstream))
            for a, b in ((client, upstream), (upstream, client)):
                threading.Thread(target=self.pump, args=(a, b), daemon=True).start()

    @staticmethod
    def pump(a, b):
        try:
            while data := a.recv(65536):
                b.sendall(data)
        except OSError:
            pass
        for s in (a, b):
            try:
                s.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass

    def cut(self):
        self.open = False
        with self.lock:
            for pair in self.pairs:
                for s in pair:
                    try:
                        s.shutdown(socket.SHUT_RDWR)
                        s.close()
                    except OSError:
                        pass
            self.pairs = []

    def restore(self):
        self.open = True
