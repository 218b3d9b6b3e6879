import Foundation
import Glibc
import TabulaAccess
import TabulaCommandLine

/// Reads the users file; a message that says what is wrong and where otherwise.
func loadUsers(_ path: String) -> Result<[String: UserEntry], UsageError> {
    guard let data = FileManager.default.contents(atPath: path) else {
        return .failure(UsageError("cannot read the users file \(path); make one with tabulad passwd"))
    }
    switch UsersFile.parse(String(decoding: data, as: UTF8.self)) {
    case .success(let users): return .success(users)
    case .failure(let p): return .failure(UsageError("users file \(path), \(p)"))
    }
}

/// Whether `address` is a numeric address other than this host's loopback: what protected
/// mode refuses without users. (Anything else that is not an address is left to the
/// listener, which says what is wrong with it.)
func isPublicAddress(_ address: String) -> Bool {
    var v4 = in_addr(), v6 = in6_addr()
    if inet_pton(AF_INET, address, &v4) == 1 { return !address.hasPrefix("127.") }
    if inet_pton(AF_INET6, address, &v6) == 1 { return address != "::1" }
    return false
}
