/// The page's script, first part: where the page is (every path under a list has its page,
/// and a drill-down moves the address with `pushState`, so Back, reload and links keep the
/// place), the stream of `/events` for the list (after a cut it reconnects with `from=` the
/// last revision it had, so it is shown every change made meanwhile, none twice), and the
/// actions: `POST /api/VERB` with the revision on screen as `IF REV`, a refusal said in the
/// notice line. The items and settings pages keep a copy of their list from the stream
/// (`WebReplica`: a snapshot, then each event patches its row) and read nothing per event,
/// while the list fits one page of 1,000 rows; the other pages, and a longer list, read their
/// rows again on each change (coalesced). The views are in `WebViews`.
enum WebScript {
    static let js = #"""
        "use strict";
        const lists = ["settings", "catalog", "items", "menu", "orders"];
        const view = document.getElementById("view");
        const statusBox = document.getElementById("status");
        const revBox = document.getElementById("rev");
        const noticeBox = document.getElementById("notice");
        const changes = document.getElementById("changes");
        let here = "/", place = "/";
        let lastRev = null, source = null, retryTimer = null, retryDelay = 500, loading = false, again = false, offlineSince = null;
        let canWrite = false;
        const flashed = new Set();
        const state = { editing: null, draft: {}, adding: {}, favoritesOnly: false };

        function locate() {
          const first = location.pathname.split("/")[1] || "";
          here = lists.includes(first) ? "/" + (first === "orders" ? "menu" : first) : first === "server" ? location.pathname.replace(/\/+$/, "") : "/";
          place = decodeURIComponent(location.pathname).replace(/\/+$/, "") || "/";
          for (const a of document.querySelectorAll("nav a")) a.classList.toggle("current", a.getAttribute("href") === here);
          const name = here === "/" ? "" : here.split("/").pop().charAt(0).toUpperCase() + here.split("/").pop().slice(1);
          const leaf = here.startsWith("/server/") ? undefined : place.split("/").filter(Boolean).slice(1).pop();
          document.title = (name ? name + (leaf ? " · " + leaf : "") + " — " : "") + "Tabula";
        }
        locate();
        // The menu page shows the order list too, which lives under /orders: it watches everything
        // and takes only what is under the two.
        const prefix = here === "/menu" ? "/" : here;
        const shows = here === "/menu" ? p => p.startsWith("/menu") || p.startsWith("/orders") : () => true;

        // What the server put in the page: the role this is (a read-only one is offered no action)
        // and the reply of the page's first read, so that the first paint needs no round trip.
        const first = JSON.parse(document.getElementById("first").textContent);
        // The copy of the page's list, where it keeps one (a list longer than a page is read a page at a time).
        const replica = (here === "/items" || here === "/settings") && !(first.reply && / more: /.test(first.reply.message || "")) ? new Replica(here) : null;
        let wasOffline = null;
        function esc(s) { return String(s).replace(/[&<>"']/g, c => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]); }
        async function api(verb, path, extra) {
          if (first.reply && verb === "ls" && path === first.path) {
            const body = first.reply;
            first.reply = null;
            if (body.ok) return body;
          }
          const q = new URLSearchParams(Object.assign({ path }, extra || {}));
          const r = await fetch(`/api/${verb}?${q}`, { cache: "no-store" });
          const body = await r.json();
          if (!body.ok) throw new Error(`${body.code}: ${body.message}`);
          return body;
        }
        async function post(verb, args) {
          const r = await fetch(`/api/${verb}`, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ args }) });
          return r.json();
        }
        function notice(kind, text) {
          noticeBox.className = "notice " + kind;
          noticeBox.textContent = text;
        }
        // Runs one action; a refusal (a conflict above all: the row changed since it was drawn) is
        // said, and the view is read again so that what is shown is what the server holds.
        async function act(verb, args, what) {
          let body;
          try { body = await post(verb, args); } catch (err) { notice("error", `${what}: ${err.message}`); return false; }
          if (body.ok) notice("done", `${what}: ${body.message}`);
          else notice(body.code === "CONFLICT" ? "conflict" : "error", `${what} refused: ${body.message}`);
          // A refusal may say the copy is stale: the rows are read now, and a fresh snapshot taken.
          if (!body.ok && replica) { lastRev = null; replica.begin(); connect(); }
          refresh();
          return body.ok;
        }
        function ifRev(row) { return row && row.rev !== undefined ? ["IF", "REV", String(row.rev)] : []; }
        function go(path) {
          history.pushState(null, "", path);
          locate();
          state.editing = null;
          refresh();
        }
        window.addEventListener("popstate", () => { locate(); refresh(); });
        // One handler for every control the views draw: data-go moves, data-verb acts.
        view.addEventListener("click", e => {
          const el = e.target.closest("[data-go],[data-verb]");
          if (!el) return;
          e.preventDefault();
          if (el.dataset.go) return go(el.dataset.go);
          if (el.dataset.confirm && !confirm(el.dataset.confirm)) return;
          act(el.dataset.verb, JSON.parse(el.dataset.args), el.dataset.what || el.dataset.verb);
        });
        function button(verb, args, label, what, extra) {
          return `<button type="button" data-verb="${verb}" data-args="${esc(JSON.stringify(args))}" data-what="${esc(what)}"${extra || ""}>${label}</button>`;
        }
        function setStatus(kind, text) { statusBox.className = "status " + kind; statusBox.textContent = text; }
        // While its stream is down the page cannot act: every button in the view is disabled until
        // the stream is back (a button drawn disabled, as ↑ on a section's first row, stays so).
        let offline = false;
        function setOffline(on) { offline = on; holdButtons(); }
        function holdButtons() {
          for (const b of view.querySelectorAll("button")) {
            if (offline && !b.disabled) { b.disabled = true; b.dataset.offline = "1"; }
            else if (!offline && b.dataset.offline) { b.disabled = false; delete b.dataset.offline; }
          }
        }
        function showRev() { revBox.textContent = lastRev === null ? "" : "rev " + lastRev; }

