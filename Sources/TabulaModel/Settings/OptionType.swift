import TabulaProtocol

/// The type of a setting's options; each formats its values in its own way.
public enum OptionType: String, Sendable, CaseIterable {
    case text, int, decimal, bool

    /// Parses a typed value into its canonical form, or says why it does not fit.
    public func canonical(_ raw: String) -> Result<String, TabulaError> {
        switch self {
        case .text:
            return Title.isBlank(raw)
                ? .failure(TabulaError(.invalid, "a text option cannot be empty or blank")) : .success(raw)
        case .int:
            guard let v = Int64(raw.hasPrefix("+") ? String(raw.dropFirst()) : raw) else {
                return .failure(
                    TabulaError(.invalid, "'\(raw)' is not a whole number; int options take values like 16 or -3"))
            }
            return .success(String(v))
        case .decimal:
            guard let v = Double(raw), v.isFinite else {
                return .failure(
                    TabulaError(.invalid, "'\(raw)' is not a decimal number; decimal options take values like 1.5"))
            }
            return .success(OptionType.formatDecimal(v))
        case .bool:
            switch raw.lowercased() {
            case "on", "true", "yes", "1": return .success("on")
            case "off", "false", "no", "0": return .success("off")
            default: return .failure(TabulaError(.invalid, "'\(raw)' is not on or off"))
            }
        }
    }

    /// The JSON form of a canonical value.
    public func json(_ canonical: String) -> JSONValue {
        switch self {
        case .text: return .string(canonical)
        case .int: return Int64(canonical).map { .int($0) } ?? .string(canonical)
        case .decimal: return Double(canonical).map { .double($0) } ?? .string(canonical)
        case .bool: return .bool(canonical == "on")
        }
    }

    static func formatDecimal(_ v: Double) -> String {
        if v == v.rounded(), abs(v) < 1e15 { return String(Int64(v)) + ".0" }
        return String(v)
    }
}
