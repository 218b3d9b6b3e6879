import Foundation

/// Which waiting login is hashed next, and how long a failure's answer waits: pure policy,
/// no threads or clocks (times are passed in, in seconds).
///
/// - Logins wait per address, at most `maxPendingPerAddress` each; at most
///   `maxHashingPerAddress` of an address are hashed at once, so one address cannot take
///   every hashing thread.
/// - The next login hashed is that of the address with the fewest recent failures, then of
///   the name with the fewest, then the fewest recent attempts, then the oldest: a client
///   that guesses drops behind everyone who does not, and a first login from a quiet
///   address waits for at most the hashes already running.
/// - A failure's answer waits `firstDelay` doubled for each recent failure of the address or
///   of the name (whichever has more), up to `maxDelay`: short enough that a client's own
///   timeout (redis-py's 5 s) sees the refusal, not a timeout. Recent counts halve every
///   `halfLife` seconds, so nobody is locked out for good.
/// - A name with `freeFailures` recent failures or more is hashed at most once every
///   `namePace` seconds, whatever the addresses and connections that try it: a guesser gets
///   about one try a second per user. Its waiting logins stay queued (other names' logins of
///   the same address go ahead of them); `pacedUntil` says when the next may go.
/// - Remembered addresses and names are bounded (`maxRemembered` each; the faintest are
///   forgotten first).
public struct LoginScheduler<Address: Hashable & Sendable, Job: Sendable>: Sendable {
    public static var maxPendingPerAddress: Int { 32 }
    public static var maxHashingPerAddress: Int { 2 }
    public static var firstDelay: Double { 0.25 }
    public static var maxDelay: Double { 1 }
    public static var freeFailures: Double { 3 }
    public static var namePace: Double { 1 }
    public static var halfLife: Double { 60 }
    public static var maxRemembered: Int { 4096 }

    /// A count that halves every `halfLife` seconds.
    struct Fading: Sendable {
        var value = 0.0
        var at = 0.0
        func now(_ t: Double) -> Double { value * pow2(-(t - at) / LoginScheduler.halfLife) }
        mutating func add(_ n: Double, _ t: Double) {
            value = now(t) + n
            at = t
        }
    }

    struct Waiting: Sendable {
        var jobs: [(seq: UInt64, name: String, job: Job)] = []
        var hashing = 0
    }

    struct Record: Sendable {
        var failures = Fading()
        var attempts = Fading()
    }

    private var waiting: [Address: Waiting] = [:]
    private var addresses: [Address: Record] = [:]
    private var names: [String: Fading] = [:]
    /// When each name was last hashed (only names with failures are paced).
    private var lastHashed: [String: Double] = [:]
    private var seq: UInt64 = 0
    /// Logins dropped unhashed because their connection had gone, since the start.
    public private(set) var dropped = 0

    public init() {}

    /// Logins waiting, over all addresses.
    public private(set) var pendingCount = 0

    /// Queues a login of `name` from `address`; false when that address already has
    /// `maxPendingPerAddress` waiting (after dropping those whose connection is gone).
    public mutating func enqueue(_ job: Job, name: String, from address: Address, isLive: (Job) -> Bool) -> Bool {
        var w = waiting[address, default: Waiting()]
        if w.jobs.count >= Self.maxPendingPerAddress {
            let before = w.jobs.count
            w.jobs.removeAll { !isLive($0.job) }
            dropped += before - w.jobs.count
            pendingCount -= before - w.jobs.count
        }
        guard w.jobs.count < Self.maxPendingPerAddress else { return false }
        seq += 1
        w.jobs.append((seq, name, job))
        pendingCount += 1
        waiting[address] = w
        return true
    }

    /// The next login to hash, counted as hashing for its address until `finish`; logins whose
    /// connection is gone are dropped on the way, unhashed.
    public mutating func next(at t: Double, isLive: (Job) -> Bool) -> (job: Job, name: String, address: Address)? {
        while let (address, index) = best(at: t) {
            var w = waiting[address]!
            let first = w.jobs.remove(at: index)
            pendingCount -= 1
            guard isLive(first.job) else {
                dropped += 1
                store(w, address)
                continue
            }
            w.hashing += 1
            store(w, address)
            addresses[address, default: Record()].attempts.add(1, t)
            if names[first.name] != nil { lastHashed[first.name] = t }
            return (first.job, first.name, address)
        }
        return nil
    }

