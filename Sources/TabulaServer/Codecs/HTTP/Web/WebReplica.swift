/// The page's script, third part: a copy of the page's list kept from its stream, as
/// `TabulaClient`'s `ListReplica` keeps one (Protocol.md, section 8): a snapshot's rows, then
/// each event removes its row where `from` says it stood and places the event's value where
/// `at` says it stands. An event that does not fit asks for a snapshot again. The page draws
/// from the copy and reads nothing per event.
enum WebReplica {
    static let js = #"""
        class Replica {
          constructor(path) { this.path = path; this.sections = []; this.rev = 0; this.ready = false; }
          begin() { this.sections = []; this.rev = 0; this.ready = false; }
          take(row) {
            const v = row.value || {};
            if (v.type === "section") { this.sections.push({ name: v.name, head: v, entries: [] }); return; }
            if (v.type === "empty" || !row.path) return;
            if (!this.sections.length) this.sections.push({ name: null, head: null, entries: [] });
            this.sections[this.sections.length - 1].entries.push({ path: row.path, value: v });
          }
          synced(rev) { this.rev = Math.max(this.rev, rev); this.ready = true; }
          find(path) {
            for (let s = 0; s < this.sections.length; s++) {
              const r = this.sections[s].entries.findIndex(e => e.path === path);
              if (r >= 0) return { s, r };
            }
            return null;
          }
          // "changed", "same" (not a row of this list, or held already) or "snapshot" (take one).
          apply(ev) {
            if (!this.ready || ev.rev <= this.rev) return "same";
            const parent = ev.path.slice(0, ev.path.lastIndexOf("/")) || "/";
            if (ev.path === this.path || this.path.startsWith(ev.path + "/")) {
              if (ev.kind === "clear") { for (const s of this.sections) s.entries = []; this.rev = ev.rev; return "changed"; }
              if (ev.kind === "rm" || ev.kind === "bands") return "snapshot";
              this.rev = ev.rev;
              return "same";
            }
            if (parent !== this.path) {
              if (ev.path.startsWith(this.path + "/")) {
                const child = this.path + "/" + ev.path.slice(this.path.length + 1).split("/")[0];
                const at = this.find(child);
                if (at && ["add", "rm", "mv", "order", "clear", "bands"].includes(ev.kind)) {
                  const e = this.sections[at.s].entries[at.r];
                  e.value = Object.assign({}, ev.parent && ev.path.slice(0, ev.path.lastIndexOf("/")) === child ? ev.parent : e.value, { rev: ev.rev });
                  this.rev = ev.rev;
                  return "changed";
                }
              }
              this.rev = ev.rev;
              return "same";
            }
            const old = this.find(ev.path);
            if (old && ev.from && (ev.from.position === undefined || this.sections[old.s].name !== (ev.from.section ?? null) || old.r !== ev.from.position - 1)) return "snapshot";
            if (!old && ev.kind !== "add" && ev.kind !== "order") return ev.kind === "rm" ? "same" : "snapshot";
            let to = null;
            if (ev.kind !== "rm") {
              if (!ev.at || ev.at.position === undefined) return "snapshot";
              const s = this.sections.findIndex(x => x.name === (ev.at.section ?? null));
              if (s < 0 && !(this.sections.length === 0 && ev.at.section === undefined)) return "snapshot";
              if (!this.sections.length) this.sections.push({ name: null, head: null, entries: [] });
              const count = this.sections[Math.max(s, 0)].entries.length - (old && old.s === s ? 1 : 0);
              if (ev.at.position < 1 || ev.at.position > count + 1) return "snapshot";
              to = { s: Math.max(s, 0), r: ev.at.position - 1 };
            }
            if (old) this.sections[old.s].entries.splice(old.r, 1);
            if (to) {
              const value = Object.assign({}, ev.value, { rev: ev.rev });
              if (ev.kind === "mv") delete value.position;
              this.sections[to.s].entries.splice(to.r, 0, { path: ev.path, value });
            }
            this.rev = ev.rev;
            return "changed";
          }
          // The rows as `LS` shows them: each section's header with its count as held, its rows.
          rows() {
            const out = [];
            for (const s of this.sections) {
              if (s.head) out.push(Object.assign({}, s.head, { count: s.entries.length }));
              for (const e of s.entries) out.push(e.value);
            }
            return out;
          }
          count() { return this.sections.reduce((n, s) => n + s.entries.length, 0); }
        }
        """#
}
