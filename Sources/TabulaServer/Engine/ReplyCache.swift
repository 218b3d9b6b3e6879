import TabulaModel
import TabulaProtocol

/// Encoded replies to cacheable requests (the Verb table says which), per I/O loop (no
/// lock), each valid for the one revision it was computed at. A reply is a function of the
/// request, who asks, the connection's view (path, filter, format) and the state, and the
/// state only changes with the revision, so a hit at the current revision is exactly what
/// running the request would give. Any change anywhere moves the revision on and so retires
/// every entry. An entry is made only for a request `Dispatcher.refusal` let through, and its
/// key holds everything that check depends on besides the revision (the command, the user
/// and the load of the users file, the current path), so a hit may skip the check; one
/// user's answer is never handed to another.
struct ReplyCache {
    struct Key: Hashable, Sendable {
        /// The request line's hash (`Request.lineHash`; 0 for one not parsed from a line).
        let line: UInt64
        let command: Command
        /// Who asks: the user's name and the load of the users file it came from (which
        /// fixes its role and grants). Nil and 0 without access control.
        let user: String?
        let generation: Int
        let cwd: String
        let favoritesOnly: Bool
        let format: WireFormat

        /// Equal keys have equal lines (the line is part of the key), so a key may be hashed
        /// by its line, current path and user folded into one number, which costs a fraction
        /// of hashing the command. Keys whose lines collide are still told apart by `==`; at
        /// most `capacity` entries can share a hash.
        func hash(into hasher: inout Hasher) {
            guard line != 0 else {
                hasher.combine(command)
                hasher.combine(user)
                hasher.combine(cwd)
                return hasher.combine(format.ordinal)
            }
            var h = LineHash.fold(line, cwd.utf8)
            if let user { h = LineHash.fold(h ^ 0xFF, user.utf8) }
            hasher.combine(h)
            hasher.combine(generation &* 4 + (favoritesOnly ? 2 : 0))
            hasher.combine(format.ordinal)
        }
    }

    private var entries: [Key: (revision: UInt64, bytes: [UInt8])] = [:]
    private let capacity: Int
    /// Bytes the entries may hold together: without it, 1,024 distinct pages of 10 MB (`LS
    /// /items LIMIT 10000 AFTER k`) were 10 GB per loop. A reply over a quarter of it is not
    /// kept.
    private let byteCapacity: Int
    private(set) var bytes = 0

    init(capacity: Int = 1024, byteCapacity: Int = 64 << 20) {
        self.capacity = capacity
        self.byteCapacity = byteCapacity
    }

    static func key(_ r: Request, _ session: Session) -> Key {
        Key(
            line: r.lineHash, command: r.command, user: session.user?.name, generation: session.user?.generation ?? 0,
            cwd: session.viewer.cwd, favoritesOnly: session.viewer.filter == .favorites, format: session.format)
    }

    /// The cached reply for `key` if it was computed at `revision`.
    func lookup(_ key: Key, revision: UInt64) -> [UInt8]? {
        guard let e = entries[key], e.revision == revision else { return nil }
        return e.bytes
    }

    mutating func store(_ key: Key, revision: UInt64, bytes reply: [UInt8]) {
        guard reply.count <= byteCapacity / 4 else { return }
        if entries.count >= capacity || bytes + reply.count > byteCapacity {
            entries.removeAll(keepingCapacity: true)
            bytes = 0
        }
        bytes += reply.count - (entries.updateValue((revision, reply), forKey: key)?.bytes.count ?? 0)
    }
}
