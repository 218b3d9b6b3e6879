/// The page's script, second part: the four seeds' screens, drawn from `/api/ls` and acting
/// through `act` (see `WebScript`). Every action carries the revision of the row it was
/// drawn from, so an action on a stale row is refused, never applied over another's change.
enum WebViews {
    static let js = #"""
        const views = { "/": overview, "/settings": settings, "/catalog": catalog, "/items": items, "/menu": menu, "/server/clients": clientsPage, "/server/metrics": metricsPage };

        // The server's own pages, read every 2 s (their raw forms are /clients, JSON, and /metrics,
        // Prometheus text): who is connected, and the counters by family.
        async function clientsPage() {
          const r = await fetch("/clients", { cache: "no-store" });
          if (!r.ok) throw new Error(`${r.status}: ${(await r.text()).trim()}`);
          const rows = (await r.json()).clients;
          view.innerHTML = `<h1>Clients</h1><p class="note">${rows.length} connected · <a href="/clients">raw JSON</a></p><div class="wide"><table class="server clients"><tr><th>id</th><th>address</th><th>transport</th><th>user</th><th>age</th><th>idle</th><th>watches</th><th>queued</th></tr>` +
            rows.map(c => `<tr><td class="num">${c.id}</td><td>${esc(c.address)}</td><td>${esc(c.transport)}</td><td>${esc(c.user ?? "—")}</td><td class="num">${c.age_seconds} s</td><td class="num">${c.idle_seconds} s</td><td class="num">${c.watches}</td><td class="num">${c.output_queued_bytes} B</td></tr>`).join("") + `</table></div>`;
        }
        async function metricsPage() {
          const r = await fetch("/metrics", { cache: "no-store" });
          if (!r.ok) throw new Error(`${r.status}: ${(await r.text()).trim()}`);
          const families = [];
          for (const line of (await r.text()).split("\n")) {
            const help = /^# HELP (\S+) (.*)$/.exec(line);
            if (help) { families.push({ name: help[1], help: help[2], samples: [] }); continue; }
            if (!line || line.startsWith("#") || families.length === 0) continue;
            const cut = line.lastIndexOf(" ");
            families[families.length - 1].samples.push([line.slice(0, cut), line.slice(cut + 1)]);
          }
          view.innerHTML = `<h1>Metrics</h1><p class="note">${families.length} families · <a href="/metrics">raw Prometheus text</a></p>` + families.map(f =>
            `<h2 title="${esc(f.name)}">${esc(f.help)}</h2><table class="server">` + f.samples.map(([k, v]) => `<tr><td>${esc(k)}</td><td class="num">${esc(v)}</td></tr>`).join("") + `</table>`).join("");
        }

        async function overview() {
          const root = await api("ls", "/");
          view.innerHTML = `<h1>Tabula</h1><div class="cards">` + root.data.map(l =>
            `<a class="card" href="/${esc(l.name)}"><b>${l.count}</b>${esc(l.name)}</a>`).join("") + `</div>`;
        }

        // Master and detail: the list of settings, and the open one's options, a tap selecting one.
        // The rows to draw: the copy's, once it holds the list, else read.
        async function rowsOf(path) {
          if (replica && replica.ready && replica.path === path) {
            const n = replica.count();
            return { data: replica.rows(), message: path === "/items" ? `${n} ${n === 1 ? "item" : "items"}` : `${n} of ${n}` };
          }
          return api("ls", path, { limit: 1000 });
        }

        async function settings() {
          const list = await rowsOf("/settings");
          const open = place.split("/")[2];
          let html = `<h1>Settings</h1><table><tr><th>Setting</th><th>Value</th></tr>` + list.data.map(s =>
            `<tr class="${s.name === open ? "picked" : ""}${flash("/settings/" + s.name)}"><td><a class="drill" href="/settings/${esc(s.name)}" data-go="/settings/${esc(s.name)}">${esc(s.title)}</a></td><td>${esc(s.value)}</td></tr>`).join("") + `</table>` + counted(list);
          if (open !== undefined) {
            const s = list.data.find(x => x.name === open);
            html += !s ? `<p class="empty">No setting ${esc(open)}: it was removed, or never was</p>` :
              `<div class="detail"><b>${esc(s.title)}</b><div class="options">` + s.options.map((o, i) => {
                const on = i + 1 === s.selected ? " on" : "";
                return canWrite ? button("select", ["/settings/" + s.name, "#" + (i + 1), ...ifRev(s)], esc(o), `${s.title}: ${o}`, ` class="opt${on}" aria-pressed="${!!on}"`)
                  : `<span class="opt${on}">${esc(o)}</span>`;
              }).join("") + `</div></div>`;
          }
          view.innerHTML = html;
        }

