/// What a viewer's grants say of the children of one list, reduced to a default and its
/// exceptions. Only the prefixes at or above the list, and those naming one child (`LIST/NAME`,
/// or a path below it), decide whether a child is shown: every child that no prefix names is
/// shown alike (`shownByDefault`: the list is covered), and the children some prefix names are
/// the only ones that may differ (`exceptions`). Their number is bounded by the grants'
/// prefixes, not by the list, so a restricted viewer's page, count and `AFTER` cost what an
/// admin's do plus O(prefixes) lookups.
public struct ChildGrants: Sendable {
    /// Whether a child that no prefix names is shown.
    public let shownByDefault: Bool
    /// The names of children whose visibility differs from the default (whether or not such
    /// a child exists), sorted.
    public let exceptions: [String]

    public init(_ grants: Grants, list: String) {
        shownByDefault = grants.covers(list)
        let base = list == "/" ? "/" : list + "/"
        var named = Set<String>()
        // Bytes, as paths compare: a prefix names a child only when its bytes start with the list's.
        for p in grants.allow + grants.deny where p.utf8.count > base.utf8.count && p.utf8.starts(with: base.utf8) {
            named.insert(
                String(decoding: p.utf8.dropFirst(base.utf8.count).prefix { $0 != UInt8(ascii: "/") }, as: UTF8.self))
        }
        let shown = shownByDefault
        exceptions = named.filter { grants.shows(base + $0) != shown }.sorted()
    }

    /// The exceptions that name a child by a number, as paths compare (bytes: `07` names no
    /// number, `7` names 7): the ids of items or orders whose visibility differs.
    public var numberedExceptions: [Int] {
        exceptions.compactMap { n in Int(n).flatMap { $0 >= 0 && String($0) == n ? $0 : nil } }
    }

    /// Whether the child `name` is shown.
    public func shows(_ name: String) -> Bool { exceptions.contains(name) != shownByDefault }

    /// How many of a list's `total` children are shown, `exists` telling which names are children.
    public func shownCount(of total: Int, exists: (String) -> Bool) -> Int {
        let named = exceptions.count(where: exists)
        return shownByDefault ? total - named : named
    }
}
