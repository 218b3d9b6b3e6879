import Glibc

/// Whether `address` is a numeric address other than this host's loopback: what protected
/// mode refuses without users. (Anything else that is not an address is left to the
/// listener, which says what is wrong with it.)
func isPublicAddress(_ address: String) -> Bool {
    var v4 = in_addr(), v6 = in6_addr()
    if inet_pton(AF_INET, address, &v4) == 1 { return !address.hasPrefix("127.") }
    if inet_pton(AF_INET6, address, &v6) == 1 { return address != "::1" }
    return false
}
