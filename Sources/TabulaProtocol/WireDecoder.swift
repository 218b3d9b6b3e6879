/// Reads the server's lines back into values, text or JSON: the inverse of `WireEncoder`,
/// for clients. Pure: feed it lines (without their line ending) as they arrive.
public struct WireDecoder: Sendable {
    private var rows: [Row] = []

    /// A decoder between replies.
    public init() {}

    /// Feeds one line; returns what it completes (a data line completes nothing).
    public mutating func feed(_ line: String) -> ServerMessage? {
        let u = line.utf8
        switch u.first {
        case UInt8(ascii: "-") where line.startsScalars(with: "- "):
            rows.append(Row(text: WireDecoder.unescape(line.droppingScalars(2)), json: .null))
            return nil
        case UInt8(ascii: "*"):
            return WireDecoder.textPush(line).map { .push($0) } ?? .unreadable(line)
        case UInt8(ascii: "{"):
            guard let v = JSONParser.parse(line) else { return .unreadable(line) }
            if v["push"] != nil { return WireDecoder.jsonPush(v).map { .push($0) } ?? .unreadable(line) }
            return jsonReply(v).map { .reply($0) } ?? .unreadable(line)
        case UInt8(ascii: "O") where line == "OK" || line.startsScalars(with: "OK "):
            let (body, rev) = WireDecoder.revision(line.droppingScalars(2))
            var reply = finish(textFinal(body), error: nil)
            reply.rev = rev
            return .reply(reply)
        case UInt8(ascii: "E") where line.startsScalars(with: "ERR "):
            var (tag, rest) = WireDecoder.tagged(line.droppingScalars(4))
            let code = Substring(rest.unicodeScalars.prefix { $0 != " " })
            guard let c = ErrorCode(rawValue: String(code)) else { return .unreadable(line) }
            rest = rest.droppingScalars(code.unicodeScalars.count)
            if rest.unicodeScalars.first == " " { rest = rest.droppingScalars(1) }
            return .reply(finish((tag, ""), error: TabulaError(c, WireDecoder.unescape(rest))))
        default:
            return .unreadable(line)
        }
    }

    /// A change's `OK` line ends in ` rev=N`: the rest, and N.
    static func revision(_ s: Substring) -> (Substring, UInt64?) {
        guard let space = s.lastIndex(of: " ") else { return (s, nil) }
        let word = s[s.index(after: space)...]
        guard word.hasPrefix("rev="), let n = UInt64(word.dropFirst(4)) else { return (s, nil) }
        return (s[..<space], n)
    }

    /// After `OK`: one space, then `#tag` and one space, then the message (`\#` when it
    /// starts with `#`), spaces kept.
    private func textFinal(_ rest: Substring) -> (String?, String) {
        let (tag, message) = WireDecoder.tagged(rest.unicodeScalars.first == " " ? rest.droppingScalars(1) : rest)
        return (tag, WireDecoder.unescape(message))
    }

    private mutating func finish(_ final: (tag: String?, message: String), error: TabulaError?) -> DecodedReply {
        defer { rows.removeAll() }
        return DecodedReply(tag: final.tag, rows: rows, message: final.message, error: error)
    }

    /// `#tag rest` → (tag, rest without the one space after the tag); no tag → (nil, all).
    static func tagged(_ s: Substring) -> (String?, Substring) {
        guard s.unicodeScalars.first == "#" else { return (nil, s) }
        let tag = Substring(s.unicodeScalars.dropFirst().prefix { $0 != " " })
        let rest = s.droppingScalars(tag.unicodeScalars.count + 1)
        return (String(tag), rest.unicodeScalars.first == " " ? rest.droppingScalars(1) : rest)
    }

    private mutating func jsonReply(_ v: JSONValue) -> DecodedReply? {
        guard case .bool(let ok)? = v["ok"]?.resolved else { return nil }
        rows.removeAll()
        let tag = v["tag"]?.stringValue
        let message = v["message"]?.stringValue ?? ""
        if ok {
            let rev = v["rev"]?.intValue.map { UInt64(clamping: $0) }
            return DecodedReply(
                tag: tag, rows: (v["data"]?.arrayValue ?? []).map { Row(text: "", json: $0) }, message: message,
                rev: rev)
        }
        guard let c = v["code"]?.stringValue.flatMap(ErrorCode.init(rawValue:)) else { return nil }
        return DecodedReply(tag: tag, error: TabulaError(c, message))
    }

