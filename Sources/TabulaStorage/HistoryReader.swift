import TabulaProtocol

/// Reads the stored change history from a thread other than the store's owner: an I/O loop
/// streaming a `WATCH … FROM` replay page by page, without the engine or any lock. It sees
/// committed changes only; one thread uses it at a time.
///
/// Ranges are `(after, through]`, and each read stops at `limit` events, so that the caller
/// bounds a call's cost by the width of the range or by `limit` whatever the history holds.
/// Under a top-level list's own path (`/settings`) a read costs the events it returns: the
/// history is indexed by list, so no other list's changes are looked at.
public protocol HistoryReader: AnyObject {
    /// The oldest revision still stored (0 when the history is empty).
    func oldestRevision() throws -> UInt64
    /// How many stored events with a revision in `(after, through]` lie under `prefix`,
    /// counting at most `limit`: the count, and the revision it counted through (the
    /// `limit`-th event's when it counted `limit`, else `through`).
    func count(after: UInt64, through: UInt64, under prefix: String, limit: Int) throws -> (count: Int, through: UInt64)
    /// Up to `limit` stored events with a revision in `(after, through]` under `prefix`,
    /// oldest first; stops early after an event for which `more` is false. Without `payload`,
    /// each is read as its revision, kind, path and summary alone (value and prev null, no
    /// context): all that a text watcher that sees everything is sent.
    func events(
        after: UInt64, through: UInt64, under prefix: String, limit: Int, payload: Bool, more: (Event) -> Bool
    ) throws -> [Event]
}

extension HistoryReader {
    /// The events whole (`payload`).
    public func events(after: UInt64, through: UInt64, under prefix: String, limit: Int, more: (Event) -> Bool)
        throws -> [Event]
    {
        try events(after: after, through: through, under: prefix, limit: limit, payload: true, more: more)
    }
}
