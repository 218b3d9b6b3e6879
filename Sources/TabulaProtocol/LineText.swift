/// What writes a line of text when it is sent rather than when it is made: an item's row,
/// written straight into a reply or an event as it is encoded, never built as a `String`
/// that is only copied into an output.
public protocol LineWriting: AnyObject, Sendable {
    /// Appends the line; with `oneLine`, as `WireEncoder.appendOneLine` appends its text
    /// (line breaks and control characters made visible).
    func writeLine(to out: inout [UInt8], oneLine: Bool)
    /// About how many bytes it writes: what the history's byte bound counts of it.
    var lineBytes: Int { get }
    /// The first byte it writes (what a check of how the line begins reads, writing nothing).
    var firstByte: UInt8 { get }
}

/// One line of text (a row's, an event's summary), kept as a `String` or as what writes it
/// (`LineWriting`). Equal when the texts are equal, however each is kept.
public struct LineText: Sendable, Equatable {
    private enum Storage: Sendable {
        case string(String)
        case written(any LineWriting)
    }

    private var storage: Storage

    /// The line `text`.
    public init(_ text: String) { storage = .string(text) }

    /// The line `writer` writes, written each time it is read or sent.
    public init(writtenBy writer: any LineWriting) { storage = .written(writer) }

    /// The text itself (written out, for what keeps or compares it).
    public var string: String {
        switch storage {
        case .string(let s): return s
        case .written: return String(decoding: utf8, as: UTF8.self)
        }
    }

    /// Its UTF-8, as `string` has it (for what stores it: no `String` is made of a writer's).
    public var utf8: [UInt8] {
        switch storage {
        case .string(let s): return Array(s.utf8)
        case .written(let w):
            var out: [UInt8] = []
            out.reserveCapacity(w.lineBytes)
            w.writeLine(to: &out, oneLine: false)
            return out
        }
    }

    /// Whether the line begins with `b` (for a writer, without writing the line).
    public func begins(with b: UInt8) -> Bool {
        switch storage {
        case .string(let s): return s.utf8.first == b
        case .written(let w): return w.firstByte == b
        }
    }

    /// Whether it is the empty line (a writer always writes something).
    public var isEmpty: Bool {
        guard case .string(let s) = storage else { return false }
        return s.isEmpty
    }

    /// Its length in bytes, or for a writer about that (`LineWriting.lineBytes`).
    public var byteCount: Int {
        switch storage {
        case .string(let s): return s.utf8.count
        case .written(let w): return w.lineBytes
        }
    }

    /// Appends it as one line (`WireEncoder.appendOneLine`).
    public func appendOneLine(to out: inout [UInt8]) {
        switch storage {
        case .string(let s): WireEncoder.appendOneLine(s, to: &out)
        case .written(let w): w.writeLine(to: &out, oneLine: true)
        }
    }

    public static func == (a: LineText, b: LineText) -> Bool { a.string == b.string }
}
