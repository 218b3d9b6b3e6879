#!/usr/bin/env python3
"""The live web view in a real browser (headless Chromium through Selenium).

The items page is opened through a TCP proxy this script can cut; a change made over the
line protocol must show on the page (how soon is printed); then the proxy cuts the page's connections
(and refuses new ones), changes are made meanwhile (the page's buttons disabled), and once
the proxy lets the page back in it must show every one of them, each once, in order, its
buttons enabled again. Under chaos (random writes while the
proxy cuts the page every 50–500 ms, with a history of 20 changes, so resumes also fall back
to a snapshot) the page's copy must end equal to LS. Every other page must render with no
script error. --screenshot PATH saves the items page (README's picture).
"""
import argparse, json, os, random, shutil, socket, subprocess, sys, tempfile, threading, time

from browser_common import request, request_all, wait_until
from browser_people import TwoPeople
from cutting_proxy import CuttableProxy
from selenium import webdriver
from selenium.webdriver.chrome.options import Options
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BIN = os.environ.get("TABULA_BIN", os.path.join(ROOT, ".build", "debug"))


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--screenshot", help="save the items page as this PNG")
    ap.add_argument("--shots", help="save a picture of each acting page into this directory")
    args = ap.parse_args()
    certs = tempfile.mkdtemp()
    cert, key = os.path.join(certs, "cert.pem"), os.path.join(certs, "key.pem")
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", key, "-out", cert, "-subj", "/CN=localhost", "-days", "2",
                    "-addext", "subjectAltName=DNS:localhost,IP:127.0.0.1"], check=True, capture_output=True)
    server = subprocess.Popen([os.path.join(BIN, "tabulad"), "--memory", "--port", "0", "--http", "0", "--https-port", "0", "--tls-cert", cert, "--tls-key", key,
                               "--history", "20", "--log-level", "warn"], stdout=subprocess.PIPE, text=True)
    try:
        port, http, https = int(server.stdout.readline()), int(server.stdout.readline()), int(server.stdout.readline())
        proxy = CuttableProxy(http)
        options = Options()
        options.binary_location = "/usr/bin/chromium"
        for a in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--window-size=1200,800"):
            options.add_argument(a)
        options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
        options.set_capability("acceptInsecureCerts", True)  # the test's own self-signed certificate
        driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
        other = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
        try:
            run(driver, port, proxy, args.screenshot)
            TwoPeople(driver, other, port, f"http://127.0.0.1:{http}", args.shots).run()
            users_view(other)
            navigations(driver, f"http://127.0.0.1:{http}")
            over_https(driver, port, https)
            server_pages(driver, f"http://127.0.0.1:{http}")
            phone_width(driver, port, f"http://127.0.0.1:{http}")
        finally:
            driver.quit()
            other.quit()
    finally:
        server.terminate()
        server.wait(10)
        shutil.rmtree(certs, ignore_errors=True)


def run(driver, port, proxy, screenshot):
    chaos.driver = driver
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

    # The page keeps a copy of the list: changes patch its rows, and nothing is read again.
    reads = lambda: driver.execute_script("return performance.getEntriesByType('resource').filter(e => e.name.includes('/api/ls')).length")
    before = reads()
    item = request(port, "ADD /items Stool 12").split()[1]  # OK /items/N in …
    for line in (f"SET {item} value=95", f"FAV {item}", f"MV {item} 1", "MV /items/3 1"):
        assert request(port, line).startswith("OK"), line
    rows = lambda: driver.execute_script("return [...document.querySelectorAll('#view tr[data-item] td:nth-child(3)')].map(td => td.innerText)")
    listed = request_all(port, "FORMAT json", "LS /items LIMIT 1000")[-1]
    order = [r["name"] for r in json.loads(listed)["data"] if r.get("type") == "item"]
    try:
        wait_until("the page shows four more changes", lambda: rows() == order and "★" in text(), 10)
    except SystemExit:
        raise SystemExit(f"FAIL: the page's rows {rows()} are not LS's {order}")
    if reads() != before:
        raise SystemExit(f"FAIL: the page read /api/ls {reads() - before} times for five changes; its copy should patch them")
    assert request(port, f"RM {item}").startswith("OK")  # the rest of the run finds the seed items as they were
    wait_until("the page shows the stool gone", lambda: "Stool" not in text(), 10)
    if "a copy at rev" not in status():
        raise SystemExit(f"FAIL: the status line does not say the copy's revision: {status()!r}")
    print(f"ok - five changes patch the page's copy of /items with no read (rows as LS has them; {status()})")

    enabled = lambda: driver.execute_script("return [...document.querySelectorAll('#view button')].filter(b => !b.disabled).length")
    redrawn = "const done = arguments[arguments.length - 1]; refresh().then(() => done([...document.querySelectorAll('#view button')].filter(b => !b.disabled).length))"
    proxy.cut()
    wait_until("the page says it is offline once its stream is cut", lambda: status().startswith("offline"), 10)
    if enabled() or driver.execute_async_script(redrawn):
        raise SystemExit(f"FAIL: offline, the page offers {enabled()} enabled buttons (drawn again: {driver.execute_async_script(redrawn)})")
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
    if enabled() == 0 or driver.find_elements(By.CSS_SELECTOR, "#view button[data-offline]"):
        raise SystemExit("FAIL: back online, the page's buttons are still disabled")
    print(f"ok - back online, the page shows the {len(revs)} changes made while it was cut, each once ({status()}); its buttons, disabled while offline, are enabled")
    chaos(port, proxy, text, status)
    if screenshot:
        driver.save_screenshot(screenshot)
        print(f"ok - screenshot saved to {screenshot}")
    new_user_bugs(driver, port, base, text)


