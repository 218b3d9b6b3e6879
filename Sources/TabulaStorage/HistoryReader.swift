import TabulaProtocol

/// Reads the stored change history from a thread other than the store's owner: an I/O loop
/// streaming a `WATCH … FROM` replay page by page, without the engine or any lock. It sees
/// committed changes only; one thread uses it at a time.
///
/// Ranges are `(after, through]`, so that the caller bounds each call's cost by the width
/// of the range (and by `limit`) whatever the history holds.
public protocol HistoryReader: AnyObject {
    /// The oldest revision still stored (0 when the history is empty).
    func oldestRevision() throws -> UInt64
    /// How many stored events with a revision in `(after, through]` lie under `prefix`.
    func count(after: UInt64, through: UInt64, under prefix: String) throws -> Int
    /// Up to `limit` stored events with a revision in `(after, through]` under `prefix`,
    /// oldest first; stops early after an event for which `more` is false.
    func events(after: UInt64, through: UInt64, under prefix: String, limit: Int, more: (Event) -> Bool) throws -> [Event]
}
