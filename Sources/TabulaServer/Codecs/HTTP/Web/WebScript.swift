/// The page's script: picks the view from the path, loads its snapshot from `/api/ls`, and
/// follows `/events` for the prefix. After a cut it reconnects with `from=` the last revision
/// it had, so it is shown every change made meanwhile, none twice; each change reloads the
/// snapshot (coalesced), so the table is always what the server holds.
enum WebScript {
    static let js = #"""
"use strict";
const views = { "/": overview, "/settings": settings, "/catalog": catalog, "/items": items, "/menu": menu };
const here = location.pathname in views ? location.pathname : "/";
// The menu page shows the order list too, which lives under /orders: it watches everything
// and takes only what is under the two.
const prefix = here === "/menu" ? "/" : here;
const shows = here === "/menu" ? p => p.startsWith("/menu") || p.startsWith("/orders") : () => true;
const view = document.getElementById("view");
const statusBox = document.getElementById("status");
const revBox = document.getElementById("rev");
const changes = document.getElementById("changes");
let lastRev = null, source = null, retryDelay = 500, loading = false, again = false, offlineSince = null;
const flashed = new Set();
const state = { catalogPath: "/catalog", setting: null };
for (const a of document.querySelectorAll("nav a")) if (a.getAttribute("href") === here) a.classList.add("current");

function esc(s) { return String(s).replace(/[&<>"']/g, c => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]); }
async function api(verb, path, extra) {
  const q = new URLSearchParams(Object.assign({ path }, extra || {}));
  const r = await fetch(`/api/${verb}?${q}`, { cache: "no-store" });
  const body = await r.json();
  if (!body.ok) throw new Error(`${body.code}: ${body.message}`);
  return body;
}
function setStatus(kind, text) { statusBox.className = "status " + kind; statusBox.textContent = text; }
function showRev() { revBox.textContent = lastRev === null ? "" : "rev " + lastRev; }

function connect() {
  const q = new URLSearchParams({ prefix });
  if (lastRev !== null) q.set("from", lastRev);
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
    setStatus("live", was ? `live (was offline ${Math.round((Date.now() - was) / 1000)} s)` : "live");
    showRev();
    refresh();
  });
  source.onmessage = e => {
    const ev = JSON.parse(e.data);
    lastRev = Number(e.lastEventId);
    showRev();
    if (!shows(ev.path)) return;
    flashed.add(ev.path);
    logLine(`<code>${ev.rev}</code> ${esc(ev.kind)} ${esc(ev.path)}`);
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
  retryDelay = Math.min(5000, retryDelay * 2);
  setTimeout(connect, delay);
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
  loading = false;
  flashed.clear();
  if (again) { again = false; refresh(); }
}
function flash(path) { return flashed.has(path) ? ' class="flash"' : ""; }
function counted(reply) { const m = /^(\d+) of (\d+)/.exec(reply.message); return m && m[1] !== m[2] ? `<p class="note">showing ${m[1]} of ${m[2]}</p>` : ""; }

async function overview() {
  const root = await api("ls", "/");
  view.innerHTML = `<h1>Tabula</h1><div class="cards">` + root.data.map(l =>
    `<a class="card" href="/${esc(l.name)}"><b>${l.count}</b>${esc(l.name)}</a>`).join("") + `</div>`;
}
async function settings() {
  const list = await api("ls", "/settings", { limit: 1000 });
  let html = `<h1>Settings</h1><table><tr><th>Setting</th><th>Value</th></tr>` + list.data.map(s =>
    `<tr${flash("/settings/" + s.name)}><td><a class="drill" data-name="${esc(s.name)}">${esc(s.title)}</a></td><td>${esc(s.value)}</td></tr>`).join("") + `</table>` + counted(list);
  const open = list.data.find(s => s.name === state.setting);
  if (open) html += `<div class="detail"><b>${esc(open.title)}</b><div class="options">` + open.options.map((o, i) =>
    `<span class="${i + 1 === open.selected ? "on" : ""}">${esc(o)}</span>`).join("") + `</div></div>`;
  view.innerHTML = html;
  for (const a of view.querySelectorAll("a.drill")) a.onclick = () => { state.setting = a.dataset.name; refresh(); };
}
async function catalog() {
  const path = state.catalogPath;
  const parts = path.split("/").filter(Boolean);
  const crumbs = parts.map((p, i) => `<a data-path="/${parts.slice(0, i + 1).join("/")}">${esc(p)}</a>`).join(" / ");
  let body;
  try {
    const list = await api("ls", path, { limit: 1000 });
    // LS of a leaf answers its fields: the leaf is drawn by its kind.
    if (list.data.length > 0 && list.data[0].field !== undefined) throw new Error("a leaf");
    body = list.data.length === 0 ? `<p class="empty">Nothing here</p>` : `<table>` + list.data.map(n =>
      `<tr${flash(path + "/" + n.name)}><td><a class="drill" data-path="${esc(path + "/" + n.name)}">${esc(n.title)}</a></td><td>${esc(n.view)}${n.view === "branch" ? ` · ${n.children}` : ""}</td></tr>`).join("") + `</table>` + counted(list);
  } catch (err) {
    const shown = await api("show", path);
    body = leaf(shown.data);
  }
  view.innerHTML = `<h1>Catalog</h1><p class="crumbs">${crumbs}</p>` + body;
  for (const a of view.querySelectorAll("[data-path]")) a.onclick = () => { state.catalogPath = a.dataset.path; refresh(); };
}
function leaf(fields) {
  const f = Object.fromEntries(fields.map(x => [x.field, x.value]));
  let inner;
  if (f.view === "text") inner = `<p>${esc(f.text)}</p>`;
  else if (f.view === "tabs") inner = `<div class="tabs">${(f.tabs || []).map(t => `<span>${esc(t)}</span>`).join("")}</div>`;
  else inner = `<table>` + fields.map(x => `<tr><td>${esc(x.field)}</td><td>${esc(JSON.stringify(x.value))}</td></tr>`).join("") + `</table>`;
  return `<div class="detail"><b>${esc(f.title || "")}</b> <span class="note">${esc(f.view || "")} view</span>${inner}</div>`;
}
async function items() {
  const list = await api("ls", "/items", { limit: 1000 });
  let html = `<h1>Items</h1>`, open = false;
  if (list.data.length === 0) html += `<p class="empty">No Items</p>`;
  for (const r of list.data) {
    if (r.type === "section") {
      if (open) html += `</table>`;
      html += `<h2>${esc(r.title)} · ${esc(r.range)} · ${r.count} ${r.count === 1 ? "item" : "items"}</h2>` + (r.count === 0 ? `<p class="empty">No Items</p>` : "") + `<table>`;
      open = true;
    } else if (r.type === "item") {  // an empty band's placeholder row is said by its header
      html += `<tr${flash("/items/" + r.id)} data-item="${r.id}"><td class="num note">#${r.id}</td><td>${r.favorite ? '<span class="fav" title="favourite">★</span> ' : ""}${esc(r.name)}</td><td class="num">$${r.value}</td><td><code>${esc(r.serial)}</code></td></tr>`;
    }
  }
  if (open) html += `</table>`;
  view.innerHTML = html + `<p class="note">${esc(list.message)}</p>`;
}
async function menu() {
  const sections = await api("ls", "/menu", { limit: 1000 });
  const lists = await Promise.all(sections.data.map(s => api("ls", "/menu/" + s.name, { limit: 1000 })));
  const orders = await api("ls", "/orders", { limit: 1000 });
  const left = sections.data.map((s, i) => `<h2>${esc(s.title)}</h2><table>` + lists[i].data.map(e =>
    `<tr${flash(e.path)}><td>${esc(e.title)}</td></tr>`).join("") + `</table>`).join("");
  const right = orders.data.length === 0 ? `<p class="empty">No orders yet</p>` : `<table>` + orders.data.map(o =>
    `<tr${flash("/orders/" + o.id)}><td class="num">${o.id}</td><td>${esc(o.title)}</td><td class="note">${esc(o.created)}</td></tr>`).join("") + `</table>` + counted(orders);
  view.innerHTML = `<h1>Menu</h1><div class="columns"><div>${left}</div><div><h2>Order</h2>${right}</div></div>`;
}
connect();
"""#
}
