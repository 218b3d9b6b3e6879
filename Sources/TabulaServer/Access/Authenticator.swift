import CLinuxShims
import Dispatch
import Foundation
import Glibc
import Synchronization
import TabulaAccess
import TabulaModel
import TabulaProtocol

/// Checks `AUTH` secrets off the I/O loops, so that nobody can starve a login:
///
/// - a login the per-start cache knows (`VerifiedSecrets`) is answered at once, on the loop,
///   without queueing (microseconds);
/// - every other login waits in a `LoginScheduler` (per address, bounded) and is hashed on
///   a pool of `hashers` threads (as many as cores, at least 2), quiet addresses first;
///   a login whose connection has gone is dropped unhashed;
/// - a failure's answer waits out its back-off on the timer thread (`run`), holding up no
///   hasher; the connection's later requests wait on its loop meanwhile (a connection has
///   one AUTH in flight at a time).
final class Authenticator: Sendable {  // every shared field is a Locked, an Atomic or immutable
    /// A login waiting for its hash.
    struct Job: Sendable {
        let conn: ConnectionID
        let units: [RoutedUnit]
        let session: Session
        let life: ConnectionLife
        let name: String
        let secret: String
        let tag: String?
        /// A codec's login (`LineUnit.codecLogin`): on success its answer and format, not AUTH's OK.
        var codecAnswer: (answer: [UInt8], format: WireFormat)? = nil
    }

    /// An answer that may go out at `at` (a failure's back-off), or a stop.
    enum Timed: Sendable {
        case answer(at: ContinuousClock.Instant, GroupAnswer)
        case shutdown
    }

    private let timerInbox = WakeableInbox<Timed>()
    /// Nil without `--users`: AUTH is then refused as needless.
    let users: UsersDirectory?
    let state: SharedState
    private let log: Log
    private let stats: ServerStats
    private let queue = Locked(LoginScheduler<PeerAddress, Job>())

    /// Runs `body` on the scheduler, under its lock, and publishes its counts to STATS.
    private func scheduling<T>(_ body: (inout LoginScheduler<PeerAddress, Job>) -> T) -> T {
        queue.withLock { q in
            let r = body(&q)
            stats.loginsWaiting.store(q.pendingCount, ordering: .relaxed)
            stats.loginsDropped.store(q.dropped, ordering: .relaxed)
            return r
        }
    }
    private let work = DispatchSemaphore(value: 0)
    private let verified = Locked(VerifiedSecrets())
    private let stopping = Atomic<Bool>(false)
    private let timerDone = Atomic<Bool>(false)
    private let hashersDone = Atomic<Int>(0)
    let hashers: Int
    private let start = ContinuousClock.now

    /// Set once every thread has returned.
    var finished: Bool { timerDone.load(ordering: .acquiring) && hashersDone.load(ordering: .acquiring) == hashers }

    init(
        users: UsersDirectory?, state: SharedState, stats: ServerStats, log: Log,
        hashers: Int = max(2, ProcessInfo.processInfo.activeProcessorCount)
    ) {
        self.users = users
        self.state = state
        self.stats = stats
        self.log = log
        self.hashers = hashers
    }

    /// Starts the timer thread and the hashers.
    func startThreads() {
        let t = Thread { self.run() }
        t.name = "tabulad-auth"
        t.start()
        for k in 0..<hashers {
            let h = Thread { self.hash() }
            h.name = "tabulad-hash-\(k)"
            h.start()
        }
    }

    /// Stops: waiting logins are refused unhashed, delayed answers go out at once.
    func stop() {
        stopping.store(true, ordering: .releasing)
        let left = scheduling { $0.drain() }
        for j in left { post(answer(j, Reply(error: TabulaError(.invalid, "server shutting down")), session: nil)) }
        for _ in 0..<hashers { work.signal() }
        timerInbox.post([.shutdown])
    }

