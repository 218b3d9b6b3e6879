import CLinuxShims
import Synchronization

/// A client's address as 16 bytes (IPv4 mapped into IPv6), for counting connections per
/// address.
struct PeerAddress: Hashable, Sendable, CustomStringConvertible {
    let hi: UInt64
    let lo: UInt64

    /// A loopback address (127.0.0.0/8, ::1), or none at all (a Unix socket's peer).
    var isOnThisMachine: Bool {
        hi == 0 && (lo == 0 || lo == 1 || (lo >> 32 == 0xFFFF && (lo >> 24) & 0xFF == 127))
    }

    /// What the per-address bounds count by: an IPv4 address (mapped) as it is, and an IPv6
    /// address by its /64 network, the block one host or one customer is given, so that a
    /// host with 2^64 addresses counts once (connections per address, login fairness).
    var network: PeerAddress {
        let mappedV4 = hi == 0 && lo >> 32 == 0xFFFF
        return mappedV4 || isOnThisMachine ? self : PeerAddress(hi: hi, lo: 0)
    }

    var description: String {
        var buf = [CChar](repeating: 0, count: 64)
        tabula_format_peer(hi, lo, &buf, Int32(buf.count))
        return String(decoding: buf.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}

/// How many connections each address has open (every loop closes its own; loop 0 accepts).
final class AddressBook: Sendable {
    private let counts = Locked<[PeerAddress: Int]>([:])

    /// Connections an address may hold and still take one of the slots kept for others
    /// (see `admit`).
    static let smallHolder = 16

    /// Why an address may not connect.
    enum Refusal { case limit, reserved }

    /// Counts one more connection from `a` unless it has `limit` already (0: no limit), or
    /// the server is nearly full (`nearlyFull`) and `a` holds `smallHolder` or more: the last
    /// slots are kept for addresses that hold few, so that a few addresses cannot take them
    /// all. Nil when it may connect.
    func admit(_ peer: PeerAddress, limit: Int, nearlyFull: Bool) -> Refusal? {
        let a = peer.network
        return counts.withLock { c in
            let n = c[a, default: 0]
            if limit > 0 && n >= limit { return .limit }
            if nearlyFull && n >= AddressBook.smallHolder { return .reserved }
            c[a] = n + 1
            return nil
        }
    }

    /// Counts a connection from `a` closed.
    func release(_ peer: PeerAddress) {
        let a = peer.network
        counts.withLock { c in
            guard let n = c[a] else { return }
            c[a] = n > 1 ? n - 1 : nil
        }
    }
}
