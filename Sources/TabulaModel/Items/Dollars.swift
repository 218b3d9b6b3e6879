import TabulaProtocol

/// Whole dollars as typed: `42` or `$42`.
enum Dollars {
    /// The amount, if `raw` is a whole number of dollars (any size; callers bound it).
    static func value(_ raw: String) -> Int? { Int(raw.hasPrefix("$") ? raw.dropFirst() : raw[...]) }

    /// An item's value: 0 to 1,000,000,000 dollars, or an error that says so.
    static func parse(_ raw: String) throws -> Int {
        guard let v = value(raw), v >= 0, v <= 1_000_000_000 else {
            throw TabulaError(.invalid, "'\(raw)' is not a value in whole dollars (0 to 1000000000), e.g. 42 or $42")
        }
        return v
    }
}
