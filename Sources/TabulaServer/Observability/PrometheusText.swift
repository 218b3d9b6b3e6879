/// Writes the Prometheus text exposition format (version 0.0.4): each family's HELP and
/// TYPE once, then its samples; label values escaped.
struct PrometheusText {
    private(set) var text = ""

    enum Kind: String { case counter, gauge, histogram }

    /// A family with one sample per label set (`labels` empty: one plain sample).
    mutating func family(_ name: String, _ kind: Kind, _ help: String, _ samples: [([(String, String)], Double)]) {
        text += "# HELP \(name) \(help)\n# TYPE \(name) \(kind.rawValue)\n"
        for (labels, v) in samples { sample(name, labels, v) }
    }

    mutating func family(_ name: String, _ kind: Kind, _ help: String, _ value: Double) {
        family(name, kind, help, [([], value)])
    }

    /// A histogram family from a reading of `Histogram`.
    mutating func histogram(
        _ name: String, _ help: String, bounds: [Double], _ r: (cumulative: [Int], sum: Double, count: Int)
    ) {
        text += "# HELP \(name) \(help)\n# TYPE \(name) histogram\n"
        for (b, n) in zip(bounds, r.cumulative) {
            sample(name + "_bucket", [("le", PrometheusText.number(b))], Double(n))
        }
        sample(name + "_bucket", [("le", "+Inf")], Double(r.count))
        sample(name + "_sum", [], r.sum)
        sample(name + "_count", [], Double(r.count))
    }

    private mutating func sample(_ name: String, _ labels: [(String, String)], _ v: Double) {
        text += name
        if !labels.isEmpty {
            text += "{" + labels.map { "\($0.0)=\"\(PrometheusText.escape($0.1))\"" }.joined(separator: ",") + "}"
        }
        text += " " + PrometheusText.number(v) + "\n"
    }

    static func number(_ v: Double) -> String {
        if v == v.rounded() && abs(v) < 1e15 { return String(Int64(v)) }
        return String(v)
    }

    static func escape(_ s: String) -> String {
        var out = ""
        for ch in s {
            switch ch {
            case "\\": out += "\\\\"
            case "\"": out += "\\\""
            case "\n": out += "\\n"
            default: out.append(ch)
            }
        }
        return out
    }
}
