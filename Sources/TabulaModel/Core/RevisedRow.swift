import TabulaProtocol

/// A listed row's JSON with the revision of its entry's last change (`"rev"`), for a viewer
/// that reads JSON (`Viewer.wantsRevisions`): built only when written, from the revisions as
/// of the read (a copy: the lock is not held then).
struct RevisedRow: JSONRepresentable {
    let base: JSONValue
    let path: RowPath
    let changes: ChangeRevisions

    var json: JSONValue {
        guard case .object(var pairs) = base.resolved else { return base }
        pairs.append(("rev", .int(Int64(clamping: changes.revision(of: path.string)))))
        return .object(pairs)
    }
}

extension Model {
    /// Gives each row that names an entry its `rev`, when the viewer reads JSON.
    func addRevisions(_ reply: inout Reply, viewer: Viewer) {
        guard viewer.wantsRevisions else { return }
        for i in reply.rows.indices {
            guard let p = reply.rows[i].path else { continue }
            reply.rows[i].json = .deferred(RevisedRow(base: reply.rows[i].json, path: p, changes: changes))
        }
    }
}
