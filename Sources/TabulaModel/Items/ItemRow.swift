import TabulaProtocol

/// An item as its row shows it, with its section's name: its JSON and its text line, each
/// written when it is sent (`JSONValue.deferred`, `LineText`). One object serves both, so a
/// change to an item makes one, and never builds the row's text unless someone reads it.
final class ItemRow: JSONRepresentable, LineWriting {
    let item: Item
    let section: String
    /// The 1-based position in its section, where it matters (a move).
    let position: Int?

    init(item: Item, section: String, position: Int? = nil) {
        self.item = item
        self.section = section
        self.position = position
    }

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

    /// `id  name  $value  serial=serial`, and `  ★` for a favourite.
    func writeLine(to out: inout [UInt8], oneLine: Bool) {
        // id and price ("-$" and 19 digits each), the spaces and words between, the mark
        ByteWriter.append(to: &out, atMost: 80 + 2 * (item.name.utf8.count + item.serial.utf8.count)) { w in
            w.appendDecimal(Int64(item.id))
            w.append("  ")
            if oneLine { w.appendOneLine(item.name) } else { w.append(utf8Of: item.name) }
            w.append(item.value < 0 ? "  -$" : "  $")
            w.appendDecimal(UInt64(item.value.magnitude))
            w.append("  serial=")
            if oneLine { w.appendOneLine(item.serial) } else { w.append(utf8Of: item.serial) }
            if item.favorite {
                w.append("  ")
                w.append(utf8Of: RowMarks.favorite)
            }
        }
    }

    var lineBytes: Int { 40 + item.name.utf8.count + item.serial.utf8.count }

    /// The id's sign or its first digit.
    var firstByte: UInt8 {
        guard item.id >= 0 else { return UInt8(ascii: "-") }
        var n = item.id
        while n >= 10 { n /= 10 }
        return UInt8(48 + n)
    }
}
