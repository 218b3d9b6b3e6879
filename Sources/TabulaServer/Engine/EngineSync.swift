import Foundation
import Glibc
import TabulaProtocol

/// A group that starts with `SYNC rev` waiting for the node to apply `rev`.
struct ParkedSync {
    let input: EngineInput
    let conn: ConnectionID
    let rev: UInt64
    let deadline: Double
}

/// `SYNC rev [TIMEOUT ms]`: a connection's requests wait on the engine until the node has
/// published revision `rev` (its own write, or one another node made and this one followed),
/// or the timeout passes. A waiting group costs one entry here; the connection's later
/// requests wait behind it at its loop, as behind any request on the engine.
extension Engine {
    /// The longest the engine sleeps while a SYNC waits (a server without a shared store
    /// publishes the loops' writes without waking the engine).
    static let parkedPoll: Int32 = 20

    private static func syncTarget(_ unit: RoutedUnit) -> (rev: UInt64, timeout: Int)? {
        guard case .request(let r) = unit.unit, case .sync(let rev, let timeout) = r.command else { return nil }
        return (rev, timeout)
    }

    /// Whether `unit` is a SYNC that would wait now.
    func mustWait(_ unit: RoutedUnit) -> Bool {
        guard let t = Engine.syncTarget(unit) else { return false }
        return t.rev > state.publishedRevision.load(ordering: .acquiring)
    }

    /// The group parked, when it starts with a SYNC that must wait (and has time to).
    func parkIfWaiting(_ input: EngineInput) -> ParkedSync? {
        guard let p = Engine.waitingSync(input, state: state), !syncExpired.contains(p.conn) else {
            return nil
        }  // expired: ERR TIMEOUT now
        return p
    }

    /// The group as it would wait, when it starts with a SYNC to a revision not yet published,
    /// with time to wait, that the connection may send: one it may not (no login, no read
    /// role, RESP subscribe mode) is refused when it runs, never answered with the revision.
    static func waitingSync(_ input: EngineInput, state: SharedState) -> ParkedSync? {
        guard case .group(let c, let units, let session) = input, case .request(let r)? = units.first?.unit,
            case .sync(let rev, let timeout) = r.command,
            timeout > 0, rev > state.publishedRevision.load(ordering: .acquiring),
            // A SYNC names no path: its refusal reads the session, never the model (no lease).
            Dispatcher.refusal(r, session: session, lease: nil) == nil
        else { return nil }
        return ParkedSync(input: input, conn: c, rev: rev, deadline: SyncClock.seconds() + Double(timeout) / 1000)
    }

    /// The reply of a SYNC that is due: OK once the node has the revision, else the timeout.
    func syncReply(_ c: ConnectionID, rev: UInt64) -> Reply {
        syncExpired.remove(c)
        return Engine.syncReply(applied: state.publishedRevision.load(ordering: .acquiring), asked: rev)
    }

    /// OK once the node has applied `rev`, else the timeout: what every SYNC is answered.
    static func syncReply(applied now: UInt64, asked rev: UInt64) -> Reply {
        guard now >= rev else {
            return Reply(
                error: TabulaError(
                    .timeout,
                    "this node has applied revision \(now), not yet \(rev); it may be cut off from the store (STATS shows its lag): try again, or read from the node that made the change"
                ))
        }
        var r = Reply(message: "synced")
        r.rev = now
        return r
    }

    /// Moves parked groups whose revision has come, or whose time is up, to the next turn
    /// (the deadline thread answers those whose time is up while the engine is busy).
    func releaseParked() {
        guard !parked.isEmpty else { return }
        let now = SyncClock.seconds()
        let applied = state.publishedRevision.load(ordering: .acquiring)
        let stopping = state.stopping.load(ordering: .acquiring)
        for p in parked.take(where: { $0.rev <= applied || now >= $0.deadline || stopping }) {
            if p.rev > applied { syncExpired.insert(p.conn) }
            carried.append(p.input)
        }
    }

    /// How long the engine may sleep: forever, or briefly while a SYNC waits.
    func parkedWait() -> Int32 {
        guard let next = parked.nextDeadline else { return -1 }
        return max(1, min(Engine.parkedPoll, Int32((next - SyncClock.seconds()) * 1000) + 1))
    }

    /// At shutdown every waiting SYNC is answered as timed out.
    func answerParkedAtShutdown() {
        parked.stop()
        let waiting = parked.takeAll()
        guard !waiting.isEmpty else { return }
        for p in waiting { syncExpired.insert(p.conn) }
        let batch = waiting.map(\.input)
        let answers = state.writing { rerun(batch, $0, failing: nil) }
        state.writing { _ in deliver(answers) }
    }
}

/// The clock a SYNC's deadline is on: monotonic, so a wall clock stepped back (NTP, an
/// operator) neither stretches a wait nor cuts it short.
enum SyncClock {
    static func seconds() -> Double { Double(Histogram.now()) / 1e9 }
}
