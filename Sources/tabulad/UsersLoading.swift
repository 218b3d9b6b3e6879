import Foundation
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
