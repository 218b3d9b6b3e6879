#!/usr/bin/env python3
"""Pages of another site against a local tabulad, in a real browser (headless Chromium).

A second HTTP server on another port plays the hostile site (http://localhost:OTHER). Its
pages, and links and names it controls, try what the fourth hostile round found open:
  1. a no-cors POST whose JSON body holds a lone surrogate (it crashed the server);
  2. a link whose path carries markup and `..` segments (reflected script, which then
     wrote through the page's own POST);
  3. DNS rebinding: evil.example resolved to 127.0.0.1 (Chromium's host resolver rules),
     reading and writing as if of the same origin;
  4. a text/plain POST to the line port whose body is request lines.
After each, the state is read over the line protocol: the server is up and nothing changed.
"""
import http.server, os, urllib.parse, socket, subprocess, sys, tempfile, threading, time

from selenium import webdriver
from selenium.webdriver.chrome.options import Options
from selenium.webdriver.chrome.service import Service

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BIN = os.environ.get("TABULA_BIN", os.path.join(ROOT, ".build", "debug"))


def request(port, line):
    """One request over the line protocol; its lines up to and including OK or ERR."""
    with socket.create_connection(("127.0.0.1", port), timeout=10) as s:
        f = s.makefile("rwb")
        f.readline()  # * HELLO
        f.write(line.encode() + b"\n")
        f.flush()
        lines = []
        while True:
            reply = f.readline().decode().rstrip("\n")
            lines.append(reply)
            if reply.startswith(("OK", "ERR")):
                return lines


def fail(why):
    raise SystemExit(f"FAIL: {why}")


def wait_until(what, condition, seconds):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():
            return
        time.sleep(0.05)
    fail(f"{what} (waited {seconds} s)")


def hostile_site(pages):
    """Serves `pages` ({path: html}) on a free port of 127.0.0.1; returns the port."""
    class Handler(http.server.BaseHTTPRequestHandler):
        def do_GET(self):
            body = pages.get(self.path.split("?")[0], "").encode()
            self.send_response(200 if body else 404)
            self.send_header("Content-Type", "text/html; charset=utf-8")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args):
            pass

    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    return httpd.server_address[1]


def page(fetch):
    """A page that sends `fetch` (a fetch call's text) and says 'done' in its title once it settles."""
    return f"<!doctype html><title>hostile</title><script>{fetch}.catch(() => {{}}).finally(() => document.title = 'done');</script>"


def main():
    server = subprocess.Popen([os.path.join(BIN, "tabulad"), "--memory", "--port", "0", "--http", "0", "--log-level", "warn"], stdout=subprocess.PIPE, text=True)
    try:
        port, http_port = int(server.stdout.readline()), int(server.stdout.readline())
        attack(server, port, http_port)
    finally:
        server.terminate()
        server.wait(10)


def attack(server, port, http_port):
    body = '{"args":["\\\\uD800\\\\u0041"]}'  # the page's JS string holds the JSON escapes themselves
    pages = {
        "/crash": page(f"fetch('http://127.0.0.1:{http_port}/api/ping', {{method: 'POST', mode: 'no-cors', body: '{body}'}})"),
        "/lines": page(f"fetch('http://127.0.0.1:{port}/', {{method: 'POST', mode: 'no-cors', headers: {{'Content-Type': 'text/plain'}}, body: 'ADD /items pwned 1\\nSELECT /settings/my-int #4\\n'}})"),
    }
    site = hostile_site(pages)
    options = Options()
    options.binary_location = "/usr/bin/chromium"
    for a in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--host-resolver-rules=MAP evil.example 127.0.0.1"):
        options.add_argument(a)
    driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
    driver.set_page_load_timeout(20)
    before = request(port, "SHOW /settings/my-int")
    checks = [crash_post, markup_link, rebinding, line_port]
    failures = []
    try:
        for check in checks:
            try:
                print("ok - " + check(driver, server, port, http_port, site, before))
            except SystemExit as e:
                failures.append(str(e))
                print(e)
    finally:
        driver.quit()
    if failures:
        fail(f"{len(failures)} of {len(checks)} hostile pages got through")


def crash_post(driver, server, port, http_port, site, before):
    """1. The crashing body, sent by a page of another site."""
    driver.get(f"http://localhost:{site}/crash")
    wait_until("the crash page ran", lambda: driver.title == "done", 10)
    if server.poll() is not None:
        fail(f"tabulad died after the page's POST (exit {server.returncode})")
    if not request(port, "PING")[-1].startswith("OK"):
        fail("tabulad did not answer PING after the page's POST")
    return "a page of another site POSTing a lone surrogate leaves tabulad up"


def markup_link(driver, server, port, http_port, site, before):
    """2. A link of another site carrying markup and dot segments."""
    markup = "%3Cimg%20src%3Dx%20onerror%3D%22fetch('/api/fav',{method:'POST',body:JSON.stringify({args:['/items/1','on']})})%22%3E"
    segments = 1 + urllib.parse.unquote(markup).count("/")  # each ".." undoes one, back to /catalog
    driver.get(f"http://127.0.0.1:{http_port}/catalog/{markup}" + "%2F.." * segments)
    wait_until("the linked page loaded", lambda: driver.execute_script("return document.readyState") == "complete", 10)
    # The page's own script has run and connected its stream: an injected handler, which
    # fires as its image fails, would have run before.
    wait_until("the page connected", lambda: "connecting" not in driver.execute_script("return document.getElementById('status').className"), 10)
    if driver.execute_script("return document.querySelectorAll('img[onerror]').length") != 0:
        fail("the injected element is in the page")
    if not any("favorite: no" in l for l in request(port, "SHOW /items/1")):
        fail("the injected script starred /items/1")
    if not driver.current_url.endswith("/catalog"):
        fail(f"the link was not sent to the path it resolves to: {driver.current_url}")
    return "a link with markup and .. segments lands on /catalog, with nothing injected and nothing written"


def rebinding(driver, server, port, http_port, site, before):
    """3. DNS rebinding: evil.example is 127.0.0.1."""
    driver.get(f"http://evil.example:{http_port}/api/ls?path=/items")
    text = driver.execute_script("return document.body.innerText")
    if "Rusty Spork" in text or "--http-host evil.example" not in text:
        fail(f"a rebound name read the items: {text[:300]}")
    status = driver.execute_async_script(
        "const done = arguments[0]; fetch('/api/fav', {method: 'POST', headers: {'Content-Type': 'application/json'}, body: JSON.stringify({args: ['/items/3', 'on']})})"
        ".then(r => done(r.status), e => done(String(e)));")
    if not any("favorite: no" in l for l in request(port, "SHOW /items/3")):
        fail("a rebound name's write starred /items/3")
    if status != 421:
        fail(f"a rebound name's write was answered {status}, not 421")
    return "a rebound name (evil.example -> 127.0.0.1) is refused 421, reads and writes alike"


def line_port(driver, server, port, http_port, site, before):
    """4. A text/plain POST to the line port."""
    driver.get(f"http://localhost:{site}/lines")
    wait_until("the line-port page ran", lambda: driver.title == "done", 10)
    if any("pwned" in l for l in request(port, "LS /items")):
        fail("the POST's body added an item over the line port")
    if request(port, "SHOW /settings/my-int") != before:
        fail("the POST's body changed My Int over the line port")
    return "a page's POST to the line port runs none of its body's lines"


if __name__ == "__main__":
    main()