        // A tree of any depth: a branch is drilled into, a leaf drawn by its kind.
        async function catalog() {
          const parts = place.split("/").filter(Boolean);
          const crumbs = parts.map((p, i) => { const to = "/" + parts.slice(0, i + 1).join("/"); return `<a href="${esc(to)}" data-go="${esc(to)}">${esc(p)}</a>`; }).join(" / ");
          let body;
          try {
            const list = await api("ls", place, { limit: 1000 });
            // LS of a leaf answers its fields: the leaf is drawn by its kind.
            if (list.data.length > 0 && list.data[0].field !== undefined) body = leaf(list.data);
            else body = list.data.length === 0 ? `<p class="empty">Nothing here</p>` : `<table>` + list.data.map(n => {
              const to = place + "/" + n.name;
              return `<tr class="${flash(to)}"><td><a class="drill" href="${esc(to)}" data-go="${esc(to)}">${esc(n.title)}</a></td><td>${esc(n.view)}${n.view === "branch" ? ` · ${n.children}` : ""}</td></tr>`;
            }).join("") + `</table>` + counted(list);
          } catch (err) { body = `<p class="empty">${esc(err.message)}</p>`; }
          view.innerHTML = `<h1>Catalog</h1><p class="crumbs">${crumbs}</p>` + body;
        }
        function leaf(fields) {
          const f = Object.fromEntries(fields.map(x => [x.field, x.value]));
          let inner;
          if (f.view === "text") inner = `<p>${esc(f.text)}</p>`;
          else if (f.view === "tabs") inner = `<div class="tabs">${(f.tabs || []).map((t, i) => `<span class="${i === 0 ? "on" : ""}">${esc(t)}</span>`).join("")}</div><p class="tab-body">${esc((f.tabs || [""])[0])}</p>`;
          // The server keeps an image leaf's name, never its picture: the frame says so in words.
          else if (f.view === "image") inner = `<figure class="image"><div class="frame">no image stored: only its name</div><figcaption>${esc(f.image)}</figcaption></figure>`;
          else inner = `<table>` + fields.map(x => `<tr><td>${esc(x.field)}</td><td>${esc(JSON.stringify(x.value))}</td></tr>`).join("") + `</table>`;
          return `<div class="detail"><b>${esc(f.title || "")}</b> <span class="note">${esc(f.view || "")} view</span>${inner}</div>`;
        }
        view.addEventListener("click", e => {
          const tab = e.target.closest(".tabs span");
          if (!tab) return;
          for (const t of tab.parentNode.children) t.classList.toggle("on", t === tab);
          tab.parentNode.nextElementSibling.textContent = tab.textContent;
        });

