/// Random items as in the book's `Item(random:)`: adjective + noun, value 0–99, short serial.
public enum RandomItem {
    static let adjectives = ["Fluffy", "Rusty", "Shiny"]
    static let nouns = ["Bear", "Spork", "Mac"]

    /// A random name, value and serial.
    public static func make(using rng: inout some RandomNumberGenerator) -> (name: String, value: Int, serial: String) {
        let name = "\(adjectives.randomElement(using: &rng) ?? "Shiny") \(nouns.randomElement(using: &rng) ?? "Mac")"
        let value = Int.random(in: 0..<100, using: &rng)
        return (name, value, serial(using: &rng))
    }

    /// A random serial: eight hex digits.
    public static func serial(using rng: inout some RandomNumberGenerator) -> String {
        let hex = String(UInt32.random(in: 0...UInt32.max, using: &rng), radix: 16, uppercase: true)
        return String(repeating: "0", count: 8 - hex.count) + hex
    }
}
