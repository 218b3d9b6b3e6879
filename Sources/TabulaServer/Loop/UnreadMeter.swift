/// One loop's count of its connections' unread output (replies, events, a replay's deferred
/// events), kept without an atomic operation: a push and a write each change it, and two
/// atomic additions per delivery on a line every loop shares cost the fan-out more than the
/// rest of a delivery (fan-out to 100 watchers at P=16 on two loops: 0.92x of the build
/// before the count existed). The server's total (`ServerStats.unreadOutput`, held under
/// `--max-unread-output`) is told once a loop turn (`publish`), so it lags each loop by at
/// most one turn. Confined to its loop's thread.
final class UnreadMeter {
    private let stats: ServerStats
    /// Bytes unread on this loop's connections.
    var bytes = 0
    private var published = 0

    init(_ stats: ServerStats) { self.stats = stats }

    /// Adds to the server's total what changed since the last call.
    func publish() {
        guard bytes != published else { return }
        stats.unreadOutput.wrappingAdd(bytes - published, ordering: .relaxed)
        published = bytes
    }
}
