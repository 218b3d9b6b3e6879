import Testing
@testable import TabulaServer

/// The per-address bounds count an IPv6 client by its /64 network, so that a host with
/// 2^64 addresses is one address to them; IPv4 addresses count one by one.
@Suite struct AddressBookTests {
    static func v6(_ hi: UInt64, _ lo: UInt64) -> PeerAddress { PeerAddress(hi: hi, lo: lo) }
    static func v4(_ last: UInt64) -> PeerAddress {
        PeerAddress(hi: 0, lo: 0xFFFF_0000_0000 | 192 << 24 | 0 << 16 | 2 << 8 | last)
    }

    @Test func addressesOfOneIPv6Slash64CountAsOne() {
        let book = AddressBook()
        #expect(book.admit(Self.v6(0x2001_0db8_0000_0001, 1), limit: 2, nearlyFull: false) == nil)
        #expect(book.admit(Self.v6(0x2001_0db8_0000_0001, 0xdead_beef), limit: 2, nearlyFull: false) == nil)
        #expect(book.admit(Self.v6(0x2001_0db8_0000_0001, 0xffff_ffff_ffff), limit: 2, nearlyFull: false) == .limit)
        #expect(book.admit(Self.v6(0x2001_0db8_0000_0002, 1), limit: 2, nearlyFull: false) == nil)  // another /64
        book.release(Self.v6(0x2001_0db8_0000_0001, 7))
        #expect(book.admit(Self.v6(0x2001_0db8_0000_0001, 9), limit: 2, nearlyFull: false) == nil)
    }

    @Test func ipv4AddressesAndLoopbackCountOneByOne() {
        let book = AddressBook()
        #expect(book.admit(Self.v4(1), limit: 1, nearlyFull: false) == nil)
        #expect(book.admit(Self.v4(2), limit: 1, nearlyFull: false) == nil)
        #expect(book.admit(Self.v4(1), limit: 1, nearlyFull: false) == .limit)
        #expect(Self.v4(7).network == Self.v4(7))
        #expect(PeerAddress(hi: 0, lo: 1).network == PeerAddress(hi: 0, lo: 1))  // ::1
    }
}