def chaos(port, proxy, text, status):
    """Random writes to /items while the proxy cuts the page's stream every 50–500 ms; after
    quiescence the page's rows (names in order, stars) equal LS's. The seed is printed, and
    TABULA_SEED replays it."""
    driver = chaos.driver
    seed = int(os.environ.get("TABULA_SEED", time.time_ns() % 2**32))
    rng, added, cuts = random.Random(seed), [], 0
    for i in range(60):
        if added and rng.random() < 0.6:
            item = rng.choice(added)
            line = rng.choice([f"SET {item} value={rng.randint(1, 99)}", f"FAV {item}", f"MV {item} {rng.randint(1, 3)}", f"RM {item}"])
            if line.startswith("RM"):
                added.remove(item)
        else:
            line = f"ADD /items Chaos{i} {rng.randint(1, 99)}"
        reply = request(port, line)
        if line.startswith("ADD"):
            added.append(reply.split()[1])
        elif not reply.startswith("OK") and "CONFLICT" not in reply and "INVALID" not in reply:
            raise SystemExit(f"FAIL (seed {seed}): {line} → {reply}")
        if rng.random() < 0.2:
            proxy.cut()
            cuts += 1
            time.sleep(rng.uniform(0.05, 0.5))  # the fault's length, not a wait for anything
            proxy.restore()
    listed = json.loads(request_all(port, "FORMAT json", "LS /items LIMIT 1000")[-1])["data"]
    want = [(r["name"], r["favorite"]) for r in listed if r.get("type") == "item"]
    shown = lambda: driver.execute_script("return [...document.querySelectorAll('#view tr[data-item]')].map(tr => [tr.children[2].innerText, tr.querySelector('.star-cell').innerText.includes('★')])")
    try:
        wait_until("the page's copy settles", lambda: [tuple(r) for r in shown()] == want and status().startswith("live"), 20)
    except SystemExit:
        raise SystemExit(f"FAIL (seed {seed}): after {cuts} cuts the page shows {shown()}, LS has {want}")
    print(f"ok - under chaos (seed {seed}: 60 writes, {cuts} cuts, history of 20) the page's copy equals LS ({len(want)} items)")
    for item in added:
        request(port, f"RM {item}")
    wait_until("the chaos items are gone from the page", lambda: "Chaos" not in text(), 10)


def over_https(driver, port, https):
    """The pages over --https-port: the items live over TLS, a change made over TCP arriving on
    the event stream."""
    driver.get(f"https://localhost:{https}/items")
    text = lambda: driver.find_element(By.ID, "view").text
    wait_until("the items page over HTTPS is live", lambda: "Rusty Spork" in text() and driver.find_element(By.ID, "status").text.startswith("live"), 10)
    assert request(port, "ADD /items Tinfoil 9").startswith("OK")
    wait_until("a change made over TCP shows on the HTTPS page", lambda: "Tinfoil" in text(), 10)
    if not driver.execute_script("return location.protocol") == "https:":
        raise SystemExit("FAIL: the page is not served over https")
    print("ok - over --https-port the items page is live and a change made over TCP arrives on its TLS event stream")


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
    frame, caption = (driver.find_element(By.CSS_SELECTOR, f"figure.image {e}").text for e in (".frame", "figcaption"))
    if "no image" not in frame or caption != "Image.jpg":
        raise SystemExit(f"FAIL: an image leaf's frame says {frame!r} (a glyph with no font is an empty box), its caption {caption!r}")
    print("ok - a catalog leaf is drawn as its kind, not as 'undefined | undefined'; an image leaf names its image and says no image is stored")

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


