import TabulaProtocol

/// Resolving paths to targets.
extension Model {
    /// Resolves `path` (absolute, or relative to `viewer.cwd`) or says what is missing.
    public func resolve(_ path: String?, viewer: Viewer) -> Result<Target, TabulaError> {
        if let path, let t = resolvePlain(path, cwd: viewer.cwd) { return .success(t) }
        return resolveBySegments(path, viewer: viewer)
    }

    /// Any path: `.` and `..` applied, and an error that says what is missing.
    func resolveBySegments(_ path: String?, viewer: Viewer) -> Result<Target, TabulaError> {
        let segs = ModelPath.segments(path, cwd: viewer.cwd)
        var t = Target.root
        for (i, seg) in segs.enumerated() {
            guard let next = child(of: t, named: seg) else {
                let here = ModelPath.join(Array(segs[..<i]))
                if !isList(t) {
                    return .failure(TabulaError(.notFound, "\(self.path(of: t)) has nothing under it; SHOW \(self.path(of: t)) to see it"))
                }
                let names = childNames(of: t).map(\.name)
                if let s = EditDistance.closest(to: seg, in: names) {
                    return .failure(TabulaError(.notFound, "no \(ModelPath.join(Array(segs[...i]))); did you mean \(ModelPath.join(Array(segs[..<i]) + [s]))?"))
                }
                return .failure(TabulaError(.notFound, "no \(ModelPath.join(Array(segs[...i]))); LS \(here) lists what is there"))
            }
            t = next
        }
        return .success(t)
    }

    /// The common case, fast: a path of plain names (no `.` or `..`) that exists, walked
    /// without building a list of segments. Nil otherwise; `resolve` then does the rest.
    func resolvePlain(_ path: String, cwd: String) -> Target? {
        var t = Target.root
        func walk(_ path: String) -> Bool {
            var p = path
            return p.withUTF8 { u in
                var start = 0
                for i in 0...u.count where i == u.count || u[i] == UInt8(ascii: "/") {
                    if start != i {
                        if u[start] == UInt8(ascii: ".") { return false }
                        let name = String(decoding: UnsafeBufferPointer(rebasing: u[start..<i]), as: UTF8.self)
                        guard let next = child(of: t, named: name) else { return false }
                        t = next
                    }
                    start = i + 1
                }
                return true
            }
        }
        if path.utf8.first != UInt8(ascii: "/") && !walk(cwd) { return nil }
        return walk(path) ? t : nil
    }
}

extension Model {
    /// The absolute path `path` (typed, relative to `cwd`) names, as the model spells it: the
    /// resolved thing's own path (`/ITEMS/cheap-items/7` → `/items/7`), or, past what exists,
    /// the rest of the segments in lower case. Access rules are checked against this.
    public func canonicalPath(_ path: String?, cwd: String) -> String {
        if let path, let t = resolvePlain(path, cwd: cwd) { return self.path(of: t) }  // the common case: it exists
        let segs = ModelPath.segments(path, cwd: cwd)
        var t = Target.root
        for (i, seg) in segs.enumerated() {
            guard let next = child(of: t, named: seg) else {
                let base = self.path(of: t)
                return (base == "/" ? "" : base) + "/" + segs[i...].map { $0.lowercased() }.joined(separator: "/")
            }
            t = next
        }
        return self.path(of: t)
    }
}