        function connect() {
          clearTimeout(retryTimer);
          retryTimer = null;
          if (source) source.close();
          const q = new URLSearchParams({ prefix });
          if (lastRev !== null) q.set("from", lastRev);
          if (replica) { q.set("snapshot", "1"); q.set("progress", "1"); }
          source = new EventSource("/events?" + q);
          source.addEventListener("reply", e => {
            const reply = JSON.parse(e.data);
            if (!reply.ok && reply.code === "EXPIRED") {
              // The history moved past what we had: start again from a fresh snapshot.
              logLine(`<i>${esc(reply.message)}; reloading</i>`);
              lastRev = null;
              reconnect(0);
              return;
            }
            if (!reply.ok) {
              // Not allowed, or nothing there: say so and stop (reconnecting would be refused again).
              source.close();
              setStatus("offline", "not watching");
              logLine(`<i>${esc(reply.code)}: ${esc(reply.message)}</i>`);
              refresh();
              return;
            }
            const m = /at rev (\d+)/.exec(reply.message);
            if (m && lastRev === null) lastRev = Number(m[1]);
            retryDelay = 500;
            const was = offlineSince;
            offlineSince = null;
            setOffline(false);
            if (replica) {
              // Live once the snapshot or the replay is in (`synced`).
              wasOffline = was;
              if (/sending a snapshot/.test(reply.message)) { replica.begin(); setStatus("snapshot", "snapshot…"); }
              else setStatus("resuming", "resuming…");
              return;
            }
            setStatus("live", was ? `live (was offline ${Math.round((Date.now() - was) / 1000)} s)` : "live");
            showRev();
            refresh();
          });
          source.addEventListener("row", e => { if (replica) replica.take(JSON.parse(e.data)); });
          source.addEventListener("synced", e => {
            const rev = JSON.parse(e.data).rev;
            lastRev = Math.max(lastRev ?? 0, rev);
            showRev();
            if (!replica) return;
            replica.synced(rev);
            const was = wasOffline;
            wasOffline = null;
            setStatus("live", (was ? `live (was offline ${Math.round((Date.now() - was) / 1000)} s)` : "live") + ` · a copy at rev ${replica.rev}`);
            refresh();
          });
          source.onmessage = e => {
            const ev = JSON.parse(e.data);
            lastRev = Number(e.lastEventId);
            showRev();
            if (!shows(ev.path)) return;
            flashed.add(ev.path);
            logLine(`<code>${ev.rev}</code> ${esc(ev.kind)} ${esc(ev.path)}`);
            if (replica && replica.apply(ev) === "snapshot") {
              // The copy cannot take this change (a re-sectioning, a row not where it says): start again.
              lastRev = null;
              reconnect(0);
              return;
            }
            if (replica && statusBox.classList.contains("live")) setStatus("live", `live · a copy at rev ${replica.rev}`);
            refresh();
          };
          source.addEventListener("bye", e => { logLine(`<i>server: ${esc(JSON.parse(e.data).reason)}</i>`); });
          source.onerror = () => reconnect(retryDelay);
        }
        function reconnect(delay) {
          if (source) source.close();
          source = null;
          if (offlineSince === null) offlineSince = Date.now();
          setStatus("offline", "offline — reconnecting");
          setOffline(true);
          retryDelay = Math.min(5000, retryDelay * 2);
          clearTimeout(retryTimer);
          retryTimer = setTimeout(connect, delay);
        }
        function logLine(html) {
          const li = document.createElement("li");
          li.innerHTML = html;
          changes.prepend(li);
          while (changes.children.length > 200) changes.lastChild.remove();
        }
        async function refresh() {
          if (loading) { again = true; return; }
          loading = true;
          try { await views[here](); } catch (err) { view.innerHTML = `<p class="empty">${esc(err.message)}</p>`; }
          holdButtons();  // a view drawn while offline
          loading = false;
          flashed.clear();
          if (again) { again = false; refresh(); }
        }
        function flash(path) { return flashed.has(path) ? " flash" : ""; }
        function counted(reply) { const m = /^(\d+) of (\d+)/.exec(reply.message); return m && m[1] !== m[2] ? `<p class="note">showing ${m[1]} of ${m[2]}</p>` : ""; }
        // The first paint from what the page carries, then the stream (whose first reply reads
        // again, so that nothing made in between is missed).
        function start() {
          canWrite = first.role === "write" || first.role === "admin";
          document.body.classList.toggle("read-only", !canWrite);
          refresh();
          if (here.startsWith("/server/")) {  // no list to watch: read again every 2 s
            setStatus("live", "every 2 s");
            setInterval(refresh, 2000);
            return;
          }
          connect();
          // A page left for another keeps no stream open: the back/forward cache would hold it, and
          // a browser opens at most six connections to a host, so a few navigations would leave the
          // next page waiting for one. Shown again from that cache, it reconnects from its revision.
          window.addEventListener("pagehide", () => {
            clearTimeout(retryTimer);
            retryTimer = null;
            if (source) source.close();
            source = null;
          });
          window.addEventListener("pageshow", e => { if (e.persisted && !source) connect(); });
        }
        """#
}
