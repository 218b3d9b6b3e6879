import TabulaProtocol

/// One item of the item store (seed 002): name, value in dollars, serial, date, favourite.
public struct Item: Sendable, Equatable {
    /// Stable id, its path name under `/items`.
    public var id: Int
    /// Name, e.g. "Rusty Spork".
    public var name: String
    /// Value in whole dollars.
    public var value: Int
    /// Short serial number.
    public var serial: String
    /// Creation time, Unix seconds.
    public var created: Double
    /// Favourite flag.
    public var favorite: Bool
    /// Global ordering key: a section lists its items by increasing `ord`.
    public var ord: Double

    /// Makes an item.
    public init(
        id: Int, name: String, value: Int, serial: String, created: Double, favorite: Bool = false, ord: Double = 0
    ) {
        self.id = id
        self.name = name
        self.value = value
        self.serial = serial
        self.created = created
        self.favorite = favorite
        self.ord = ord
    }
}
