/// The per-connection wire format.
public enum WireFormat: String, Sendable, Hashable {
    case text, json
}
