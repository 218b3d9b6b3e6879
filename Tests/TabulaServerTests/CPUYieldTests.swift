import Testing

@testable import TabulaServer

/// `--cpu-yield auto` yields only while a loop's clients are all on this machine: what counts
/// as on this machine, and the rule.
@Suite struct CPUYieldTests {
    /// An IPv4 address mapped into IPv6, as `tabula_accept_peer` gives it.
    func v4(_ a: UInt64, _ b: UInt64, _ c: UInt64, _ d: UInt64) -> PeerAddress {
        PeerAddress(hi: 0, lo: 0xFFFF_0000_0000 | a << 24 | b << 16 | c << 8 | d)
    }

    @Test func loopbackAddressesAndUnixSocketsAreOnThisMachine() {
        #expect(v4(127, 0, 0, 1).isOnThisMachine && v4(127, 9, 200, 3).isOnThisMachine)
        #expect(PeerAddress(hi: 0, lo: 1).isOnThisMachine)  // ::1
        #expect(PeerAddress(hi: 0, lo: 0).isOnThisMachine)  // a Unix socket's peer has no address
    }

    @Test func otherAddressesAreOnOtherMachines() {
        #expect(
            !v4(10, 0, 0, 1).isOnThisMachine && !v4(192, 168, 1, 127).isOnThisMachine
                && !v4(128, 0, 0, 1).isOnThisMachine)
        #expect(!PeerAddress(hi: 0x2001_0db8_0000_0000, lo: 1).isOnThisMachine)  // 2001:db8::1
        #expect(!PeerAddress(hi: 0, lo: 2).isOnThisMachine)  // ::2
    }

    @Test func autoYieldsOnlyWhileNoClientIsOnAnotherMachine() {
        #expect(CPUYield.auto.applies(remoteClients: false) && !CPUYield.auto.applies(remoteClients: true))
        #expect(CPUYield.on.applies(remoteClients: true) && CPUYield.on.applies(remoteClients: false))
        #expect(!CPUYield.off.applies(remoteClients: false) && !CPUYield.off.applies(remoteClients: true))
    }
}
