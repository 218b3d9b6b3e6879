import TabulaModel
import TabulaProtocol

/// A model plus one viewer, for tests that speak in request lines.
final class Harness {
    var model: Model
    var viewer = Viewer()
    var rng = SplitMix64(seed: 42)
    var now = 1_700_000_000.0

    init(_ model: Model = SeedData.model(now: 1_700_000_000)) { self.model = model }

    @discardableResult
    func run(_ line: String) -> Outcome {
        guard case .success(let r)? = RequestParser.parse(Array(line.utf8)) else {
            fatalError("test line does not parse: \(line)")
        }
        return model.apply(r.command, ifRev: r.ifRev, viewer: &viewer, now: now, rng: &rng)
    }

    /// The reply's rows as text, or the error as `ERR CODE`.
    func rows(_ line: String) -> [String] {
        let o = run(line)
        if let e = o.reply.error { return ["ERR \(e.code.rawValue) \(e.message)"] }
        return o.reply.rows.map(\.text)
    }

    func error(_ line: String) -> ErrorCode? { run(line).reply.error?.code }

    func ok(_ line: String) -> Bool {
        let o = run(line)
        if let e = o.reply.error { print("unexpected error for \(line): \(e)") }
        return o.reply.error == nil
    }

    /// Item ids of a section in display order.
    func ids(_ section: Int) -> [Int] {
        model.items.page(section: section, from: 0, limit: 1_000_000, favoritesOnly: false).map(\.id)
    }
}

extension Model {
    /// The item store, for tests that look inside.
    var items: ItemStore { self[ItemsList.self].items }
    /// The settings, for tests that look inside.
    var settings: [Setting] { self[SettingsList.self].settings }
}
