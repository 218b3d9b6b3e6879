/// Everything stored, as storage loads it back: the revision and every list's mutations.
public struct ModelSnapshot: Sendable, Equatable {
    /// The revision of the last change.
    public var revision: UInt64
    /// What rebuilds the lists from empty, in order.
    public var mutations: [Mutation]

    /// Makes one.
    public init(revision: UInt64, mutations: [Mutation]) {
        self.revision = revision
        self.mutations = mutations
    }
}
