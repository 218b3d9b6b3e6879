/// A change to stored state, for durable storage: what to write so that a restart
/// rebuilds exactly the model that produced it.
public enum Mutation: Sendable, Equatable {
    /// Insert or replace a setting at its position in the list.
    case putSetting(Setting, position: Int)
    /// Delete a setting.
    case deleteSetting(slug: String)
    /// Insert or replace a catalog node at its position among its siblings.
    case putCatalogNode(CatalogNode, position: Int)
    /// Delete catalog nodes.
    case deleteCatalogNodes([Int])
    /// Insert or replace an item.
    case putItem(Item)
    /// Delete an item.
    case deleteItem(Int)
    /// Replace the price bands.
    case bands([Band])
    /// Replace the whole menu (it is small).
    case menu([MenuSection])
    /// Insert an order.
    case putOrder(Order)
    /// Delete an order.
    case deleteOrder(Int)
    /// Delete every order.
    case clearOrders
}

/// Everything stored, as storage loads it back.
public struct ModelSnapshot: Sendable {
    /// The revision of the last change.
    public var revision: UInt64
    /// Settings in order.
    public var settings: [Setting]
    /// Catalog nodes (not the root), each with its position among siblings.
    public var catalog: [(CatalogNode, Int)]
    /// Items, any order.
    public var items: [Item]
    /// Price bands.
    public var bands: [Band]
    /// Menu sections.
    public var menu: [MenuSection]
    /// Orders.
    public var orders: [Order]
    /// The next item id (so that ids are never reused after a restart).
    public var nextItemId: Int
    /// The next order id.
    public var nextOrderId: Int

    /// Makes a snapshot.
    public init(revision: UInt64, settings: [Setting], catalog: [(CatalogNode, Int)], items: [Item], bands: [Band], menu: [MenuSection], orders: [Order], nextItemId: Int = 1, nextOrderId: Int = 1) {
        self.revision = revision
        self.settings = settings
        self.catalog = catalog
        self.items = items
        self.bands = bands
        self.menu = menu
        self.orders = orders
        self.nextItemId = nextItemId
        self.nextOrderId = nextOrderId
    }
}
