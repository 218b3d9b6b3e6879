/// The state a first start begins with: one example of each seed document.
public enum SeedData {
    /// A model holding the seeds' own examples.
    public static func model(now: Double) -> Model {
        var m = Model()
        m[SettingsList.self].settings = [
            Setting(
                slug: "my-string", title: "My String", type: .text, options: ["Yellow", "Green", "Blue", "Red"],
                selected: 0),
            Setting(slug: "my-int", title: "My Int", type: .int, options: ["8", "16", "32", "64"], selected: 1),
        ]
        let tree: [CatalogDraft] = [
            CatalogDraft(
                title: "Item 1", view: .branch,
                children: [
                    CatalogDraft(title: "Item 1.1", view: .tabs(["View One", "View Two"])),
                    CatalogDraft(title: "Item 1.2", view: .image("Image.jpg")),
                ]),
            CatalogDraft(
                title: "Item 2", view: .branch,
                children: [
                    CatalogDraft(
                        title: "Item 2.1", view: .branch,
                        children: [CatalogDraft(title: "Item 2.1.1", view: .image("Image.jpg"))]),
                    CatalogDraft(title: "Item 2.2", view: .text("A simple detail view.")),
                ]),
            CatalogDraft(title: "Item 3", view: .text("A simple detail view.")),
            CatalogDraft(title: "Item 4", view: .tabs(["View One", "View Two"])),
        ]
        for d in tree { m[CatalogList.self].insert(d, under: 0) }
        let seedItems: [(String, Int, String, Bool)] = [
            ("Rusty Spork", 12, "5A3C9E01", false), ("Fluffy Bear", 34, "0B77D2C4", true),
            ("Shiny Mac", 85, "9F21A0B3", false), ("Rusty Mac", 63, "44E8C17D", false),
        ]
        for (name, value, serial, fav) in seedItems {
            let it = m[ItemsList.self].items.add(name: name, value: value, serial: serial, created: now)
            if fav { _ = m[ItemsList.self].items.setFavorite(it.id, true) }
        }
        func section(_ title: String, _ entries: [String]) -> MenuSection {
            MenuSection(
                slug: Slug.make(title), title: title, entries: entries.map { MenuEntry(slug: Slug.make($0), title: $0) }
            )
        }
        m[MenuList.self].sections = [
            section("Pizza", ["Margherita", "Pepperoni", "Quattro Formaggi"]),
            section("Pasta", ["Carbonara", "Arrabbiata", "Pesto"]),
            section("Dessert", ["Tiramisu", "Panna Cotta", "Gelato"]),
        ]
        return m
    }
}