    /// A text push line, or nil when it is not one.
    public static func textPush(_ line: String) -> Push? {
        if line.startsScalars(with: "* HELLO ") {
            let words = line.droppingScalars(8).unicodeScalars.split(separator: " ").map(Substring.init)
            guard words.first == "tabula", words.count >= 2, let v = Int(words[1]) else { return nil }
            var fields: [Substring: Substring] = [:]
            for w in words.dropFirst(2) {
                guard let eq = w.firstIndex(of: "=") else { continue }
                fields[w[..<eq]] = w[w.index(after: eq)...]
            }
            guard let rev = fields["rev"].flatMap({ UInt64($0) }) else { return nil }
            return .hello(
                protocolVersion: v, server: fields["server"].map(String.init) ?? "", rev: rev,
                id: fields["id"].map(String.init) ?? "")
        }
        if line.startsScalars(with: "* EVENT ") {
            let parts = line.droppingScalars(8).unicodeScalars.split(
                separator: " ", maxSplits: 3, omittingEmptySubsequences: false
            ).map(Substring.init)
            guard parts.count >= 3, let rev = UInt64(parts[0]) else { return nil }
            return .event(
                Event(
                    rev: rev, kind: String(parts[1]), path: unescape(parts[2]),
                    summary: parts.count > 3 ? unescape(parts[3]) : "", value: .null))
        }
        if line == "* BYE" || line.startsScalars(with: "* BYE ") {
            return .bye(reason: unescape(line.droppingScalars(6)))
        }
        if line.startsScalars(with: "* SYNCED "), let rev = UInt64(line.droppingScalars(9)) { return .synced(rev: rev) }
        if line.startsScalars(with: "* SNAPSHOT ") {
            let parts = line.droppingScalars(11).unicodeScalars.split(
                separator: " ", maxSplits: 1, omittingEmptySubsequences: false
            ).map(Substring.init)
            return .snapshot(prefix: unescape(parts[0]), reason: parts.count > 1 ? unescape(parts[1]) : "")
        }
        if line.startsScalars(with: "* ROW ") {
            return .row(path: nil, Row(text: unescape(line.droppingScalars(6)), json: .null))
        }
        return nil
    }

    /// A JSON push, or nil when it is not one.
    public static func jsonPush(_ v: JSONValue) -> Push? {
        switch v["push"]?.stringValue {
        case "hello":
            guard let rev = v["rev"]?.intValue, let p = v["protocol"]?.intValue else { return nil }
            return .hello(
                protocolVersion: Int(p), server: v["server"]?.stringValue ?? "", rev: UInt64(rev),
                id: v["id"]?.stringValue ?? "")
        case "event":
            guard let rev = v["rev"]?.intValue, let kind = v["kind"]?.stringValue, let path = v["path"]?.stringValue
            else { return nil }
            var e = Event(rev: UInt64(rev), kind: kind, path: path, summary: "", value: v["value"] ?? .null)
            e.at = Placement(json: v["at"])
            e.from = Placement(json: v["from"])
            e.prev = v["prev"] ?? .null
            e.parent = v["parent"]
            return .event(e)
        case "bye":
            return .bye(reason: v["reason"]?.stringValue ?? "")
        case "synced":
            guard let rev = v["rev"]?.intValue else { return nil }
            return .synced(rev: UInt64(rev))
        case "snapshot":
            guard let prefix = v["prefix"]?.stringValue else { return nil }
            return .snapshot(prefix: prefix, reason: v["reason"]?.stringValue ?? "")
        case "row":
            let value = v["value"] ?? .null
            return .row(path: v["path"]?.stringValue, Row(text: "", json: value))
        default:
            return nil
        }
    }

    /// What a line is, from its first bytes alone (no allocation): for clients that only
    /// count replies and pushes, such as a load generator.
    public enum LineKind: Sendable, Equatable {
        case row, ok, error, push, other
    }

    /// The kind of `line` (without its line ending), text or JSON. Inlinable, so that a
    /// client's hot loop gets it specialised for its own collection type.
    @inlinable
    public static func kind<C: Collection>(of line: C) -> LineKind where C.Element == UInt8 {
        var it = line.makeIterator()
        switch it.next() {
        case UInt8(ascii: "-"): return .row
        case UInt8(ascii: "*"): return .push
        case UInt8(ascii: "O"): return it.next() == UInt8(ascii: "K") ? .ok : .other
        case UInt8(ascii: "E"): return it.next() == UInt8(ascii: "R") ? .error : .other
        case UInt8(ascii: "{"):
            guard it.next() == UInt8(ascii: "\""), let c = it.next() else { return .other }
            if c == UInt8(ascii: "p") { return .push }
            guard c == UInt8(ascii: "o") else { return .other }
            for _ in 0..<3 { _ = it.next() }  // k":
            return it.next() == UInt8(ascii: "t") ? .ok : .error
        default: return .other
        }
    }

    /// Text as a person typed it, from its one-line wire form: `\n`, `\r`, `\t` and `\\` undone.
    public static func unescape<S: StringProtocol>(_ s: S) -> String {
        guard s.utf8.contains(UInt8(ascii: "\\")) else { return String(s) }
        var out = String.UnicodeScalarView()
        var escaped = false
        for ch in s.unicodeScalars {  // scalars: a mark after a backslash is not part of it
            if escaped {
                switch ch {
                case "n": out.append("\n")
                case "r": out.append("\r")
                case "t": out.append("\t")
                default: out.append(ch)
                }
                escaped = false
            } else if ch == "\\" {
                escaped = true
            } else {
                out.append(ch)
            }
        }
        if escaped { out.append("\\") }
        return String(out)
    }
}

extension StringProtocol {
    /// Whether it starts with `prefix`, scalar by scalar: a combining mark after a space
    /// (a title that starts with one) never hides the space, as Character comparison would.
    func startsScalars(with prefix: String) -> Bool { unicodeScalars.starts(with: prefix.unicodeScalars) }

}

extension Substring {
    /// What follows its first `n` scalars.
    func droppingScalars(_ n: Int) -> Substring { Substring(unicodeScalars.dropFirst(n)) }
}

extension String {
    /// What follows its first `n` scalars.
    func droppingScalars(_ n: Int) -> Substring { Substring(self).droppingScalars(n) }
}
