/// A push: a line the server sends between replies, starting with `*`.
public enum Push: Sendable, Equatable {
    /// The greeting on connect: the protocol version, the server's software, the revision
    /// and the id of its history (it changes when the history starts anew: a fresh
    /// `--memory` server, a new database file), so a client can tell a resumable server
    /// from one that was reset.
    case hello(protocolVersion: Int, server: String, rev: UInt64, id: String)
    /// A change under a watched prefix.
    case event(Event)
    /// The server is closing this connection, and why.
    case bye(reason: String)
    /// A watch's replay or snapshot is complete: the watcher holds every change under the
    /// prefix through `rev`, and resumes from the highest revision among its events and these.
    case synced(rev: UInt64)
    /// One row of a watch's snapshot (`WATCH … SNAPSHOT`), as `LS` of the prefix shows it;
    /// `path` names its entry (nil for a section header or an empty-section line).
    case row(path: String?, Row)
    /// A `WATCH prefix FROM rev SNAPSHOT` replay that the history overtook after its reply
    /// goes on as a snapshot (why): what the watcher holds of `prefix` is replaced by the rows
    /// that follow, up to their `synced`; events under `prefix` before that `synced` are in
    /// those rows (skip them), and the resume point stays where the replay stopped until then.
    case snapshot(prefix: String, reason: String)

    /// Whether this is a goodbye.
    public var isBye: Bool {
        if case .bye = self { return true }
        return false
    }
}