    /// Takes a group that starts with AUTH (loop thread): answered at once when no hash is
    /// needed, else queued for a hasher.
    func submit(_ c: ConnectionID, _ units: [RoutedUnit], session: Session, peer: PeerAddress, life: ConnectionLife) {
        let job: Job
        switch units.first?.unit {
        case .request(let r)? where r.command.verb == .auth:
            guard case .auth(let name, let secret) = r.command else {
                preconditionFailure("AUTH's verb without its command")
            }
            job = Job(conn: c, units: units, session: session, life: life, name: name, secret: secret, tag: r.tag)
        case .codecLogin(let name, let secret, let answer, let format)?:
            job = Job(
                conn: c, units: units, session: session, life: life, name: name, secret: secret, tag: nil,
                codecAnswer: (answer, format))
        default:
            // Not a login (the loop sends only what `Dispatcher` routes here): refused, and the
            // rest goes back, so that the connection never waits for an answer none will give.
            let misrouted = Job(conn: c, units: units, session: session, life: life, name: "", secret: "", tag: nil)
            post(
                answer(
                    misrouted,
                    Reply(
                        error: TabulaError(
                            .invalid, "only a login (AUTH, or HELLO with AUTH) is answered by the authenticator")),
                    session: nil))
            return
        }
        guard let users else {
            post(
                answer(
                    job,
                    Reply(
                        error: TabulaError(
                            .invalid,
                            "this server has no users file: every connection may do everything, no AUTH needed")),
                    session: nil))
            return
        }
        if let (e, generation) = users.entry(job.name),
            verified.withLock({ $0.knows(job.name, job.secret, generation: generation) })
        {
            post(succeeded(job, e, generation: generation))
            return
        }
        let queued = scheduling { $0.enqueue(job, name: job.name, from: peer.network) { $0.life.isOpen } }
        guard queued else {
            let max = LoginScheduler<PeerAddress, Job>.maxPendingPerAddress
            post(
                answer(
                    job,
                    Reply(
                        error: TabulaError(
                            .limit,
                            "\(max) logins from \(peer) are waiting already; wait for their answers before sending more"
                        )), session: nil))
            return
        }
        work.signal()
    }

    /// A hasher's body: hashes the scheduler's next login until stopped.
    private func hash() {
        defer { hashersDone.add(1, ordering: .releasing) }
        while true {
            // A login held back by its name's pace (`LoginScheduler.namePace`) is due at a
            // time, not at a signal: wait until then at most.
            if let due = scheduling({ $0.pacedUntil(at: seconds()) }) {
                _ = work.wait(timeout: .now() + max(0.005, due - seconds()))
            } else {
                work.wait()
            }
            if stopping.load(ordering: .acquiring) { return }
            while let (job, name, address) = scheduling({ $0.next(at: seconds(), isLive: { $0.life.isOpen }) }) {
                let (reply, session, failed) = verdict(job)
                let delay = scheduling { $0.finish(name: name, from: address, failed: failed, at: seconds()) }
                work.signal()  // another login of that address may be hashed now
                let a = answer(job, reply, session: session)
                if delay == 0 || stopping.load(ordering: .acquiring) {
                    post(a)
                } else {
                    timerInbox.post([.answer(at: .now + .milliseconds(Int(delay * 1000)), a)])
                }
                if stopping.load(ordering: .acquiring) { return }
            }
        }
    }

    /// The slow check of one login: the reply and the session after it (nil: unchanged).
    private func verdict(_ job: Job) -> (Reply, Session?, failed: Bool) {
        guard let users else { return (Reply(error: TabulaError(.invalid, "no users")), nil, true) }
        let (found, hash, generation) = users.check(job.name)
        let ok = hash.verify(job.secret) && found != nil
        stats.add(stats.loginsHashed, 1)
        if !ok { stats.add(stats.loginsFailed, 1) }
        if ok, let e = found {
            verified.withLock { $0.remember(job.name, job.secret, generation: generation) }
            let (reply, session) = login(job, e, generation: generation)
            return (reply, session, false)
        }
        log.log(.warn, "connection \(job.conn.raw): AUTH as \(job.name.prefix(64)) failed")
        return (Reply(error: TabulaError(.wrongPass, "wrong name or secret")), nil, true)
    }

