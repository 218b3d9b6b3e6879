import Synchronization
import TabulaProtocol

/// Counters shared by the I/O loops and the engine; those every request touches are kept
/// per loop (`LoopCounts`) and summed here.
final class ServerStats: Sendable {
    let connections = Atomic<Int>(0)
    let totalConnections = Atomic<Int>(0)
    let rejectedConnections = Atomic<Int>(0)
    let slowConsumersDropped = Atomic<Int>(0)
    let eventsDelivered = Atomic<Int>(0)
    /// Replay steps taken, and the most any loop took in one turn (its budget bounds it).
    let replaySteps = Atomic<Int>(0)
    let replayStepsMostInATurn = Atomic<Int>(0)
    /// Bytes of incomplete request lines held, all connections together.
    let partialInput = Atomic<Int>(0)
    /// Bytes queued for clients and not yet written (replies, events, a replay's deferred
    /// events), all connections together: held under `ServerConfig.maxUnreadOutput`.
    let unreadOutput = Atomic<Int>(0)
    /// The most `unreadOutput` was seen at when a loop checked it against the bound (after
    /// each request's replies and each drain of events): what the bound held at its worst.
    let unreadOutputPeak = Atomic<Int>(0)
    /// Units routed (`Dispatcher.route`), counted in debug builds only: a test compares it
    /// with the requests sent, each decided once.
    let routesDecided = Atomic<Int>(0)
    /// Connections closed for making no progress, or for being idle.
    let timedOut = Atomic<Int>(0)
    /// Logins checked against their slow hash, and those that failed.
    let loginsHashed = Atomic<Int>(0)
    let loginsFailed = Atomic<Int>(0)
    /// Logins waiting for a hasher now, and those dropped unhashed (their connection had gone).
    let loginsWaiting = Atomic<Int>(0)
    let loginsDropped = Atomic<Int>(0)
    /// Connections open per client address.
    let addresses = AddressBook()
    let started = ContinuousClock.now
    /// Open connections per transport (indexed like `Listening.Kind.allCases`).
    let byTransport = Listening.Kind.allCases.map { _ in Counter() }
    /// Each loop's request counts (`LoopCounts`), indexed like the loops, and the engine's.
    let perLoop: [LoopCounts]
    let engineCounts = LoopCounts()
    /// Error replies per code.
    let byError = ErrorCode.allCases.map { _ in Counter() }
    /// Store commits: how long each took, and how many changes each made durable (group commit).
    let commitSeconds = Histogram.seconds()
    let commitChanges = Histogram.sizes()
    /// A cluster node's waits for the head row's lock, one per write turn.
    let headLockSeconds = Histogram.seconds()
    /// HTTP requests answered.
    let httpRequests = Counter()

    /// Counters for a server of `loops` I/O loops.
    init(loops: Int = 1) { perLoop = (0..<max(1, loops)).map { _ in LoopCounts() } }

    func add(_ a: borrowing Atomic<Int>, _ n: Int) { a.wrappingAdd(n, ordering: .relaxed) }

    /// Counts a connection of `kind` opened (see `closedConnection`).
    func openedConnection(_ kind: Listening.Kind) { byTransport[kind.index].add(1) }
    func closedConnection(_ kind: Listening.Kind) { byTransport[kind.index].add(-1) }

    /// Requests run, all verbs, all threads (the loops' and the engine's).
    var requests: Int { perLoop.reduce(engineCounts.requests) { $0 + $1.requests } }

    /// Requests of `verb` run, all threads.
    func requests(_ verb: Verb) -> Int { perLoop.reduce(engineCounts.requests(verb)) { $0 + $1.requests(verb) } }

    /// Bytes read from and written to clients, all loops.
    var bytesIn: Int { perLoop.reduce(0) { $0 + $1.bytesIn } }
    var bytesOut: Int { perLoop.reduce(0) { $0 + $1.bytesOut } }

    /// The counts loop `index` writes: its own, which no other thread writes.
    func counts(loop index: Int) -> LoopCounts {
        precondition(index < perLoop.count, "loop \(index) of \(perLoop.count): counts are made for every loop")
        return perLoop[index]
    }

    /// Counts an error reply.
    func failed(_ code: ErrorCode) { byError[code.index].add() }
}

extension Listening.Kind {
    var index: Int {
        switch self {
        case .tcp: return 0
        case .tls: return 1
        case .unix: return 2
        case .http: return 3
        case .resp: return 4
        case .https: return 5
        }
    }
}

extension ErrorCode {
    /// Its place in `allCases`.
    var index: Int { ErrorCode.indices[self] ?? 0 }
    private static let indices = Dictionary(uniqueKeysWithValues: allCases.enumerated().map { ($1, $0) })
}

extension ServerStats {
    /// Raises the high-water mark `most` to `value` if it is higher, whichever thread gets
    /// there first.
    static func raise(_ most: borrowing Atomic<Int>, to value: Int) {
        var seen = most.load(ordering: .relaxed)
        while value > seen {
            let (done, now) = most.compareExchange(expected: seen, desired: value, ordering: .relaxed)
            if done { return }
            seen = now
        }
    }
}