def users_view(d):
    """With --users: a read-only user's pages offer no action, and a user whose grants allow
    only the menu and the orders may order but is not shown the items."""
    import base64, tempfile
    work = tempfile.mkdtemp()
    users = os.path.join(work, "users")
    with open(users, "w") as f:
        for name, role, grants in (("viewer", "read", []), ("kitchen", "write", ["--allow", "/menu", "--allow", "/orders"])):
            line = subprocess.run([os.path.join(BIN, "tabulad"), "passwd", name, role, *grants, "--iterations", "1000", "--force"],
                                  input="pw-" + name + "\n", capture_output=True, text=True, check=True).stdout
            f.write(line)
    server = subprocess.Popen([os.path.join(BIN, "tabulad"), "--memory", "--port", "0", "--http", "0", "--users", users, "--log-level", "warn"], stdout=subprocess.PIPE, text=True)
    try:
        server.stdout.readline()
        base = f"http://127.0.0.1:{int(server.stdout.readline())}"
        view = lambda: d.find_element(By.ID, "view").text
        d.execute_cdp_cmd("Network.enable", {})

        def login(name):
            token = base64.b64encode(f"{name}:pw-{name}".encode()).decode()
            d.execute_cdp_cmd("Network.setExtraHTTPHeaders", {"headers": {"Authorization": "Basic " + token}})

        login("viewer")
        d.get(base + "/items")
        wait_until("a read-only user's items page shows the items", lambda: "Rusty Spork" in view() and d.find_element(By.ID, "status").text.startswith("live"), 10)
        controls = d.find_elements(By.CSS_SELECTOR, "#view button[data-verb], #view form, #view button[data-local=edit]")
        if controls:
            raise SystemExit(f"FAIL: a read-only user is offered {len(controls)} controls")
        d.get(base + "/settings/my-int")
        wait_until("a read-only user's setting shows its options", lambda: "My Int" in view() and d.find_elements(By.CSS_SELECTOR, "span.opt.on"), 10)
        if d.find_elements(By.CSS_SELECTOR, "button.opt"):
            raise SystemExit("FAIL: a read-only user may tap an option")
        print("ok - a read-only user's pages show the lists and offer no action (only the favourites filter, which is its own view)")

        login("kitchen")
        d.get(base + "/menu")
        wait_until("the kitchen's menu page is live", lambda: "Margherita" in view() and d.find_element(By.ID, "status").text.startswith("live"), 10)
        next(b for b in d.find_elements(By.CSS_SELECTOR, "button.entry") if b.text == "Margherita").click()
        wait_until("the kitchen's order shows", lambda: d.find_elements(By.CSS_SELECTOR, "tr.newest") and "Margherita" in d.find_element(By.CSS_SELECTOR, "tr.newest").text, 10)
        d.get(base + "/items")
        wait_until("the kitchen is told it may not read the items", lambda: "NOPERM" in view(), 10)
        if "Rusty Spork" in view():
            raise SystemExit("FAIL: a user without /items is shown the items")
        print("ok - a user allowed /menu and /orders orders from the menu page and is not shown the items")
        d.execute_cdp_cmd("Network.setExtraHTTPHeaders", {"headers": {}})
    finally:
        server.terminate()
        server.wait(10)


