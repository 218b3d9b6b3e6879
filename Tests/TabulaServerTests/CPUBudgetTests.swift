import Testing
@testable import TabulaServer

/// The CPUs tabulad may use, read from what the system says: the affinity, and cgroup quotas
/// in both versions' forms, the tightest winning and a fraction counting as one CPU.
@Suite struct CPUBudgetTests {
    @Test func aQuotaInEitherFormIsCPUsAndNoQuotaIsNil() {
        #expect(CPUBudget.quota(cpuMax: "max 100000\n") == nil)
        #expect(CPUBudget.quota(cpuMax: "50000 100000\n") == 0.5)
        #expect(CPUBudget.quota(cpuMax: "250000 100000") == 2.5)
        #expect(CPUBudget.quota(cpuMax: "garbage") == nil)
        #expect(CPUBudget.quota(cfsQuota: "-1\n", period: "100000\n") == nil)
        #expect(CPUBudget.quota(cfsQuota: "150000\n", period: "100000\n") == 1.5)
    }

    @Test func theBudgetIsTheAffinityOrTheQuotaRoundedUpWhicheverIsFewer() {
        #expect(CPUBudget(affinity: 2, quota: nil).cpus == 2)
        #expect(CPUBudget(affinity: 2, quota: 0.5).cpus == 1)
        #expect(CPUBudget(affinity: 8, quota: 2.5).cpus == 3)
        #expect(CPUBudget(affinity: 1, quota: 4).cpus == 1)
        #expect(CPUBudget(affinity: 2, quota: 0.01).cpus == 1, "never none")
        #expect(CPUBudget(affinity: 2, quota: 0.5).source == "affinity 2, a cgroup quota of 0.5 CPUs")
    }

    @Test func theCgroupPathsOfBothVersionsAreFoundAndWalkedUp() {
        let v1 = "12:cpu,cpuacct:/docker/abc\n4:memory:/docker/abc\n0::/\n"
        #expect(CPUBudget.cgroupPaths(v1).v1 == "/docker/abc")
        #expect(CPUBudget.cgroupPaths("0::/system.slice/tabulad.service\n").v2 == "/system.slice/tabulad.service")
        #expect(CPUBudget.cgroupPaths("0::/system.slice/tabulad.service\n").v1 == nil)
        #expect(CPUBudget.ancestry("/a/b/c") == ["/a/b/c", "/a/b", "/a", "/"])
        #expect(CPUBudget.ancestry("/") == ["/"])
    }
}
