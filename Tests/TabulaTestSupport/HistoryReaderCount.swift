import TabulaStorage

extension HistoryReader {
    /// How many stored events with a revision in `(after, through]` lie under `prefix`, all
    /// of them counted (what a test compares with a scan).
    public func count(after: UInt64, through: UInt64, under prefix: String) throws -> Int {
        try count(after: after, through: through, under: prefix, limit: .max).count
    }
}
