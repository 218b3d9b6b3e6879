import Foundation
import TabulaProtocol

/// The groups waiting in a `SYNC`, shared by the engine (which parks them and releases those
/// whose revision came) and a thread of their own that keeps their deadlines: a SYNC whose
/// time is up is answered `ERR TIMEOUT` at its deadline even while the engine waits on the
/// store (a commit to a PostgreSQL that hangs takes up to its statement timeout). Whichever
/// takes an entry first answers it; the other no longer finds it.
final class SyncWaits: @unchecked Sendable {
    /// A pthread condition (which the thread sanitizer sees) guarding the fields below.
    private let condition = NSCondition()
    private var parked: [ParkedSync] = []
    private var stopped = false

    var isEmpty: Bool { locked { parked.isEmpty } }
    /// The earliest deadline, if any waits.
    var nextDeadline: Double? { locked { parked.map(\.deadline).min() } }

    private func locked<R>(_ body: () -> R) -> R {
        condition.lock()
        defer { condition.unlock() }
        return body()
    }

    func park(_ p: ParkedSync) {
        locked {
            parked.append(p)
            condition.signal()
        }
    }

    /// Takes the entries `release` says are done with.
    func take(where release: (ParkedSync) -> Bool) -> [ParkedSync] {
        locked {
            let out = parked.filter(release)
            if !out.isEmpty { parked.removeAll(where: release) }
            return out
        }
    }

    /// Takes everything (at shutdown).
    func takeAll() -> [ParkedSync] { take { _ in true } }

    func stop() {
        locked {
            stopped = true
            condition.signal()
        }
    }

    /// Wakes the deadline thread to look at the revision (the engine, after a turn).
    func poke() { locked { condition.signal() } }

    /// The deadline thread's body: sleeps until the earliest deadline, a new entry or a poke
    /// (at most `pollSeconds`, for revisions the loops publish), then answers with `answer`
    /// every entry whose revision `published` reached or whose time is up, until `stop`.
    func keepDeadlines(published: () -> UInt64, _ answer: ([ParkedSync]) -> Void) {
        while true {
            condition.lock()
            if stopped {
                condition.unlock()
                return
            }
            if let next = parked.map(\.deadline).min() {
                let left = min(next - SyncClock.seconds(), SyncWaits.pollSeconds)
                if left > 0 { _ = condition.wait(until: Date(timeIntervalSinceNow: left)) }
            } else {
                condition.wait()
            }
            let now = SyncClock.seconds(), applied = published()
            let due = parked.filter { $0.deadline <= now || $0.rev <= applied }
            parked.removeAll { $0.deadline <= now || $0.rev <= applied }
            condition.unlock()
            if !due.isEmpty { answer(due) }
        }
    }

    /// The longest the deadline thread sleeps while a SYNC waits.
    static let pollSeconds = 0.02
}

extension EngineHandle {
    /// Queues inputs for the engine (any thread); wakes it if it sleeps. A group that starts
    /// with a SYNC to a revision not yet published waits here instead, answered by the
    /// deadline thread when the revision comes or its time is up (even while the engine is
    /// held by the store).
    func submit(_ inputs: [EngineInput]) {
        var rest: [EngineInput] = []
        rest.reserveCapacity(inputs.count)
        for input in inputs {
            // No lock: a SYNC names no path, so its refusal reads the session, not the model.
            if let p = Engine.waitingSync(input, state: state) {
                syncWaits.park(p)
            } else {
                rest.append(input)
            }
        }
        inbox.post(rest)
    }

    /// What a waiting SYNC is answered without the engine: `OK synced` once its revision is
    /// published, else `ERR TIMEOUT`; its group's
    /// other requests handed back to its loop, behind whatever was published before it.
    func answerWaiting(_ due: [ParkedSync]) {
        let now = state.publishedRevision.load(ordering: .acquiring)
        var outbox = Array(repeating: [LoopMessage](), count: state.loops.count)
        for p in due {
            guard case .group(let c, let units, let session) = p.input, case .request(let r) = units[0].unit else {
                continue
            }
            let reply = Engine.syncReply(applied: now, asked: p.rev)
            let answer = GroupAnswer(
                conn: c, answers: [.reply(reply, tag: r.tag, format: session.format)], session: nil, close: false,
                replay: nil, rest: Array(units.dropFirst()))
            outbox[c.loop].append(.answer(answer))
        }
        state.writing { _ in state.postAfterRelease(outbox) }
    }
}
