#!/usr/bin/env python3
"""Drives a running tabulad with redis-py, a RESP client nobody here wrote.

    resp-test.py PORT [USERS_PORT]

PORT is a server without users; USERS_PORT, if given, one whose users file has
`ci write --allow /items --allow /orders` with secret hunter2.

Checks: execute_command for every verb of COMMAND (the verb table) in RESP2 and RESP3;
a pipeline answered in order; pubsub() on /orders in RESP2 and RESP3 push; a watcher that
is cut off and resumes with WATCH /orders FROM its last revision without a gap; AUTH with
grants. Prints one line per check; exits 1 at the first failure.
"""
import json
import sys
import time

import redis


def fail(what):
    print(f"FAIL: {what}", file=sys.stderr)
    sys.exit(1)


def check(cond, what):
    if not cond:
        fail(what)
    print(f"ok - {what}")


def messages(p, n, timeout=10):
    """The next n messages on pubsub p (confirmations skipped), within timeout."""
    got, deadline = [], time.time() + timeout
    while len(got) < n and time.time() < deadline:
        m = p.get_message(timeout=0.5)
        if m and m["type"] == "message":
            got.append(json.loads(m["data"]))
    return got


# One plausible call of each verb: what matters is that each gets its own reply, in order.
CALLS = {
    "help": ["HELP"], "ping": ["PING"], "ls": ["LS", "/settings"], "show": ["SHOW", "/settings/my-int"],
    "cd": ["CD", "/items"], "pwd": ["PWD"], "select": ["SELECT", "/settings/my-int", "#3"],
    "add": ["ADD", "/items", "Desk Lamp", "80"], "set": ["SET", "/items/1", "value=12"],
    "rm": ["RM", "/orders"], "mv": ["MV", "/items/1", "1"], "fav": ["FAV", "/items/1"],
    "filter": ["FILTER", "all"], "bands": ["BANDS"], "order": ["ORDER", "/menu/pizza/margherita"],
    "watch": None, "unwatch": ["UNWATCH"], "format": ["FORMAT"], "stats": ["STATS"],
    "complete": ["COMPLETE", "LS /it"], "auth": ["AUTH", "nobody", "x"], "whoami": ["WHOAMI"],
    "sync": ["SYNC", "0"], "clients": ["CLIENTS"], "quit": None,
    "hello": ["HELLO"], "client": ["CLIENT", "ID"], "config": ["CONFIG", "GET", "save"], "info": ["INFO"], "echo": ["ECHO", "hi"], "latency": ["LATENCY", "LATEST"], "multi": None, "exec": None, "discard": None,
    "command": lambda r: r.command_count(), "subscribe": None, "unsubscribe": None,
}


def every_verb(port, protocol):
    r = redis.Redis(port=port, protocol=protocol)
    names = [n.decode() if isinstance(n, bytes) else n for n in r.command_list()]
    missing = [n for n in names if n not in CALLS]
    check(not missing, f"RESP{protocol}: every command COMMAND LIST names has a call here ({missing})")
    for name in names:
        call = CALLS[name]
        if call is None:
            continue  # a mode change or a close: tested below
        try:
            reply = call(r) if callable(call) else r.execute_command(*call)
        except redis.ResponseError as e:
            reply = e
        if callable(call):
            call = [name.upper()]
        if name == "auth":
            check(isinstance(reply, redis.ResponseError) and "no users file" in str(reply), f"RESP{protocol}: AUTH without users says why")
        elif name == "format":
            check(isinstance(reply, redis.ResponseError) and "keeps RESP" in str(reply), f"RESP{protocol}: FORMAT is refused")
        else:
            check(not isinstance(reply, redis.ResponseError), f"RESP{protocol}: {' '.join(call)} -> {str(reply)[:60]!r}")
    check(r.execute_command("PWD") == b"/items", f"RESP{protocol}: the replies stayed paired (PWD after CD /items)")


