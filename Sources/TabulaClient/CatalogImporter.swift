import TabulaModel
import TabulaProtocol

/// Loads catalog drafts into the server through ordinary `ADD` requests.
public enum CatalogImporter {
    /// Adds every draft (and its subtree) under `parent`; returns the number of nodes added.
    public static func run(_ drafts: [CatalogDraft], into parent: String, connection: TabulaConnection) throws -> Result<Int, TabulaError> {
        var count = 0
        for d in drafts {
            let line = "ADD " + ([parent] + d.addArguments).map(Quoting.quote).joined(separator: " ")
            let reply = try connection.request(line)
            guard reply.isOK else { return .failure(TabulaError(.invalid, "\(line): \(reply.final)")) }
            count += 1
            let path = reply.reply.message
            switch try run(d.children, into: path, connection: connection) {
            case .success(let n): count += n
            case .failure(let e): return .failure(e)
            }
        }
        return .success(count)
    }
}
