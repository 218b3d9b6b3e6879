import TabulaModel
import TabulaProtocol

/// Which watches an event concerns: one rule for live delivery, the history in memory and the
/// store's history readers (their SQL says the same).
extension Event {
    /// A removal (RM, or CLEAR of the orders): it concerns the watchers of what was under
    /// its path too, since what they watch went with it.
    var isRemoval: Bool { what.removes }

    /// Whether a watch of `prefix` is sent this event: it lies under the prefix, or it
    /// removed something the prefix lies under.
    func concerns(_ prefix: String) -> Bool {
        ModelPath.isUnder(path, prefix: prefix) || (isRemoval && ModelPath.isUnder(prefix, prefix: path))
    }
}
