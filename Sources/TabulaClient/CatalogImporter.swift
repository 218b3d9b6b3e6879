import TabulaModel
import TabulaProtocol

/// Loads catalog drafts into the server through ordinary `ADD` requests. Siblings never
/// share a title, so a draft whose title is taken under its parent is not added again: a
/// branch is merged (its children are imported into the node already there), a leaf is
/// skipped. Importing the same file twice therefore adds nothing the second time.
public enum CatalogImporter {
    /// What an import did.
    public struct Report: Sendable, Equatable {
        /// Nodes added.
        public var added = 0
        /// Nodes already there, by path: branches merged into, leaves skipped.
        public var existing: [String] = []

        /// `imported 4 nodes from F into /catalog`, and what was there already.
        public func summary(from file: String, into parent: String) -> String {
            var s = "imported \(added) \(added == 1 ? "node" : "nodes") from \(file) into \(parent)"
            if !existing.isEmpty {
                let shown = existing.prefix(5).joined(separator: ", ")
                s += "; \(existing.count) already there, kept as they are: \(shown)\(existing.count > 5 ? ", …" : "")"
            }
            return s
        }
    }

    /// Adds every draft (and its subtree) under `parent`.
    public static func run(_ drafts: [CatalogDraft], into parent: String, connection: TabulaConnection) throws
        -> Result<Report, TabulaError>
    {
        var report = Report()
        if let e = try add(drafts, into: parent, connection: connection, report: &report) { return .failure(e) }
        return .success(report)
    }

    private static func add(
        _ drafts: [CatalogDraft], into parent: String, connection: TabulaConnection, report: inout Report
    ) throws -> TabulaError? {
        for d in drafts {
            let line = "ADD " + ([parent] + d.addArguments).map(Quoting.quote).joined(separator: " ")
            let reply = try connection.request(line)
            let path: String
            if reply.isOK {
                report.added += 1
                path = reply.reply.message
            } else if let e = reply.reply.error, e.code == .exists, let there = e.message.split(separator: " ").first,
                there.hasPrefix("/")
            {
                report.existing.append(String(there))  // "PATH exists already, titled …"
                path = String(there)
            } else {
                return TabulaError(.invalid, "\(line): \(reply.final)")
            }
            if let e = try add(d.children, into: path, connection: connection, report: &report) { return e }
        }
        return nil
    }
}
