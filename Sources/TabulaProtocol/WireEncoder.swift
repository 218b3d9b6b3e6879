/// Encodes replies and pushes as bytes in the line protocol's forms, text or JSON (the server's
/// other codecs, Server-Sent Events and RESP, live in its `Codecs` folders).
public enum WireEncoder {
    /// The protocol version named in the greeting.
    public static let protocolVersion = 3

    /// Appends the encoded reply to `out`.
    public static func encode(_ reply: Reply, tag: String?, format: LineFormat, into out: inout [UInt8]) {
        switch format {
        case .text:
            for i in reply.rows.indices {  // by index: a row is not copied to be written
                out.append(UInt8(ascii: "-"))
                out.append(UInt8(ascii: " "))
                reply.rows[i].line.appendOneLine(to: &out)
                out.append(10)
            }
            if let e = reply.error {
                out.append("ERR")
                if let tag {
                    out.append(" #")
                    out.append(contentsOf: tag.utf8)
                }
                out.append(UInt8(ascii: " "))
                out.append(contentsOf: e.code.rawValue.utf8)
                out.append(UInt8(ascii: " "))
                appendOneLine(e.message, to: &out)
            } else {
                out.append("OK")
                if let tag {
                    out.append(" #")
                    out.append(contentsOf: tag.utf8)
                }
                if !reply.message.isEmpty {
                    out.append(UInt8(ascii: " "))
                    // A message that starts like a tag is marked, so no reader takes it for one.
                    if reply.message.utf8.first == UInt8(ascii: "#") { out.append(92) }
                    appendOneLine(reply.message, to: &out)
                }
                if let rev = reply.rev {
                    out.append(" rev=")
                    appendDecimal(rev, to: &out)
                }
            }
            out.append(10)
        case .json:
            var pairs: [(String, JSONValue)] = [("ok", .bool(reply.error == nil))]
            if let tag { pairs.append(("tag", .string(tag))) }
            if let e = reply.error {
                pairs.append(("code", .string(e.code.rawValue)))
                pairs.append(("message", .string(e.message)))
            } else {
                pairs.append(("message", .string(reply.message)))
                pairs.append(("data", .array(reply.rows.map(\.json))))
                if let rev = reply.rev { pairs.append(("rev", .int(Int64(clamping: rev)))) }
            }
            JSONValue.object(pairs).write(to: &out)
            out.append(10)
        }
    }

    /// The encoded reply.
    public static func encode(_ reply: Reply, tag: String?, format: LineFormat) -> [UInt8] {
        var out: [UInt8] = []
        encode(reply, tag: tag, format: format, into: &out)
        return out
    }

    /// The encoded push line.
    public static func encode(_ push: Push, format: LineFormat) -> [UInt8] {
        var out: [UInt8] = []
        encode(push, format: format, into: &out)
        return out
    }