def pipeline(port):
    r = redis.Redis(port=port, protocol=2)
    p = r.pipeline(transaction=False)
    for i in range(100):
        p.execute_command("SELECT", "/settings/my-int", f"#{i % 4 + 1}")
        p.execute_command("SHOW", "/settings/my-int")
    out = p.execute(raise_on_error=True)
    shown = [next(x for x in rows if x.startswith(b"selected:")) for rows in out[1::2]]
    check(len(out) == 200 and all(s.endswith(f"(#{i % 4 + 1})".encode()) for i, s in enumerate(shown)), "a pipeline of 200 is answered in order (each SHOW sees the SELECT before it)")
    r2 = redis.Redis(port=port, protocol=2, decode_responses=False)
    raw = r2.pipeline(transaction=False)
    for i in range(20):
        raw.execute_command("ADD", "/items", f"Pipelined {i}", str(i + 1))
    revs = [int(x.decode().rsplit("rev=", 1)[1]) for x in raw.execute()]
    check(revs == sorted(revs) and len(set(revs)) == len(revs), "the pipeline's writes carry rising revisions")


def pubsub_and_resume(port, protocol):
    writer = redis.Redis(port=port, protocol=2)
    watcher = redis.Redis(port=port, protocol=protocol)
    p = watcher.pubsub()
    p.subscribe("/orders")
    confirm = p.get_message(timeout=5)
    check(confirm and confirm["type"] == "subscribe" and confirm["channel"] == b"/orders", f"RESP{protocol}: SUBSCRIBE /orders is confirmed")
    for entry in ["margherita", "pepperoni"]:
        writer.execute_command("ORDER", f"/menu/pizza/{entry}")
    got = messages(p, 2)
    check([e["kind"] for e in got] == ["order", "order"], f"RESP{protocol}: each ORDER arrives as a message on /orders")
    last = got[-1]["rev"]
    p.close()  # cut off
    missed = [writer.execute_command("ORDER", "/menu/pasta/carbonara") for _ in range(3)]
    check(len(missed) == 3, "three orders made while the watcher was away")
    # redis-py's pubsub() has no resume, so its Connection sends Tabula's WATCH … FROM.
    again = redis.Connection(port=port, protocol=protocol, socket_timeout=10)
    again.connect()
    again.send_command("WATCH", "/orders", "FROM", str(last))
    ack = again.read_response(push_request=True)
    expected = [b"subscribe", b"/orders", 1] if protocol == 2 else b"watching /orders at rev %d; replaying 3 events" % (last + 3)
    check(ack == expected, f"RESP{protocol}: WATCH /orders FROM {last} is answered {ack!r}")
    got = [json.loads(again.read_response(push_request=True)[2]) for _ in range(3)]
    revs = [e["rev"] for e in got]
    check(revs == list(range(last + 1, last + 4)), f"RESP{protocol}: and replays what was missed without a gap ({revs})")
    synced = json.loads(again.read_response(push_request=True)[2])
    check(synced == {"push": "synced", "rev": last + 3}, f"RESP{protocol}: the replay's end is marked ({synced})")
    writer.execute_command("ORDER", "/menu/dessert/tiramisu")
    live = json.loads(again.read_response(push_request=True)[2])
    check(live["rev"] == last + 4, f"RESP{protocol}: and goes on live")
    again.disconnect()