    /// Records a hashed login's outcome; returns how long (seconds) its answer waits.
    public mutating func finish(name: String, from address: Address, failed: Bool, at t: Double) -> Double {
        if var w = waiting[address] {
            w.hashing = max(0, w.hashing - 1)
            store(w, address)
        }
        guard failed else { return 0 }
        addresses[address, default: Record()].failures.add(1, t)
        names[name, default: Fading()].add(1, t)
        let n = max(addresses[address]!.failures.now(t), names[name]!.now(t))
        forgetFaintest(at: t)
        return min(Self.maxDelay, Self.firstDelay * pow2((n - 1).rounded()))
    }

    /// Empties the queue (shutdown): every waiting login, to be answered unhashed.
    public mutating func drain() -> [Job] {
        let jobs = waiting.values.flatMap { $0.jobs.map(\.job) }
        waiting.removeAll()
        pendingCount = 0
        return jobs
    }

    /// The address whose next login goes first, and which of its logins (the oldest whose
    /// name is not paced): fewest recent failures of the address, then of the name it logs
    /// in as (so that, while fresh addresses guess one name, a login as another name goes
    /// ahead of them), then fewest recent attempts, then the oldest.
    private func best(at t: Double) -> (Address, Int)? {
        var chosen: (address: Address, index: Int, key: (Double, Double, Double, UInt64))?
        for (a, w) in waiting where !w.jobs.isEmpty && w.hashing < Self.maxHashingPerAddress {
            guard let i = w.jobs.firstIndex(where: { pacedUntil($0.name, at: t) == nil }) else { continue }
            let r = addresses[a] ?? Record()
            let nameFailures = names[w.jobs[i].name]?.now(t) ?? 0
            let key = (r.failures.now(t).rounded(), nameFailures.rounded(), r.attempts.now(t).rounded(), w.jobs[i].seq)
            if let c = chosen, c.key <= key { continue }
            chosen = (a, i, key)
        }
        return chosen.map { ($0.address, $0.index) }
    }

    /// When a login of `name` may next be hashed, if not now (`namePace` after its last hash,
    /// once it has `freeFailures` recent failures).
    private func pacedUntil(_ name: String, at t: Double) -> Double? {
        guard let failures = names[name], failures.now(t) >= Self.freeFailures, let last = lastHashed[name] else {
            return nil
        }
        let until = last + Self.namePace
        return until > t ? until : nil
    }

    /// The soonest time a waiting login held back by its name's pace may be hashed (nil:
    /// none is held back): a hasher with nothing else to do waits until then.
    public func pacedUntil(at t: Double) -> Double? {
        var soonest: Double?
        for w in waiting.values where w.hashing < Self.maxHashingPerAddress {
            for j in w.jobs {
                guard let u = pacedUntil(j.name, at: t) else { continue }
                soonest = min(soonest ?? u, u)
            }
        }
        return soonest
    }

    private mutating func store(_ w: Waiting, _ address: Address) {
        waiting[address] = w.jobs.isEmpty && w.hashing == 0 ? nil : w
    }

    private mutating func forgetFaintest(at t: Double) {
        if addresses.count > Self.maxRemembered {
            let keep = addresses.sorted {
                max($0.value.failures.now(t), $0.value.attempts.now(t))
                    > max($1.value.failures.now(t), $1.value.attempts.now(t))
            }.prefix(Self.maxRemembered / 2)
            addresses = Dictionary(uniqueKeysWithValues: keep.map { ($0.key, $0.value) })
        }
        if names.count > Self.maxRemembered {
            let keep = names.sorted { $0.value.now(t) > $1.value.now(t) }.prefix(Self.maxRemembered / 2)
            names = Dictionary(uniqueKeysWithValues: keep.map { ($0.key, $0.value) })
            lastHashed = lastHashed.filter { names[$0.key] != nil }
        }
    }
}

/// 2 to the power `x`.
private func pow2(_ x: Double) -> Double { exp2(x) }
