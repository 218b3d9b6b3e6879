/// The watched prefixes as a tree of path segments, for the one question a dictionary of
/// prefixes cannot answer cheaply: which watched prefixes lie *under* a path (a removal of
/// `/catalog/a` concerns a watcher of `/catalog/a/b`). Each segment is stored once, so a
/// prefix costs its length; nodes left with nothing under them are pruned.
struct WatchTree {
    private struct Node {
        var parent: Int
        var segment: String
        var children: [PathBytes: Int] = [:]
        var watched = false
    }

    private var nodes = [Node(parent: -1, segment: "")]
    private var free: [Int] = []

    /// Records that `prefix` is watched.
    mutating func insert(_ prefix: String) {
        var at = 0
        for seg in ModelPathSegments(prefix) {
            if let next = nodes[at].children[PathBytes(seg)] {
                at = next
                continue
            }
            let node = Node(parent: at, segment: seg)
            let index: Int
            if let reused = free.popLast() {
                nodes[reused] = node
                index = reused
            } else {
                nodes.append(node)
                index = nodes.count - 1
            }
            nodes[at].children[PathBytes(seg)] = index
            at = index
        }
        nodes[at].watched = true
    }

    /// Records that `prefix` is no longer watched by anyone.
    mutating func remove(_ prefix: String) {
        guard var at = find(prefix) else { return }
        nodes[at].watched = false
        while at != 0, !nodes[at].watched, nodes[at].children.isEmpty {
            let parent = nodes[at].parent
            nodes[parent].children[PathBytes(nodes[at].segment)] = nil
            nodes[at] = Node(parent: -1, segment: "")
            free.append(at)
            at = parent
        }
    }

    /// The watched prefixes strictly under `path`, at most `limit` of them.
    func watched(under path: String, limit: Int = .max) -> [String] {
        guard let start = find(path) else { return [] }
        var out: [String] = []
        var stack: [(Int, String)] = nodes[start].children.map {
            ($0.value, (path == "/" ? "" : path) + "/" + $0.key.text)
        }
        while let (i, p) = stack.popLast(), out.count < limit {
            if nodes[i].watched { out.append(p) }
            for (seg, child) in nodes[i].children { stack.append((child, p + "/" + seg.text)) }
        }
        return out
    }

    private func find(_ path: String) -> Int? {
        var at = 0
        for seg in ModelPathSegments(path) {
            guard let next = nodes[at].children[PathBytes(seg)] else { return nil }
            at = next
        }
        return at
    }
}

/// The segments of an absolute, normalised path (`/a/b` → `a`, `b`; `/` → none).
private struct ModelPathSegments: Sequence {
    let path: String
    init(_ path: String) { self.path = path }
    func makeIterator() -> IndexingIterator<[String]> { path.split(separator: "/").map(String.init).makeIterator() }
}