def logins(port):
    r = redis.Redis(port=port, protocol=2)
    try:
        r.execute_command("LS", "/items")
        fail("LS ran before AUTH")
    except redis.AuthenticationError as e:
        check("authentication required" in str(e), "before AUTH: NOAUTH")
    except redis.ResponseError as e:
        check(str(e).startswith("NOAUTH"), "before AUTH: NOAUTH")
    c = redis.Redis(port=port, protocol=3, username="ci", password="hunter2")
    check(c.execute_command("WHOAMI").decode().startswith("ci write"), "redis-py's login (username, password) is Tabula's AUTH")
    check(isinstance(c.execute_command("LS", "/items"), list), "ci reads /items")
    try:
        c.execute_command("SELECT", "/settings/my-int", "#1")
        fail("ci changed a setting outside its grants")
    except redis.ResponseError as e:
        # redis-py reads -NOPERM as its NoPermissionError, the code taken off the message.
        check(isinstance(e, redis.exceptions.NoPermissionError) and "may not change /settings/my-int" in str(e), f"ci may not change /settings ({type(e).__name__}: {str(e)[:50]})")
    # Every way redis-py logs in: RESP2 with a password alone (the default user is absent:
    # refused as Redis refuses it) and with a username, RESP3 with both; then WATCH and
    # CONFIG answer in the version logged in with.
    for protocol in (2, 3):
        c = redis.Redis(port=port, protocol=protocol, username="ci", password="hunter2", socket_timeout=10)
        check(c.ping() is True, f"RESP{protocol}: redis-py logs in with username and password")
        config = c.config_get("maxmemory")
        check(config == {}, f"RESP{protocol}: CONFIG GET after the login is answered empty ({config!r})")
        if protocol == 3:
            # Past redis-py's WATCH callback (which reads only +OK): the reply itself. A push
            # here would have left it waiting past its timeout.
            conn = c.connection_pool.get_connection("WATCH")
            conn.send_command("WATCH", "/items")
            watched = conn.read_response()
            c.connection_pool.release(conn)
            check(bytes(watched).startswith(b"watching /items"), f"RESP3: WATCH after HELLO 3 AUTH is answered as a command ({watched!r})")
        c.close()
    try:
        redis.Redis(port=port, protocol=2, password="hunter2", socket_timeout=10).ping()
        fail("a password alone logged in as a user who does not exist")
    except redis.AuthenticationError as e:
        check(True, f"RESP2: a password alone is refused as a wrong login ({str(e)[:40]})")
    # A wrong password, again and again from the one local address (as typos anywhere on a
    # machine add up): the server refuses each within 2 s, under redis-py's 5 s timeout, so
    # redis-py (which retries a refused login itself) reports AuthenticationError, never
    # TimeoutError.
    import socket
    import time
    raw = socket.create_connection(("127.0.0.1", port), timeout=10)
    for attempt in range(8):
        started = time.monotonic()
        raw.sendall(b"*3\r\n$4\r\nAUTH\r\n$2\r\nci\r\n$5\r\nwrong\r\n")
        answer = raw.recv(1000)
        took = time.monotonic() - started
        check(answer.startswith(b"-WRONGPASS") and took < 2, f"wrong AUTH #{attempt + 1}: refused in {took:.2f} s")
    raw.close()
    started = time.monotonic()
    try:
        redis.Redis(port=port, protocol=2, username="ci", password="wrong", socket_timeout=5).ping()
        fail("a wrong password logged in")
    except redis.AuthenticationError:
        check(True, f"redis-py with a wrong password: AuthenticationError ({time.monotonic() - started:.1f} s, its retries included)")
    except redis.TimeoutError:
        fail("redis-py with a wrong password: a TimeoutError, not a refusal")


def transactions(port):
    """redis-py's pipeline(transaction=True) is MULTI ... EXEC: applied together, or refused whole."""
    r = redis.Redis(port=port, protocol=2, socket_timeout=10)
    def orders():
        return len(r.execute_command("LS", "/orders", "LIMIT", "10000"))
    before = orders()
    p = r.pipeline(transaction=True)
    p.execute_command("ORDER", "margherita")
    p.execute_command("ORDER", "pepperoni")
    done = p.execute()
    check(len(done) == 2 and all(b"order " in x for x in done), f"redis-py transaction: both writes applied, each reply in EXEC's array ({done!r})")
    p = r.pipeline(transaction=True)
    p.execute_command("ORDER", "margherita")
    p.execute_command("RM", "/items/999")
    try:
        p.execute()
        fail("a transaction with a refused command was reported taken")
    except redis.ResponseError as e:
        check("not applied" in str(e) and "command 2 of 2" in str(e), f"redis-py transaction refused whole, and says which command ({str(e)[:70]})")
    after = orders()
    check(after == before + 2, f"the refused transaction's first write was not applied ({after} orders: {before} before, + 2)")
    for protocol in (3,):
        c = redis.Redis(port=port, protocol=protocol, socket_timeout=10)
        p = c.pipeline(transaction=True)
        p.execute_command("SHOW", "/settings/my-int")
        p.execute_command("FAV", "/items/1", "on")
        got = p.execute()
        check(len(got) == 2, f"RESP{protocol}: redis-py transaction with SHOW and FAV ({str(got)[:60]})")


def main():
    port = int(sys.argv[1])
    every_verb(port, 2)
    every_verb(port, 3)
    pipeline(port)
    transactions(port)
    pubsub_and_resume(port, 2)
    pubsub_and_resume(port, 3)
    if len(sys.argv) > 2:
        logins(int(sys.argv[2]))
    print("ALL RESP CHECKS PASSED")


if __name__ == "__main__":
    main()
