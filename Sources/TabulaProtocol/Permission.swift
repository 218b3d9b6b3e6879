/// What a user may do, in rising order: each includes the ones below it.
public enum Permission: Int, Sendable, Comparable, CaseIterable {
    /// Allowed before logging in: PING, HELP, QUIT.
    case none
    /// Reading and watching.
    case read
    /// Changing the lists.
    case write
    /// Everything: BANDS, STATS.
    case admin

    public static func < (a: Permission, b: Permission) -> Bool { a.rawValue < b.rawValue }
}
