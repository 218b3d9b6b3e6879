import COpenSSL

/// Secrets already verified against their slow hash, remembered as a keyed fast digest
/// (HMAC-SHA256 under a random key made at start, never stored): a user who logs in again
/// with the same secret is checked in microseconds instead of a PBKDF2 run, so that many CI
/// jobs of one user can connect at once. Failures are never remembered (each wrong secret
/// costs the full hash and its delay), and a reload of the users file forgets everything.
public struct VerifiedSecrets: Sendable {
    private let key = PasswordHash.randomBytes(32)
    private var digests: [String: (generation: Int, digest: [UInt8])] = [:]

    public init() {}

    /// Whether `secret` is the one `name` logged in with before, in the users file's load
    /// `generation` (compared in constant time).
    public func knows(_ name: String, _ secret: String, generation: Int) -> Bool {
        guard let entry = digests[name], entry.generation == generation else { return false }
        let d = digest(name, secret)
        return d.withUnsafeBytes { a in
            entry.digest.withUnsafeBytes { b in CRYPTO_memcmp(a.baseAddress, b.baseAddress, a.count) == 0 }
        }
    }

    /// Remembers that `secret` was verified for `name` in `generation`.
    public mutating func remember(_ name: String, _ secret: String, generation: Int) {
        digests[name] = (generation, digest(name, secret))
    }

    private func digest(_ name: String, _ secret: String) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: 32)
        var len: UInt32 = 32
        let message = Array(name.utf8) + [0] + Array(secret.utf8)
        _ = HMAC(EVP_sha256(), key, Int32(key.count), message, message.count, &out, &len)
        return out
    }
}
