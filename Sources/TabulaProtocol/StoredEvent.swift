/// How the stores keep an event's value and context in one text column: the value's JSON,
/// then, when the event has context (`Event.hasContext`), a line break and
/// `{"prev":…,"at":…,"from":…,"parent":…}`. Compact JSON holds no raw line break, so the
/// first one divides the two, and a payload without one (written before events had context)
/// is the value alone.
extension Event {
    /// The payload column's bytes.
    public var storedPayload: [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(512)  // an item's value and its row before, with room: no regrowth
        value.write(to: &out)
        guard hasContext else { return out }
        out.append(10)
        out.append(contentsOf: #"{"prev":"#.utf8)
        prev.write(to: &out)
        WireEncoder.appendContext(self, to: &out)
        out.append(UInt8(ascii: "}"))
        return out
    }

    /// The event a store's row holds: its columns, the payload as `storedPayload` wrote it.
    /// The value is parsed only when read (`StoredJSON`); the context, small, at once.
    public init(rev: UInt64, kind: String, path: String, summary: String, storedPayload text: String) {
        guard let cut = text.utf8.firstIndex(of: 10) else {
            self.init(rev: rev, kind: kind, path: path, summary: summary, value: .deferred(StoredJSON(text)))
            return
        }
        self.init(
            rev: rev, kind: kind, path: path, summary: summary, value: .deferred(StoredJSON(String(text[..<cut]))))
        let context = JSONParser.parse(String(text[text.utf8.index(after: cut)...]))
        at = Placement(json: context?["at"])
        from = Placement(json: context?["from"])
        prev = context?["prev"] ?? .null
        parent = context?["parent"]
    }
}
