import TabulaProtocol

/// The history a replay reads on its I/O loop: the events held in memory, under the read
/// lock, and nothing else. A range memory no longer holds throws `HistoryGap.elsewhere`: the
/// loop then hands the step to the `ReplayReader`, which reads the store off the loop.
struct MemoryHistory: RetainedHistory {
    let state: SharedState

    func check(after: UInt64) throws(HistoryGap) {
        guard state.reading({ _ in state.history.holds(after: after) }) else { throw HistoryGap.elsewhere }
    }

    func count(after: UInt64, through: UInt64, under prefix: String, limit: Int) throws(HistoryGap) -> (
        count: Int, through: UInt64
    ) {
        let n: (count: Int, through: UInt64)? = state.reading { _ in
            state.history.holds(after: after)
                ? state.history.count(after: after, through: through, under: prefix, limit: limit) : nil
        }
        guard let n else { throw HistoryGap.elsewhere }
        return n
    }

    /// (Held whole in memory: `payload` costs nothing here.)
    func events(after: UInt64, through: UInt64, under prefix: String, limit: Int, bytes: Int, payload: Bool)
        throws(HistoryGap) -> [Event]
    {
        let page: [Event]? = state.reading { _ in
            state.history.holds(after: after)
                ? state.history.events(after: after, through: through, under: prefix, limit: limit, bytes: bytes) : nil
        }
        guard let page else { throw HistoryGap.elsewhere }
        return page
    }
}