    /// The answer to a login of `e` known to be right.
    private func succeeded(_ job: Job, _ e: UserEntry, generation: Int) -> GroupAnswer {
        let (reply, session) = login(job, e, generation: generation)
        return answer(job, reply, session: session)
    }

    /// The reply to a login of `e` known to be right, and the job's session acting as `e`
    /// from now on (its watches rendered in e's view). Refused, the session unchanged, while
    /// the connection watches and e's grants would render its events in another view than
    /// the one its copies were made in.
    private func login(_ job: Job, _ e: UserEntry, generation: Int) -> (Reply, Session?) {
        var s = job.session
        s.become(AuthUser(name: e.name, role: e.role, grants: e.grants, generation: generation, credential: e.hash))
        let view = WatcherView(s.viewer)
        let taken = state.hub.withLock { hub in
            let now = hub.view(of: job.conn) ?? WatcherView(grants: nil, favoritesOnly: view.favoritesOnly)
            guard !hub.watches(job.conn) || now == view else { return false }
            hub.setView(job.conn, view)
            return true
        }
        guard taken else {
            return (
                Reply(
                    error: TabulaError(
                        .conflict,
                        "this connection watches, and as \(e.name) its events would count in other grants than its copies do; UNWATCH first, or log in on another connection"
                    )), nil
            )
        }
        log.log(.info, "connection \(job.conn.raw) authenticated as \(e.name)")
        return (Reply(message: "\(e.name) \(e.role.rawValue)"), s)
    }

    private func answer(_ job: Job, _ reply: Reply, session: Session?) -> GroupAnswer {
        if let codecAnswer = job.codecAnswer, reply.error == nil, var s = session {
            s.format = codecAnswer.format
            state.hub.withLock { $0.setFormat(job.conn, codecAnswer.format) }
            return GroupAnswer(
                conn: job.conn, answers: [.bytes(codecAnswer.answer)], session: s, close: false, replay: nil,
                rest: Array(job.units.dropFirst()))
        }
        let format = (session ?? job.session).format
        // A Redis client reads AUTH's success as `+OK` and nothing else (redis-py raises on
        // `+ci write`); WHOAMI says who the connection is.
        let said = reply.error == nil && format.namesChannel ? Reply(message: "OK") : reply
        let answer = Answer.reply(said, tag: job.tag, format: format)
        return GroupAnswer(
            conn: job.conn, answers: [answer], session: session, close: false, replay: nil,
            rest: Array(job.units.dropFirst()))
    }

    /// The timer thread's body: sends each delayed answer when due.
    func run() {
        var due: [(at: ContinuousClock.Instant, answer: GroupAnswer)] = []
        var stopped = false
        while !stopped {
            let now = ContinuousClock.now
            post(due.filter { $0.at <= now }.map(\.answer))
            due.removeAll { $0.at <= now }
            let batch = timerInbox.takeOrSleep()
            if batch.isEmpty {
                var pfd = pollfd(fd: timerInbox.fd, events: Int16(POLLIN), revents: 0)
                let wait =
                    due.map(\.at).min().map { max(0, Int32(($0 - ContinuousClock.now) / .milliseconds(1)) + 1) } ?? -1
                _ = poll(&pfd, 1, wait)
                timerInbox.awake()
                timerInbox.clearSignal()
                continue
            }
            for t in batch {
                switch t {
                case .answer(let at, let a): due.append((at, a))
                case .shutdown: stopped = true
                }
            }
        }
        post(due.map(\.answer))  // nobody waits for a delay at shutdown
        timerDone.store(true, ordering: .releasing)
    }

    private func seconds() -> Double {
        let d = ContinuousClock.now - start
        return Double(d.components.seconds) + Double(d.components.attoseconds) / 1e18
    }

    private func post(_ answers: [GroupAnswer]) {
        for a in answers { state.loops[a.conn.loop].post([.answer(a)]) }
    }

    private func post(_ a: GroupAnswer) { post([a]) }
}
