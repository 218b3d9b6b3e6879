import TabulaProtocol

/// A change asked of one place of a list, its path already resolved.
public enum Write: Sendable {
    case select(OptionRef)
    case add([String])
    case set([FieldAssignment])
    case remove
    case move(to: Int)
    case favorite(FavAction)
    case bands([String])
    /// Append an order for a menu entry (`entry` is its path) to the order list.
    case order(entry: String, title: String)
}
