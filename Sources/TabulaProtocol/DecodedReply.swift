/// A reply read back from the wire.
public struct DecodedReply: Sendable, Equatable {
    /// The request's `#tag`, repeated.
    public var tag: String?
    /// The data rows: in text, `text` (unescaped) with a null `json`; in JSON, `json` with
    /// an empty `text`.
    public var rows: [Row]
    /// The message after `OK` (empty for an error).
    public var message: String
    /// The error, for `ERR`.
    public var error: TabulaError?
    /// The revision a change made (`rev=N`, the last word of a text `OK` line; `"rev"` in JSON).
    public var rev: UInt64?

    /// Whether the request succeeded.
    public var isOK: Bool { error == nil }

    /// Makes one.
    public init(
        tag: String? = nil, rows: [Row] = [], message: String = "", error: TabulaError? = nil, rev: UInt64? = nil
    ) {
        self.rev = rev
        self.tag = tag
        self.rows = rows
        self.message = message
        self.error = error
    }
}
