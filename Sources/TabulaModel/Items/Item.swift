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
    /// the history's row).
    func writeJSON(to out: inout [UInt8]) {
        out.append(#"{"type":"item","id":"#)
        JSONValue.writeInt(Int64(item.id), to: &out)
        out.append(#","name":"#)
        JSONValue.writeString(item.name, to: &out)
        out.append(#","value":"#)
        JSONValue.writeInt(Int64(item.value), to: &out)
        out.append(#","serial":"#)
        JSONValue.writeString(item.serial, to: &out)
        out.append(#","created":""#)
        Display.writeTimestamp(item.created, to: &out)
        out.append(item.favorite ? #"","favorite":true,"section":"# : #"","favorite":false,"section":"#)
        JSONValue.writeString(section, to: &out)
        if let position {
            out.append(#","position":"#)
            JSONValue.writeInt(Int64(position), to: &out)
        }
        out.append(UInt8(ascii: "}"))
    }
}
