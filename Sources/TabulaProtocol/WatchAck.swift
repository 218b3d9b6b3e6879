/// The reply to `WATCH`: the prefix watched, the revision it is watched from, and with
/// `FROM` how many replayed events follow. Written by the server and read back by clients
/// from this one definition: `watching /items at rev 57; replaying 3 events`.
public struct WatchAck: Sendable, Equatable {
    /// The prefix, absolute.
    public var prefix: String
    /// The revision at the moment of the reply: every later change is pushed.
    public var rev: UInt64
    /// With `FROM`: the number of events replayed right after the reply.
    public var replaying: Int?
    /// With `SNAPSHOT` (and no replay): the rows follow, then `* SYNCED rev`.
    public var snapshot = false

    /// Makes one.
    public init(prefix: String, rev: UInt64, replaying: Int? = nil, snapshot: Bool = false) {
        self.prefix = prefix
        self.rev = rev
        self.replaying = replaying
        self.snapshot = snapshot
    }

    /// The reply's message.
    public var message: String {
        var m = "watching \(prefix) at rev \(rev)"
        if let n = replaying { m += "; replaying \(n) event\(n == 1 ? "" : "s")" }
        if snapshot { m += "; sending a snapshot" }
        return m
    }

    /// Reads a WATCH reply's message back; nil when it is not one.
    public init?(message: String) {
        let words = message.split(separator: " ")
        guard words.count >= 5, words[0] == "watching", words[2] == "at", words[3] == "rev" else { return nil }
        let revWord = words[4].hasSuffix(";") ? words[4].dropLast() : words[4]
        guard let rev = UInt64(revWord) else { return nil }
        prefix = String(words[1])
        self.rev = rev
        replaying = words.count >= 7 && words[5] == "replaying" ? Int(words[6]) : nil
        snapshot = message.hasSuffix("; sending a snapshot")
    }
}
