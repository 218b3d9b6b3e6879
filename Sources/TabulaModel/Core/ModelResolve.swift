import TabulaProtocol

/// Resolving paths to targets.
extension Model {
    /// Resolves `path` (absolute, or relative to `viewer.cwd`) or says what is missing. What
    /// the viewer may not see does not exist for it: resolving, suggesting and canonical
    /// paths all go through `child(of:named:viewer:)`.
    public func resolve(_ path: String?, viewer: Viewer) -> Result<Target, TabulaError> {
        if let path, let t = resolvePlain(path, viewer: viewer) { return .success(t) }
        return resolveBySegments(path, viewer: viewer)
    }

    /// Any path: `.` and `..` applied, and an error that says what is missing.
    func resolveBySegments(_ path: String?, viewer: Viewer) -> Result<Target, TabulaError> {
        let segs = ModelPath.segments(path, cwd: viewer.cwd)
        var t = Target.root
        for (i, seg) in segs.enumerated() {
            guard let next = child(of: t, named: seg, viewer: viewer) else {
                let here = ModelPath.join(Array(segs[..<i]))
                if !isList(t) {
                    return .failure(
                        TabulaError(
                            .notFound, "\(self.path(of: t)) has nothing under it; SHOW \(self.path(of: t)) to see it"))
                }
                let names = childNames(of: t).map(\.name).filter { child(of: t, named: $0, viewer: viewer) != nil }
                if let s = EditDistance.closest(to: seg, in: names) {
                    return .failure(
                        TabulaError(
                            .notFound,
                            "no \(ModelPath.join(Array(segs[...i]))); did you mean \(ModelPath.join(Array(segs[..<i]) + [s]))?"
                        ))
                }
                return .failure(
                    TabulaError(.notFound, "no \(ModelPath.join(Array(segs[...i]))); LS \(here) lists what is there"))
            }
            t = next
        }
        return .success(t)
    }

    /// The common case, fast: a path of plain names (no `.` or `..`) that exists, walked
    /// without building a list of segments. Nil otherwise; `resolve` then does the rest.
    func resolvePlain(_ path: String, viewer: Viewer) -> Target? {
        var t = Target.root
        if path.utf8.first != UInt8(ascii: "/") && !walkPlain(viewer.cwd, from: &t, viewer: viewer) { return nil }
        return walkPlain(path, from: &t, viewer: viewer) ? t : nil
    }

    /// Moves `t` down `path`'s plain names; false at a `.` name or one that does not exist.
    /// (`t` is a parameter, not a captured variable: a capture would be boxed, each change
    /// to it checked for exclusive access at run time.)
    private func walkPlain(_ path: String, from t: inout Target, viewer: Viewer) -> Bool {
        var p = path
        return p.withUTF8 { u in
            var start = 0
            for i in 0...u.count where i == u.count || u[i] == UInt8(ascii: "/") {
                if start != i {
                    if u[start] == UInt8(ascii: ".") { return false }
                    let name = String(decoding: UnsafeBufferPointer(rebasing: u[start..<i]), as: UTF8.self)
                    guard let next = child(of: t, named: name, viewer: viewer) else { return false }
                    t = next
                }
                start = i + 1
            }
            return true
        }
    }
}

extension Model {
    /// The child of `t` named `name`, if `viewer` may see it (one path check and its list's
    /// `hides`, only for a viewer with grants).
    @inline(__always)
    func child(of t: Target, named name: String, viewer: Viewer) -> Target? {
        guard let next = child(of: t, named: name) else { return nil }
        guard viewer.isRestricted else { return next }
        guard viewer.sees(path(of: next)) else { return nil }
        if case .place(let i, let ref) = next, lists[i].hides(ref, from: viewer) { return nil }
        return next
    }

    /// The absolute path `path` (typed, relative to `cwd`) names, as the model spells it: the
    /// resolved thing's own path (`/ITEMS/cheap-items/7` → `/items/7`), or, past what exists,
    /// the rest of the segments in lower case. Access rules are checked against this; what
    /// `viewer` may not see counts as not existing (so a refusal never tells it exists).
    public func canonicalPath(_ path: String?, viewer: Viewer) -> String {
        // the common case: it exists
        if let path, let t = resolvePlain(path, viewer: viewer) { return self.path(of: t) }
        let segs = ModelPath.segments(path, cwd: viewer.cwd)
        var t = Target.root
        for (i, seg) in segs.enumerated() {
            guard let next = child(of: t, named: seg, viewer: viewer) else {
                let base = self.path(of: t)
                return (base == "/" ? "" : base) + "/" + segs[i...].map { $0.lowercased() }.joined(separator: "/")
            }
            t = next
        }
        return self.path(of: t)
    }
}
