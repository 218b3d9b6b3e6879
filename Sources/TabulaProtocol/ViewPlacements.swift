/// Where an event's entry stands, and stood, in the views of viewers whose grants hide part
/// of its list: for each such view (named by its grants as the users file writes them), the
/// 1-based positions that view's own `LS` shows, after (`at`) and before (`from`) the change.
/// The server sends each such watcher its own view's positions as `at` and `from`; the
/// stores keep them with the event, so that a replay sends the same. Never on the wire as is.
public final class ViewPlacements: Sendable, Equatable, CustomStringConvertible {
    /// One view's positions.
    public struct Entry: Sendable, Equatable {
        /// The view's grants, as `Grants.description` writes them.
        public let view: String
        public let at: Int?
        public let from: Int?

        public init(view: String, at: Int?, from: Int?) {
            self.view = view
            self.at = at
            self.from = from
        }
    }

    public let entries: [Entry]

    public init(_ entries: [Entry]) { self.entries = entries }

    /// The positions in `view`, if the event carries them.
    public func entry(for view: String) -> Entry? { entries.first { $0.view == view } }

    public static func == (a: ViewPlacements, b: ViewPlacements) -> Bool { a.entries == b.entries }

    public var description: String { "\(entries)" }

    /// `[{"view":…,"at":N,"from":N},…]`, the fields each has.
    public func writeJSON(to out: inout [UInt8]) {
        out.append(UInt8(ascii: "["))
        for (k, e) in entries.enumerated() {
            if k > 0 { out.append(UInt8(ascii: ",")) }
            out.append(contentsOf: #"{"view":"#.utf8)
            JSONValue.string(e.view).write(to: &out)
            if let at = e.at {
                out.append(contentsOf: #","at":"#.utf8)
                JSONValue.int(Int64(at)).write(to: &out)
            }
            if let from = e.from {
                out.append(contentsOf: #","from":"#.utf8)
                JSONValue.int(Int64(from)).write(to: &out)
            }
            out.append(UInt8(ascii: "}"))
        }
        out.append(UInt8(ascii: "]"))
    }

    /// Reads what `writeJSON` wrote; nil for anything else.
    public convenience init?(json: JSONValue?) {
        guard case .array(let items)? = json?.resolved else { return nil }
        var entries: [Entry] = []
        for item in items {
            guard let view = item["view"]?.stringValue else { return nil }
            entries.append(
                Entry(view: view, at: item["at"]?.intValue.map(Int.init), from: item["from"]?.intValue.map(Int.init)))
        }
        self.init(entries)
    }
}
