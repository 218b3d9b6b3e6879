import Foundation
import TabulaProtocol

/// `--csv` and `--tsv`: a reply's data rows (the server's JSON objects) as a header line and
/// one record per row, for spreadsheets and `python -m csv`; a row that is not an object is
/// one `value` column. Nested values are written as their JSON.
public enum TableOutput: String, Sendable {
    case csv, tsv

    /// The lines for `rows` (nothing for none).
    public func lines(_ rows: [JSONValue]) -> [String] {
        guard !rows.isEmpty else { return [] }
        var keys: [String] = []
        for r in rows {
            guard case .object(let pairs) = r.resolved else { continue }
            for (k, _) in pairs where !keys.contains(k) { keys.append(k) }
        }
        if keys.isEmpty { keys = ["value"] }
        var out = [keys.map(field).joined(separator: separator)]
        for r in rows {
            let cells: [String]
            if case .object(let pairs) = r.resolved {
                cells = keys.map { k in pairs.first { $0.0 == k }.map { TableOutput.text($0.1) } ?? "" }
            } else {
                cells = [TableOutput.text(r)]
            }
            out.append(cells.map(field).joined(separator: separator))
        }
        return out
    }

    private var separator: String { self == .csv ? "," : "\t" }

    /// One cell, quoted as the format needs (CSV: RFC 4180; TSV: tab and line breaks escaped).
    private func field(_ s: String) -> String {
        switch self {
        case .csv:
            guard s.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else { return s }
            return "\"" + s.replacingOccurrences(of: "\"", with: "\"\"") + "\""
        case .tsv:
            return s.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\t", with: "\\t")
                .replacingOccurrences(of: "\n", with: "\\n").replacingOccurrences(of: "\r", with: "\\r")
        }
    }

    static func text(_ v: JSONValue) -> String {
        switch v.resolved {
        case .null: return ""
        case .bool(let b): return b ? "true" : "false"
        case .int(let n): return String(n)
        case .double(let d): return String(d)
        case .string(let s): return TerminalText.safe(s)
        default: return TerminalText.safe(v.jsonText)
        }
    }
}
