import TabulaProtocol

/// A price band: the section of items whose value is at least `lower` (and below the next band's).
public struct Band: Sendable, Equatable {
    /// Section header, e.g. "Cheap Items".
    public var title: String
    /// Path name of the section.
    public var slug: String
    /// Lowest value in the band, in dollars.
    public var lower: Int

    /// Makes a band.
    public init(title: String, lower: Int) {
        self.title = title
        self.slug = Slug.make(title)
        self.lower = lower
    }

    /// The most bands `BANDS` accepts.
    public static let maxBands = 100

    /// The default split of seed 002: under $50 and $50 or more.
    public static let defaults = [Band(title: "Cheap Items", lower: 0), Band(title: "Expensive Items", lower: 50)]

    /// Parses `title bound title bound … title`, or says why it is wrong.
    public static func parse(_ args: [String]) -> Result<[Band], TabulaError> {
        guard args.count % 2 == 1 else {
            return .failure(
                TabulaError(
                    .syntax,
                    "BANDS alternates titles and bounds and ends with a title, e.g. BANDS Cheap 20 Mid 80 Pricey"))
        }
        guard args.count / 2 + 1 <= maxBands else {
            return .failure(TabulaError(.limit, "at most \(maxBands) bands; this asks for \(args.count / 2 + 1)"))
        }
        var bands: [Band] = []
        var lower = 0
        for (i, a) in args.enumerated() {
            if i % 2 == 0 {
                let b = Band(title: a, lower: lower)
                if Int(a) != nil {
                    return .failure(
                        TabulaError(.syntax, "'\(a)' stands where a section title belongs; BANDS Cheap 50 Expensive"))
                }
                if bands.contains(where: { $0.slug == b.slug }) {
                    return .failure(TabulaError(.exists, "two bands are both named \(b.slug)"))
                }
                bands.append(b)
            } else {
                guard let v = Dollars.value(a), v > lower else {
                    return .failure(
                        TabulaError(.syntax, "bound '\(a)' must be a whole number of dollars above \(lower)"))
                }
                lower = v
            }
        }
        return .success(bands)
    }
}
