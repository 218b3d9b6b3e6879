import TabulaProtocol

/// The counts every request touches, one set per I/O loop: requests run by verb, bytes read
/// and written. A loop adds to its own set (and the engine, for a request it runs, to its
/// connection's loop's), so the two loops never pass one count's cache line back and forth
/// per request; `ServerStats` sums the sets when STATS, INFO or `/metrics` read them. None of
/// them enforces a bound (those, such as the unread output, stay one shared total, exact
/// where the bound is checked).
final class LoopCounts: Sendable {
    /// Requests run per verb (indexed like `Verb.allCases`).
    let byVerb = Verb.allCases.map { _ in Counter() }
    let bytesIn = Counter()
    let bytesOut = Counter()
}
