import CTLSShim

/// The server's TLS settings: certificate chain and key, loaded once (OpenSSL's context is
/// shared by every TLS connection and safe to use from any thread).
final class TLSContext: @unchecked Sendable {
    let handle: UnsafeMutableRawPointer

    /// Loads `cert` and `key` (PEM); a ServerError saying what is wrong otherwise.
    init(cert: String, key: String) throws {
        var err = [CChar](repeating: 0, count: 512)
        guard let h = tabula_tls_server_context(cert, key, &err, Int32(err.count)) else {
            let message = String(decoding: err.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            throw ServerError("\(message) (cert \(cert), key \(key)); give PEM files, e.g. from openssl req -x509")
        }
        handle = h
    }

    deinit { tabula_tls_context_free(handle) }
}
