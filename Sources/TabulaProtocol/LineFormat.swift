/// The line protocol's two forms, which a client chooses with `FORMAT`: lines for people
/// and `nc` (the default), or one JSON object per line. `WireEncoder` writes them and
/// `WireDecoder` reads them.
public enum LineFormat: String, Sendable, Hashable, CaseIterable {
    case text
    case json
}
