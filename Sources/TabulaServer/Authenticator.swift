import CLinuxShims
import Foundation
import Glibc
import Synchronization
import TabulaAccess
import TabulaProtocol

/// The thread that checks `AUTH` secrets: a slow hash (tens of milliseconds, by design) must
/// not run on an I/O loop. A wrong name or secret is answered only after a delay that doubles
/// with each failure in a row on that connection; the delay is kept here, as a due time, so
/// it holds up nobody else (the connection's later requests wait on its loop meanwhile).
final class Authenticator: @unchecked Sendable {
    private let inbox = WakeableInbox<EngineInput>()
    /// Nil without `--users`: AUTH is then refused as needless.
    let users: UsersDirectory?
    private let state: SharedState
    private let log: Log
    private var due: [(at: ContinuousClock.Instant, answer: GroupAnswer)] = []
    /// Secrets verified before: a user's next logins skip the slow hash.
    private var verified = VerifiedSecrets()
    private var stopped = false
    /// Set once the thread has returned.
    let finished = Atomic<Bool>(false)
    /// Checked for unknown names, so that they cost what a known one does (made on the first
    /// unknown name: a server start costs no hashing).
    private lazy var decoy = PasswordHash.make(String(decoding: PasswordHash.randomBytes(16).map { 65 + $0 % 26 }, as: UTF8.self))

    init(users: UsersDirectory?, state: SharedState, log: Log) {
        self.users = users
        self.state = state
        self.log = log
    }

    /// Hands over groups that start with AUTH.
    func submit(_ inputs: [EngineInput]) { inbox.post(inputs) }

    /// The first failure's delay; each further one in a row doubles it, up to `maxDelay`.
    static let firstDelay = Duration.milliseconds(250)
    static let maxDelay = Duration.seconds(8)

    func run() {
        while !stopped {
            let now = ContinuousClock.now
            let ready = due.filter { $0.at <= now }
            due.removeAll { $0.at <= now }
            post(ready.map(\.answer))
            let batch = inbox.takeOrSleep()
            if batch.isEmpty {
                var pfd = pollfd(fd: inbox.fd, events: Int16(POLLIN), revents: 0)
                let wait = due.map { $0.at }.min().map { max(0, Int32(($0 - ContinuousClock.now) / .milliseconds(1)) + 1) } ?? -1
                _ = poll(&pfd, 1, wait)
                inbox.awake()
                inbox.clearSignal()
                continue
            }
            for input in batch {
                switch input {
                case .group(let c, let units, let session): check(c, units, session: session)
                case .shutdown: stopped = true
                case .follow: break
                }
            }
        }
        post(due.map(\.answer))  // nobody waits for a delay at shutdown
        due.removeAll()
        finished.store(true, ordering: .releasing)
    }

    private func check(_ c: ConnectionID, _ units: [LineUnit], session: Session) {
        guard case .request(let r)? = units.first, case .auth(let name, let secret) = r.command else { return }
        var s = session
        guard let users else {
            let bytes = WireEncoder.encode(Reply(error: TabulaError(.invalid, "this server has no users file: every connection may do everything, no AUTH needed")), tag: r.tag, format: s.format)
            due.append((ContinuousClock.now, GroupAnswer(conn: c, bytes: bytes, session: nil, close: false, replay: nil, rest: Array(units.dropFirst()))))
            return
        }
        let found = users.entry(name)
        let ok: Bool
        if let (_, generation) = found, verified.knows(name, secret, generation: generation) {
            ok = true
        } else {
            ok = (found?.0.hash ?? decoy).verify(secret) && found != nil
            if ok, let (_, generation) = found { verified.remember(name, secret, generation: generation) }
        }
        let reply: Reply
        var delay = Duration.zero
        if let (e, generation) = found, ok {
            let user = AuthUser(name: e.name, role: e.role, grants: e.grants, generation: generation)
            s.become(user)
            s.authFailures = 0
            state.hub.withLock { $0.setGrants(c, s.viewer.grants) }
            reply = Reply(message: "\(e.name) \(e.role.rawValue)")
            log.log(.info, "connection \(c.raw) authenticated as \(e.name)")
        } else {
            s.authFailures += 1
            delay = min(Authenticator.maxDelay, Authenticator.firstDelay * (1 << min(s.authFailures - 1, 10)))
            reply = Reply(error: TabulaError(.wrongPass, "wrong name or secret"))
            log.log(.warn, "connection \(c.raw): AUTH failed (\(s.authFailures) in a row)")
        }
        let bytes = WireEncoder.encode(reply, tag: r.tag, format: s.format)
        let answer = GroupAnswer(conn: c, bytes: bytes, session: s, close: false, replay: nil, rest: Array(units.dropFirst()))
        due.append((ContinuousClock.now + delay, answer))
    }

    private func post(_ answers: [GroupAnswer]) {
        for a in answers { state.loops[a.conn.loop].post([.answer(a)]) }
    }
}
