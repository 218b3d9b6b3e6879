import COpenSSL
import Foundation

/// A salted slow hash of a secret: PBKDF2-HMAC-SHA256 from OpenSSL's libcrypto, written
/// `pbkdf2-sha256$ITERATIONS$SALT$HASH` (salt and hash in base64). The secret itself is
/// never kept.
public struct PasswordHash: Sendable, Hashable {
    public let iterations: Int
    public let salt: [UInt8]
    public let hash: [UInt8]

    /// Iterations for new hashes (OWASP's figure for PBKDF2-HMAC-SHA256).
    public static let defaultIterations = 600_000
    static let scheme = "pbkdf2-sha256"

    /// Hashes `secret` with a fresh 16-byte random salt.
    public static func make(_ secret: String, iterations: Int = defaultIterations) -> PasswordHash {
        let salt = randomBytes(16)
        return PasswordHash(
            iterations: iterations, salt: salt, hash: derive(secret, salt: salt, iterations: iterations))
    }

    /// Whether `secret` is the one hashed, compared in constant time.
    public func verify(_ secret: String) -> Bool {
        let candidate = PasswordHash.derive(secret, salt: salt, iterations: iterations)
        guard candidate.count == hash.count else { return false }
        return candidate.withUnsafeBytes { a in
            hash.withUnsafeBytes { b in CRYPTO_memcmp(a.baseAddress, b.baseAddress, a.count) == 0 }
        }
    }

    /// The form the users file holds.
    public var encoded: String {
        "\(PasswordHash.scheme)$\(iterations)$\(Data(salt).base64EncodedString())$\(Data(hash).base64EncodedString())"
    }

    /// Reads the users file's form; nil when it is not one.
    public init?(encoded: String) {
        let parts = encoded.split(separator: "$", omittingEmptySubsequences: false)
        guard parts.count == 4, parts[0] == PasswordHash.scheme, let n = Int(parts[1]),
            (1_000...100_000_000).contains(n),
            let salt = Data(base64Encoded: String(parts[2])), salt.count >= 8,
            let hash = Data(base64Encoded: String(parts[3])), hash.count == 32
        else { return nil }
        self.init(iterations: n, salt: Array(salt), hash: Array(hash))
    }

    /// A hash no secret matches (random bytes, not derived), checked for unknown names so
    /// that they cost what a known name with `iterations` does; making it costs no hashing.
    public static func decoy(iterations: Int) -> PasswordHash {
        PasswordHash(iterations: iterations, salt: randomBytes(16), hash: randomBytes(32))
    }

    init(iterations: Int, salt: [UInt8], hash: [UInt8]) {
        self.iterations = iterations
        self.salt = salt
        self.hash = hash
    }

    static func derive(_ secret: String, salt: [UInt8], iterations: Int) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: 32)
        let bytes = Array(secret.utf8)
        let ok = bytes.withUnsafeBufferPointer { s in
            PKCS5_PBKDF2_HMAC(
                s.baseAddress.map { UnsafeRawPointer($0).assumingMemoryBound(to: CChar.self) }, Int32(s.count), salt,
                Int32(salt.count), Int32(iterations), EVP_sha256(), 32, &out)
        }
        precondition(ok == 1, "PBKDF2 failed in libcrypto")
        return out
    }

    /// `n` bytes from OpenSSL's random source.
    public static func randomBytes(_ n: Int) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: n)
        precondition(RAND_bytes(&out, Int32(n)) == 1, "no random bytes from libcrypto")
        return out
    }
}