    /// Appends the encoded push line to `out`.
    public static func encode(_ push: Push, format: LineFormat, into out: inout [UInt8]) {
        switch (push, format) {
        case (.hello(let v, let server, let rev, let id), .text):
            out.append(contentsOf: "* HELLO tabula \(v) rev=\(rev) id=\(id) server=\(server)".utf8)
        case (.hello(let v, let server, let rev, let id), .json):
            JSONValue.object([
                ("push", .string("hello")), ("protocol", .int(Int64(v))), ("rev", .int(Int64(rev))),
                ("id", .string(id)), ("server", .string(server)),
            ]).write(to: &out)
        case (.event(let e), _):
            return encodeEvent(e, format: format, into: &out)
        case (.bye(let reason), .text):
            out.append("* BYE ")
            appendOneLine(reason, to: &out)
        case (.bye(let reason), .json):
            JSONValue.object([("push", .string("bye")), ("reason", .string(reason))]).write(to: &out)
        case (.synced(let rev), .text):
            out.append("* SYNCED ")
            appendDecimal(rev, to: &out)
        case (.synced(let rev), .json):
            out.append(#"{"push":"synced","rev":"#)
            appendDecimal(rev, to: &out)
            out.append(UInt8(ascii: "}"))
        case (.row(_, let row), .text):
            out.append("* ROW ")
            row.line.appendOneLine(to: &out)
        case (.row(let path, let row), .json):
            out.append(#"{"push":"row","path":"#)
            if let path { JSONValue.writeString(path, to: &out) } else { out.append("null") }
            out.append(#","value":"#)
            row.json.write(to: &out)
            out.append(UInt8(ascii: "}"))
        case (.snapshot(let prefix, let reason), .text):
            out.append("* SNAPSHOT ")
            appendOneLine(prefix, to: &out)
            out.append(UInt8(ascii: " "))
            appendOneLine(reason, to: &out)
        case (.snapshot(let prefix, let reason), .json):
            JSONValue.object([("push", .string("snapshot")), ("prefix", .string(prefix)), ("reason", .string(reason))])
                .write(to: &out)
        }
        out.append(10)
    }

    /// Appends event `e`'s line: what `encode(.event(e), …)` writes, without wrapping the
    /// event in a `Push` (a copy of it) and switching on both (every watcher's event passes
    /// here once per run).
    public static func encodeEvent(_ e: Event, format: LineFormat, into out: inout [UInt8]) {
        switch format {
        case .text: encodeText(e, into: &out)
        case .json: encodeJSON(e, into: &out)
        }
        out.append(10)
    }

    /// `* EVENT rev kind path summary`, written byte by byte: every watcher's event passes
    /// here once per run, and an interpolated String cost more than the rest of the line.
    private static func encodeText(_ e: Event, into out: inout [UInt8]) {
        out.append("* EVENT ")
        appendDecimal(e.rev, to: &out)
        out.append(UInt8(ascii: " "))
        appendOneLine(e.kind, to: &out)
        out.append(UInt8(ascii: " "))
        appendOneLine(e.path, to: &out)
        if !e.summaryLine.isEmpty {
            out.append(UInt8(ascii: " "))
            e.summaryLine.appendOneLine(to: &out)
        }
    }

    /// `{"push":"event","rev":…,"kind":…,"path":…,"value":…,"prev":…}` and, where the event
    /// has them, `"at"`, `"from"` and `"parent"`: the same object `JSONValue.object` would
    /// write, without building one.
    private static func encodeJSON(_ e: Event, into out: inout [UInt8]) {
        ByteWriter.append(to: &out, atMost: 80 + 6 * (e.kind.utf8.count + e.path.utf8.count)) { w in
            w.append(#"{"push":"event","rev":"#)
            w.appendDecimal(e.rev)
            w.append(#","kind":"#)
            w.appendJSONString(e.kind)
            w.append(#","path":"#)
            w.appendJSONString(e.path)
            w.append(#","value":"#)
        }
        e.value.write(to: &out)
        out.append(#","prev":"#)
        e.prev.write(to: &out)
        appendContext(e, to: &out)
        out.append(UInt8(ascii: "}"))
    }

    /// `,"at":…,"from":…,"parent":…`, the fields `e` has.
    public static func appendContext(_ e: Event, to out: inout [UInt8]) {
        if let at = e.at {
            out.append(#","at":"#)
            at.writeJSON(to: &out)
        }
        if let from = e.from {
            out.append(#","from":"#)
            from.writeJSON(to: &out)
        }
        if let parent = e.parent {
            out.append(#","parent":"#)
            parent.write(to: &out)
        }
    }

    /// Appends `v` in decimal, without making a String.
    public static func appendDecimal(_ v: UInt64, to out: inout [UInt8]) {
        if v < 10 { return out.append(UInt8(ascii: "0") + UInt8(v)) }
        withDecimalDigits(v) { out.append(contentsOf: $0) }
    }

    /// Lends `v`'s decimal digits, written from the right into 20 bytes on the stack (so
    /// that they are appended with one copy, not a checked append a byte).
    @inline(__always)
    public static func withDecimalDigits<R>(_ v: UInt64, _ body: (UnsafeRawBufferPointer) -> R) -> R {
        var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)
        return withUnsafeMutableBytes(of: &digits) { d in
            var i = 20
            var x = v
            repeat {
                i -= 1
                d[i] = UInt8(ascii: "0") + UInt8(x % 10)
                x /= 10
            } while x > 0
            return body(UnsafeRawBufferPointer(rebasing: d[i..<20]))
        }
    }

    /// `s` on one line by `appendOneLine`'s rule (for a log line that quotes a client's words).
    public static func oneLine(_ s: String) -> String {
        var out: [UInt8] = []
        appendOneLine(s, to: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// Appends text with any line break or control character made visible, so one value
    /// stays one line and cannot steer a terminal: `\n`, `\r` and `\\` are escaped (so a
    /// typed backslash-n and a real line break look different), other C0 and C1 controls and
    /// the bidirectional overrides and isolates (U+202A–202E, U+2066–2069) become `?`.
    public static func appendOneLine(_ s: String, to out: inout [UInt8]) {
        var s = s
        s.withUTF8 { buf in
            // Runs of bytes that stand are copied whole: a `★` (E2 98 85) in a row starts like
            // a bidirectional control but is not one, and costs no byte-by-byte copy.
            // Read through plain pointers: their subscripts are inlined even in a debug build,
            // where a page of 10,000 rows under the thread sanitizer must not crawl.
            guard let bytes = buf.baseAddress else { return }
            let table = looksAt
            let n = buf.count
            var start = 0
            var i = 0
            while i < n {
                let b = bytes[i]
                guard table[Int(b)] else {
                    i += 1
                    continue
                }
                let length = replacedLength(buf, at: i)
                guard length > 0 else {
                    i += 1
                    continue
                }
                out.append(contentsOf: UnsafeBufferPointer(rebasing: buf[start..<i]))
                switch b {
                case 10: out.append(contentsOf: [92, UInt8(ascii: "n")])
                case 13: out.append(contentsOf: [92, UInt8(ascii: "r")])
                case 9: out.append(contentsOf: [92, UInt8(ascii: "t")])
                case 92: out.append(contentsOf: [92, 92])
                default: out.append(UInt8(ascii: "?"))
                }
                i += length
                start = i
            }
            out.append(contentsOf: UnsafeBufferPointer(rebasing: buf[start...]))
        }
    }

    /// Whether `appendOneLine` writes `buf` as it is (nothing in it is replaced).
    static func standsAsOneLine(_ buf: UnsafeBufferPointer<UInt8>) -> Bool {
        let table = looksAt
        for i in buf.indices where table[Int(buf[i])] && replacedLength(buf, at: i) > 0 { return false }
        return true
    }

    /// The bytes `appendOneLine` looks at more closely: C0 controls, DEL, backslash, and the
    /// lead bytes of C1 controls (C2) and of the bidirectional controls and separators (E2).
    /// Made once and never written again, so shared by every thread.
    nonisolated(unsafe) private static let looksAt: UnsafePointer<Bool> = {
        let table = UnsafeMutablePointer<Bool>.allocate(capacity: 256)
        for b in 0..<256 { table[b] = b < 32 || b == 127 || b == 92 || b == 0xC2 || b == 0xE2 }
        return UnsafePointer(table)
    }()

    /// How many bytes at `i` `appendOneLine` replaces: 1 for a C0 control, DEL or backslash,
    /// 2 for a C1 control (C2 80–9F), 3 for a bidirectional control or a line or paragraph
    /// separator (U+202A–202E, U+2028/9, U+2066–2069; some terminals and JavaScript take the
    /// separators for line breaks); 0 when the byte stands.
    private static func replacedLength(_ buf: UnsafeBufferPointer<UInt8>, at i: Int) -> Int {
        let b = buf[i]
        let next = i + 1 < buf.count ? buf[i + 1] : 0
        let third = i + 2 < buf.count ? buf[i + 2] : 0
        switch b {
        case 0..<32, 127, 92: return 1
        case 0xC2 where (0x80...0x9F).contains(next): return 2
        case 0xE2
        where (next == 0x80 && (0xA8...0xAE).contains(third)) || (next == 0x81 && (0xA6...0xA9).contains(third)):
            return 3
        default: return 0
        }
    }
}
