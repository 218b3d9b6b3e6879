import TabulaProtocol

/// One line of the live order list.
public struct Order: Sendable, Equatable, JSONRepresentable {
    /// Stable id, its path name under `/orders`.
    public var id: Int
    /// The menu entry's path at the time of ordering.
    public var entry: String
    /// The entry's title at the time of ordering.
    public var title: String
    /// When it was ordered, Unix seconds.
    public var created: Double

    /// Makes an order.
    public init(id: Int, entry: String, title: String, created: Double) {
        self.id = id
        self.entry = entry
        self.title = title
        self.created = created
    }

    /// The order as JSON.
    public var json: JSONValue {
        .object([
            ("type", .string("order")), ("id", .int(Int64(id))), ("entry", .string(entry)), ("title", .string(title)),
            ("created", .string(Display.timestamp(created))),
        ])
    }

    /// `json`'s text, written without building it.
    public func writeJSON(to out: inout [UInt8]) {
        ByteWriter.append(to: &out, atMost: 100 + Display.timestampBound + 6 * (entry.utf8.count + title.utf8.count)) {
            w in
            w.append(#"{"type":"order","id":"#)
            w.appendDecimal(Int64(id))
            w.append(#","entry":"#)
            w.appendJSONString(entry)
            w.append(#","title":"#)
            w.appendJSONString(title)
            w.append(#","created":""#)
            Display.writeTimestamp(created, to: &w)
            w.append(#""}"#)
        }
    }

    /// The order's one-line text row.
    public var row: String {
        var out: [UInt8] = []
        out.reserveCapacity(32 + title.utf8.count + entry.utf8.count)
        JSONValue.writeInt(Int64(id), to: &out)
        out.append("  ")
        out.append(contentsOf: title.utf8)
        out.append("  ")
        out.append(contentsOf: entry.utf8)
        out.append("  ")
        Display.writeTimestamp(created, to: &out)
        return String(decoding: out, as: UTF8.self)
    }
}
