import CLinuxShims
import Foundation

/// How many CPUs tabulad may use, and why: the CPUs its affinity mask allows
/// (`sched_getaffinity`: `taskset`, systemd's `CPUAffinity=`, a cpuset) and the CPU quota of
/// its cgroup and every cgroup above it (v2's `cpu.max`, v1's `cpu.cfs_quota_us` over
/// `cpu.cfs_period_us`: a container's `--cpus`), whichever allows fewer, a fraction of a CPU
/// counting as one. The parsing is pure; `current` reads the files.
public struct CPUBudget: Sendable, Equatable {
    /// CPUs in the affinity mask.
    public let affinity: Int
    /// CPUs the tightest quota allows (0.5 for half a CPU), or nil without a quota.
    public let quota: Double?

    public init(affinity: Int, quota: Double?) {
        self.affinity = max(1, affinity)
        self.quota = quota
    }

    /// The CPUs the process may keep busy at once.
    public var cpus: Int {
        guard let quota else { return affinity }
        return max(1, min(affinity, Int(quota.rounded(.up))))
    }

    /// What it was read from: `affinity 2, no CPU quota`, `affinity 2, a cgroup quota of 0.5 CPU`.
    public var source: String {
        let q = quota.map { "a cgroup quota of \(String(format: "%g", $0)) CPU\($0 == 1 ? "" : "s")" } ?? "no CPU quota"
        return "affinity \(affinity), \(q)"
    }

    /// A cgroup v2 `cpu.max` (`max 100000`, `50000 100000`) as CPUs; nil for no quota.
    static func quota(cpuMax text: String) -> Double? {
        let words = text.split(whereSeparator: \.isWhitespace)
        guard words.count == 2, words[0] != "max", let q = Double(words[0]), let p = Double(words[1]), q > 0, p > 0
        else { return nil }
        return q / p
    }

    /// A cgroup v1 quota and period in microseconds (`-1` for none) as CPUs; nil for no quota.
    static func quota(cfsQuota: String, period: String) -> Double? {
        guard let q = Double(cfsQuota.trimmingCharacters(in: .whitespacesAndNewlines)),
            let p = Double(period.trimmingCharacters(in: .whitespacesAndNewlines)), q > 0, p > 0
        else { return nil }
        return q / p
    }

    /// From `/proc/self/cgroup`: the v2 path (`0::/path`) and the v1 cpu controller's path.
    static func cgroupPaths(_ text: String) -> (v2: String?, v1: String?) {
        var v2: String?, v1: String?
        for line in text.split(separator: "\n") {
            let parts = line.split(separator: ":", maxSplits: 2, omittingEmptySubsequences: false)
            guard parts.count == 3 else { continue }
            if parts[0] == "0" && parts[1].isEmpty { v2 = String(parts[2]) }
            if parts[1].split(separator: ",").contains("cpu") { v1 = String(parts[2]) }
        }
        return (v2, v1)
    }

    /// `path` and every cgroup above it, deepest first (`/a/b`, `/a`, `/`).
    static func ancestry(_ path: String) -> [String] {
        var out: [String] = []
        var p = path.isEmpty ? "/" : path
        while true {
            out.append(p)
            guard p != "/" else { return out }
            let up = p.split(separator: "/").dropLast().joined(separator: "/")
            p = "/" + up
        }
    }

    /// The budget of this process now.
    public static func current() -> CPUBudget {
        let affinity = Int(tabula_cpus_available())
        guard let text = try? String(contentsOfFile: "/proc/self/cgroup", encoding: .utf8) else {
            return CPUBudget(affinity: affinity, quota: nil)
        }
        let (v2, v1) = cgroupPaths(text)
        var quotas: [Double] = []
        func read(_ path: String) -> String? { try? String(contentsOfFile: path, encoding: .utf8) }
        if let v1 {
            for p in ancestry(v1) {
                let dir = "/sys/fs/cgroup/cpu" + (p == "/" ? "" : p)
                if let q = read(dir + "/cpu.cfs_quota_us"), let period = read(dir + "/cpu.cfs_period_us"),
                    let cpus = quota(cfsQuota: q, period: period)
                {
                    quotas.append(cpus)
                }
            }
        }
        if let v2 {
            for p in ancestry(v2) {
                if let text = read("/sys/fs/cgroup" + (p == "/" ? "" : p) + "/cpu.max"), let cpus = quota(cpuMax: text)
                {
                    quotas.append(cpus)
                }
            }
        }
        return CPUBudget(affinity: affinity, quota: quotas.min())
    }
}