        // Items in price sections: a star, moves within the section, edit, delete, add; the
        // favourites-only view is offered while a favourite exists, and moves in it count the
        // whole section's positions (the row lands where its filtered neighbour stands).
        async function items() {
          const list = await rowsOf("/items");
          const picked = place.split("/")[2];
          const sections = [];
          for (const r of list.data) {
            if (r.type === "section") sections.push({ head: r, items: [] });
            else if (r.type === "item" && sections.length) sections[sections.length - 1].items.push(r);
          }
          const anyFavorite = sections.some(s => s.items.some(r => r.favorite));
          if (!anyFavorite) state.favoritesOnly = false;
          let html = `<h1>Items</h1><div class="toolbar">`;
          const a = state.adding;
          if (canWrite) html += `<form id="add"><input name="name" placeholder="name" required value="${esc(a.name ?? "")}"> $<input name="value" placeholder="0" size="5" required value="${esc(a.value ?? "")}"> <button>Add item</button> ${button("add", ["/items"], "Random", "Add a random item")}</form>`;
          if (anyFavorite) html += `<button type="button" data-local="favorites">${state.favoritesOnly ? "Show All" : "Favorites"}</button>`;
          html += `</div>`;
          if (sections.length === 0) html += `<p class="empty">No Items</p>`;
          for (const s of sections) {
            const shown = s.items.map((r, i) => ({ r, pos: i + 1 })).filter(x => !state.favoritesOnly || x.r.favorite);
            // The count says what is shown: under the filter, the favourites of the section.
            const n = state.favoritesOnly ? shown.length : s.head.count;
            const noun = state.favoritesOnly ? (n === 1 ? "favourite" : "favourites") : (n === 1 ? "item" : "items");
            html += `<h2>${esc(s.head.title)} · ${esc(s.head.range)} · ${n} ${noun}</h2>`;
            if (shown.length === 0) { html += `<p class="empty">No Items</p>`; continue; }
            html += `<table>` + shown.map((x, k) => itemRow(x.r, k > 0 ? shown[k - 1].pos : null, k + 1 < shown.length ? shown[k + 1].pos : null, picked)).join("") + `</table>`;
          }
          keepingFocus(() => { view.innerHTML = html + `<p class="note">${esc(list.message)}</p>`; });
          const row = picked && view.querySelector(`tr[data-item="${CSS.escape(picked)}"]`);
          if (row && !row.dataset.seen) { row.scrollIntoView({ block: "center" }); row.dataset.seen = "1"; }
        }
        function itemRow(r, up, down, picked) {
          const path = "/items/" + r.id, cond = ifRev(r), editing = canWrite && state.editing === r.id;
          const star = canWrite ? button("fav", [path, r.favorite ? "off" : "on", ...cond], r.favorite ? "★" : "☆", `${r.name}: favourite ${r.favorite ? "off" : "on"}`, ` class="star${r.favorite ? " fav" : ""}" title="favourite"`)
            : r.favorite ? `<span class="fav" title="favourite">★</span>` : "";
          let cells = `<td><a href="${path}" data-go="${path}">${esc(r.name)}</a></td><td class="num">$${r.value}</td><td><code>${esc(r.serial)}</code></td>`;
          if (editing) {
            const d = state.draft;
            cells = `<td colspan="3"><form class="edit" data-path="${path}" data-cond="${esc(JSON.stringify(cond))}"><input name="name" value="${esc(d.name ?? r.name)}"> $<input name="value" size="5" value="${esc(d.value ?? r.value)}"> <button>Save</button> <button type="button" data-local="cancel">Cancel</button></form></td>`;
          }
          const moveUp = up ? button("mv", [path, String(up), ...cond], "↑", `Move ${r.name} up`, ` title="move up"`) : `<button type="button" disabled>↑</button>`;
          const moveDown = down ? button("mv", [path, String(down), ...cond], "↓", `Move ${r.name} down`, ` title="move down"`) : `<button type="button" disabled>↓</button>`;
          const tools = !canWrite ? "" : editing ? `<td></td>` : `<td class="tools">${moveUp}${moveDown}<button type="button" data-local="edit" data-item="${r.id}" title="edit">✎</button>`
            + button("rm", [path, ...cond], "✕", `Delete ${r.name}`, ` data-confirm="Delete ${esc(r.name)}?" title="delete"`) + `</td>`;
          return `<tr class="${String(r.id) === picked ? "picked" : ""}${flash(path)}" data-item="${r.id}"><td class="num note">#${r.id}</td><td class="star-cell">${star}</td>${cells}${tools}</tr>`;
        }
        const local = {
          favorites() { state.favoritesOnly = !state.favoritesOnly; refresh(); },
          edit(el) { state.editing = Number(el.dataset.item); state.draft = {}; refresh(); },
          cancel() { state.editing = null; refresh(); },
        };
        view.addEventListener("click", e => {
          const el = e.target.closest("[data-local]");
          if (el) local[el.dataset.local](el);
        });
        // What is typed into a form is kept in the state, so that a live change, which draws the
        // view again, neither loses it nor moves the cursor out of the field.
        view.addEventListener("input", e => {
          if (e.target.closest("form.edit")) state.draft[e.target.name] = e.target.value;
          else if (e.target.closest("#add")) state.adding[e.target.name] = e.target.value;
        });
        function keepingFocus(draw) {
          const f = document.activeElement;
          const at = f && f.form && view.contains(f) ? { form: f.form.id ? "#" + f.form.id : "form.edit", name: f.name, start: f.selectionStart, end: f.selectionEnd } : null;
          draw();
          const again = at && view.querySelector(`${at.form} input[name="${at.name}"]`);
          if (again) { again.focus(); again.setSelectionRange(at.start, at.end); }
        }
        view.addEventListener("submit", async e => {
          e.preventDefault();
          const f = e.target, name = f.elements.name.value, value = f.elements.value.value;
          if (f.id === "add") {
            if (await act("add", ["/items", name, value], `Add ${name}`)) { state.adding = {}; f.reset(); }
          } else if (f.classList.contains("edit")) {
            const ok = await act("set", [f.dataset.path, "name=" + name, "value=" + value, ...JSON.parse(f.dataset.cond)], `Edit ${name}`);
            if (ok) { state.editing = null; refresh(); }
          }
        });