def navigations(d, base):
    """Ten pages one after another, then Back through all of them and Forward again: each
    must be live within 5 s (a stream kept open by every page left behind, in the back/forward
    cache, used up the six connections a browser opens to a host), with its own title."""
    pages = ["/settings", "/catalog", "/items", "/menu", "/orders", "/settings/my-int", "/catalog/item-1", "/items/2", "/menu/pizza", "/"]
    titles = {"/settings": "Settings — Tabula", "/catalog": "Catalog — Tabula", "/items": "Items — Tabula", "/menu": "Menu — Tabula", "/": "Tabula"}

    def live(what):
        wait_until(f"{what} is live", lambda: d.execute_script("return document.getElementById('status').className").endswith("live"), 5)

    started = time.monotonic()
    for p in pages:
        d.get(base + p)
        live(p)
        if p in titles and d.title != titles[p]:
            raise SystemExit(f"FAIL: {p} is titled {d.title!r}, not {titles[p]!r}")
    for _ in pages[1:]:
        d.back()
        live(f"Back to {d.current_url}")
    for _ in pages[1:]:
        d.forward()
        live(f"Forward to {d.current_url}")
    print(f"ok - ten navigations, Back through them and Forward again: every page live within 5 s ({time.monotonic() - started:.1f} s in all), each titled for itself")


def server_pages(d, base):
    """Clients and Metrics are pages with the nav bar, read every 2 s from /clients and
    /metrics (which stay raw, for tools)."""
    view = lambda: d.find_element(By.ID, "view").text
    d.get(base + "/server/clients")
    wait_until("the Clients page lists the connections", lambda: "Clients" in view() and "connected" in view() and "http" in view(), 10)
    if d.title != "Clients — Tabula" or "current" not in d.find_element(By.CSS_SELECTOR, 'nav a[href="/server/clients"]').get_attribute("class"):
        raise SystemExit(f"FAIL: the Clients page is titled {d.title!r}, or its nav link is not marked current")
    d.get(base + "/server/metrics")
    wait_until("the Metrics page shows the families", lambda: "Metrics" in view() and "tabulad_connections" in view(), 10)
    raw = d.execute_script("return fetch('/metrics').then(r => r.headers.get('content-type'))")
    if not raw.startswith("text/plain"):
        raise SystemExit(f"FAIL: /metrics is no longer Prometheus text: {raw}")
    print("ok - Clients and Metrics are pages with the nav bar (titled, marked current); /clients and /metrics stay raw")


SPILLED_HEADERS = """return [...document.querySelectorAll('#view th')].filter(th => {
  const r = document.createRange(); r.selectNodeContents(th);
  const t = r.getBoundingClientRect(), c = th.getBoundingClientRect();
  return t.left < c.left - 0.5 || t.right > c.right + 0.5; }).map(th => th.textContent)"""


def phone_width(d, port, base):
    """At 360 and 375 px (phones) no page scrolls sideways, every item's buttons are on screen
    and no table header's text runs over its cell (into the next one's); at 1,200 px an
    order's time stays on one line."""
    for _ in range(3):
        assert request(port, "ORDER /menu/pizza/margherita").startswith("OK")
    d.set_window_size(1200, 800)
    d.get(base + "/menu")
    wait_until("the menu page shows orders", lambda: d.find_elements(By.CSS_SELECTOR, "td.time"), 10)
    tall = d.execute_script("return [...document.querySelectorAll('td.time')].filter(td => { const r = document.createRange(); r.selectNodeContents(td); return r.getClientRects().length > 1; }).length")
    if tall:
        raise SystemExit(f"FAIL: {tall} order times wrap at 1,200 px")
    for narrow in (360, 375):
        d.set_window_size(narrow, 800)
        width = d.execute_script("return window.innerWidth")
        if width > 400:
            raise SystemExit(f"FAIL: the window could not be made narrow (innerWidth {width})")
        for page in ("/items", "/menu", "/settings/my-int", "/catalog/item-1", "/server/clients"):
            d.get(base + page)
            wait_until(f"{page} at {width} px is drawn", lambda: d.find_element(By.ID, "view").text.strip() != "" and "connecting" not in d.find_element(By.ID, "status").text, 10)
            over = d.execute_script("return document.documentElement.scrollWidth - window.innerWidth")
            cut = d.execute_script("return [...document.querySelectorAll('#view button')].filter(b => b.getBoundingClientRect().right > window.innerWidth + 0.5).length")
            spilled = d.execute_script(SPILLED_HEADERS)
            if over > 0 or cut or spilled:
                d.save_screenshot("/tmp/tabula-phone.png")
                raise SystemExit(f"FAIL: at {width} px {page} is {over} px too wide, {cut} buttons cut off, headers {spilled} run over their cells (/tmp/tabula-phone.png)")
    d.set_window_size(1200, 800)
    print("ok - at 360 and 375 px no page scrolls sideways, every button is on screen and every table header fits its cell; at 1,200 px order times stay on one line")


if __name__ == "__main__":
    main()
