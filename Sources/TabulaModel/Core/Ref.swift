/// A place inside one list, in that list's own coordinates: `kind` says what it is (each
/// list has its own constants), `a` and `b` where (an index, an id). `Ref.top` is the list.
public struct Ref: Hashable, Sendable {
    /// What kind of place, as the list numbers them; 0 is the list itself.
    public var kind: UInt8
    /// The first coordinate (an index or an id).
    public var a: Int
    /// The second coordinate, for places two levels down.
    public var b: Int

    /// Makes one.
    public init(_ kind: UInt8, _ a: Int = 0, _ b: Int = 0) {
        self.kind = kind
        self.a = a
        self.b = b
    }

    /// The list itself.
    public static let top = Ref(0)
}