        // The menu and the live order list beside it: a tap on an entry orders it.
        async function menu() {
          const sections = await api("ls", "/menu", { limit: 1000 });
          const lists = await Promise.all(sections.data.map(s => api("ls", "/menu/" + s.name, { limit: 1000 })));
          const orders = await newestOrders();
          const left = sections.data.map((s, i) => `<h2>${esc(s.title)}</h2><table>` + lists[i].data.map(e =>
            `<tr class="${flash(e.path)}"><td>${canWrite ? button("order", [e.path], esc(e.title), `Order ${e.title}`, ` class="entry"`) : esc(e.title)}</td></tr>`).join("") + `</table>`).join("");
          const newest = orders.rows.length ? orders.rows[orders.rows.length - 1].id : null;
          const right = orders.rows.length === 0 ? `<p class="empty">No orders yet</p>` :
            (canWrite ? button("rm", ["/orders"], "Clear orders", "Clear the orders", ` class="clear" data-confirm="Clear every order?"`) : "") + orders.note + `<table>` + orders.rows.map(o =>
              `<tr class="${o.id === newest ? "newest" : ""}${flash("/orders/" + o.id)}"><td class="num">${o.id}</td><td>${esc(o.title)}</td><td class="note time" title="${esc(o.created)}">${esc(o.created)}</td>`
              + (canWrite ? `<td class="tools">${button("rm", ["/orders/" + o.id, ...ifRev(o)], "✕", `Remove order ${o.id}`, ` title="remove"`)}</td>` : "") + `</tr>`).join("") + `</table>`;
          view.innerHTML = `<h1>Menu</h1><div class="columns"><div>${left}</div><div><h2>Order</h2>${right}</div></div>`;
        }
        // The newest orders, however many there are: the first time every page is read (AFTER the
        // last id), and the last `keep` rows are kept; after that only the orders after the last one
        // held are asked for, unless the count says some went (a removal: every page again).
        const held = { rows: [], total: 0 };
        async function newestOrders(keep = 500) {
          const last = held.rows.length ? held.rows[held.rows.length - 1].id : null;
          if (last !== null) {
            try {
              const page = await api("ls", "/orders", { limit: 10000, after: String(last) });
              const m = /of (\d+)/.exec(page.message);
              if (!/more:/.test(page.message) && m && Number(m[1]) === held.total + page.data.length) {
                held.rows = held.rows.concat(page.data).slice(-keep);
                held.total = Number(m[1]);
                return ordersShown();
              }
            } catch (err) { /* the last one held is gone: read them all again */ }
          }
          let rows = [], after = null, total = 0;
          for (let pages = 0; pages < 100; pages++) {
            const page = await api("ls", "/orders", after === null ? { limit: 10000 } : { limit: 10000, after });
            const m = /of (\d+)/.exec(page.message);
            total = m ? Number(m[1]) : page.data.length;
            rows = rows.concat(page.data).slice(-keep);
            if (page.data.length === 0 || page.data.length < 10000) break;
            after = String(page.data[page.data.length - 1].id);
          }
          held.rows = rows;
          held.total = total;
          return ordersShown();
        }
        function ordersShown() {
          return { rows: held.rows, note: held.total > held.rows.length ? `<p class="note">the newest ${held.rows.length} of ${held.total}</p>` : "" };
        }
        """#
}
