#!/usr/bin/env python3
"""The live web view in a real browser (headless Chromium through Selenium).

The items page is opened through a TCP proxy this script can cut; a change made over the
line protocol must show on the page (how soon is printed); then the proxy cuts the page's connections
(and refuses new ones), changes are made meanwhile, and once the proxy lets the page back in
it must show every one of them, each once, in order. Every other page must render with no
script error. --screenshot PATH saves the items page (README's picture).
"""
import argparse, os, socket, subprocess, sys, threading, time

from selenium import webdriver
from selenium.webdriver.chrome.options import Options
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BIN = os.environ.get("TABULA_BIN", os.path.join(ROOT, ".build", "debug"))


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
            if not self.open:
                client.close()
                continue
            upstream = socket.create_connection(("127.0.0.1", self.target))
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
            for a, b in self.pairs:
                for s in (a, b):
                    try:
                        s.shutdown(socket.SHUT_RDWR)
                        s.close()
                    except OSError:
                        pass
            self.pairs = []

    def restore(self):
        self.open = True


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


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--screenshot", help="save the items page as this PNG")
    args = ap.parse_args()
    server = subprocess.Popen([os.path.join(BIN, "tabulad"), "--memory", "--port", "0", "--http", "0", "--log-level", "warn"], stdout=subprocess.PIPE, text=True)
    try:
        port, http = int(server.stdout.readline()), int(server.stdout.readline())
        proxy = CuttableProxy(http)
        options = Options()
        options.binary_location = "/usr/bin/chromium"
        for a in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--window-size=1200,800"):
            options.add_argument(a)
        options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
        driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
        try:
            run(driver, port, proxy, args.screenshot)
        finally:
            driver.quit()
    finally:
        server.terminate()
        server.wait(10)


def run(driver, port, proxy, screenshot):
    base = f"http://127.0.0.1:{proxy.port}"
    text = lambda: driver.find_element(By.ID, "view").text
    status = lambda: driver.find_element(By.ID, "status").text
    changes = lambda: driver.find_element(By.ID, "changes").text

    for page, expected in (("/", "items"), ("/settings", "My String"), ("/catalog", "Item 1"), ("/menu", "Margherita")):
        driver.get(base + page)
        wait_until(f"{page} shows {expected}", lambda: expected in text() and status().startswith("live"), 10)
        errors = [e for e in driver.get_log("browser") if e["level"] == "SEVERE"]
        if errors:
            raise SystemExit(f"FAIL: {page} logged script errors: {errors}")
        print(f"ok - {page} renders ({expected!r} shown) with no script error")

    driver.get(base + "/items")
    wait_until("the items page shows the seed items live", lambda: "Rusty Spork" in text() and status().startswith("live"), 10)
    reply = request(port, "ADD /items Lamp 30")
    sent = time.monotonic()
    assert reply.startswith("OK"), reply
    # Measured and printed, not asserted (no test asserts a timing): the deadline only keeps
    # a page that never updates from hanging the run.
    shown = wait_until("the page shows an item added over TCP", lambda: "Lamp" in text(), 10)
    print(f"ok - an item added over TCP shows on the page in {(shown - sent) * 1000:.0f} ms")

    proxy.cut()
    wait_until("the page says it is offline once its stream is cut", lambda: status().startswith("offline"), 10)
    made = [request(port, line) for line in ("ADD /items Desk 80", "FAV /items/5", "ADD /items Chair 7")]
    assert all(r.startswith("OK") for r in made), made
    revs = [int(r.rsplit("rev=", 1)[1]) for r in made]
    if "Desk" in text():
        raise SystemExit("FAIL: the page saw a change while its connection was cut")
    print("ok - the page shows it is offline and sees nothing while cut")
    proxy.restore()
    wait_until("the page is back and shows every change made while it was cut", lambda: "Desk" in text() and "Chair" in text() and "was offline" in status(), 15)
    log = changes()
    for rev in revs:
        count = sum(1 for line in log.splitlines() if line.startswith(f"{rev} "))
        if count != 1:
            raise SystemExit(f"FAIL: revision {rev} is in the page's changes {count} times:\n{log}")
    if "★" not in text():
        raise SystemExit("FAIL: the favourite made while cut is not shown")
    print(f"ok - back online, the page shows the {len(revs)} changes made while it was cut, each once ({status()})")
    if screenshot:
        driver.save_screenshot(screenshot)
        print(f"ok - screenshot saved to {screenshot}")
    new_user_bugs(driver, port, base, text)


def new_user_bugs(driver, port, base, text):
    """The three breaks a new user found, each of which this failed on before its fix."""
    driver.get(base + "/menu")
    orders = lambda: driver.find_element(By.CSS_SELECTOR, ".columns > div:nth-child(2)").text
    wait_until("the menu page is live", lambda: "Margherita" in text() and driver.find_element(By.ID, "status").text.startswith("live"), 10)
    before = orders().count("Pepperoni")
    assert request(port, "ORDER /menu/pizza/pepperoni").startswith("OK")
    wait_until("the menu page's order list shows an order made over TCP", lambda: orders().count("Pepperoni") == before + 1, 10)
    print("ok - /menu's order list updates live (it watched /menu, where no order lives)")

    driver.get(base + "/catalog")
    wait_until("the catalog shows Item 1", lambda: "Item 1" in text(), 10)
    next(a for a in driver.find_elements(By.CSS_SELECTOR, "a.drill") if a.text == "Item 1").click()
    wait_until("Item 1 opens", lambda: "Item 1.2" in text(), 10)
    next(a for a in driver.find_elements(By.CSS_SELECTOR, "a.drill") if a.text == "Item 1.2").click()
    wait_until("the leaf Item 1.2 shows its image", lambda: "Image.jpg" in text(), 10)
    if "undefined" in text():
        raise SystemExit(f"FAIL: a catalog leaf shows undefined:\n{text()}")
    print("ok - a catalog leaf is drawn as its kind, not as 'undefined | undefined'")

    assert request(port, "BANDS Nothing 1 Rest").startswith("OK")
    driver.get(base + "/items")
    wait_until("the items page shows the empty band and the rest", lambda: "No Items" in text() and "Rusty Spork" in text(), 10)
    if "undefined" in text():
        raise SystemExit(f"FAIL: an empty band draws its placeholder as an item:\n{text()}")
    print("ok - an empty price band shows No Items, and no 'undefined $undefined' row")
    heading = driver.find_elements(By.CSS_SELECTOR, "#view h2")[1].text
    if heading.upper() != "REST · ≥ $1 · 7 ITEMS":
        raise SystemExit(f"FAIL: a section header does not say its range and count: {heading!r}")
    if "#1" not in text():
        raise SystemExit("FAIL: the items page shows no item ids")
    links = [a.get_attribute("href").rsplit("/", 1)[1] for a in driver.find_elements(By.CSS_SELECTOR, "nav a")]
    if "clients" not in links or "metrics" not in links:
        raise SystemExit(f"FAIL: /clients and /metrics are not linked from the header: {links}")
    print(f"ok - section headers say range and count ({heading}), items show their ids, the header links /clients and /metrics")


if __name__ == "__main__":
    main()
