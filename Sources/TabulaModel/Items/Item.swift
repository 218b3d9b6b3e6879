import TabulaProtocol

/// One item of the item store (seed 002): name, value in dollars, serial, date, favourite.
public struct Item: Sendable, Equatable {
    /// Stable id, its path name under `/items`.
    public var id: Int
    /// Name, e.g. "Rusty Spork".
    public var name: String
    /// Value in whole dollars.
    public var value: Int
    /// Short serial number.
    public var serial: String
    /// Creation time, Unix seconds.
    public var created: Double
    /// Favourite flag.
    public var favorite: Bool
    /// Global ordering key: a section lists its items by increasing `ord`.
    public var ord: Double

    /// Makes an item.
    public init(
        id: Int, name: String, value: Int, serial: String, created: Double, favorite: Bool = false, ord: Double = 0
    ) {
        self.id = id
        self.name = name
        self.value = value
        self.serial = serial
        self.created = created
        self.favorite = favorite
        self.ord = ord
    }
}

/// An item with its section's name: what the item's JSON shows.
struct ItemJSON: JSONRepresentable {
    let item: Item
    let section: String
    /// The 1-based position in its section, where it matters (a move).
    var position: Int?

    var json: JSONValue {
        var pairs: [(String, JSONValue)] = [
            ("type", .string("item")), ("id", .int(Int64(item.id))), ("name", .string(item.name)),
            ("value", .int(Int64(item.value))),
            ("serial", .string(item.serial)), ("created", .string(Display.timestamp(item.created))),
            ("favorite", .bool(item.favorite)), ("section", .string(section)),
        ]
        if let position { pairs.append(("position", .int(Int64(position)))) }
        return .object(pairs)
    }

    /// `json`'s text, written without building it (every change to an item writes it into
    /// the history's row, and each JSON event twice: `value` and `prev`), into room made once.
    func writeJSON(to out: inout [UInt8]) {
        let texts = item.name.utf8.count + item.serial.utf8.count + section.utf8.count
        ByteWriter.append(to: &out, atMost: 200 + Display.timestampBound + 6 * texts) { w in
            w.append(#"{"type":"item","id":"#)
            w.appendDecimal(Int64(item.id))
            w.append(#","name":"#)
            w.appendJSONString(item.name)
            w.append(#","value":"#)
            w.appendDecimal(Int64(item.value))
            w.append(#","serial":"#)
            w.appendJSONString(item.serial)
            w.append(#","created":""#)
            Display.writeTimestamp(item.created, to: &w)
            w.append(item.favorite ? #"","favorite":true,"section":"# : #"","favorite":false,"section":"#)
            w.appendJSONString(section)
            if let position {
                w.append(#","position":"#)
                w.appendDecimal(Int64(position))
            }
            w.append(UInt8(ascii: "}"))
        }
    }
}
