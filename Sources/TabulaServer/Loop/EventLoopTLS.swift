import CLinuxShims
import CTLSShim
import Glibc

/// TLS connections: OpenSSL runs the handshake inside the first reads and writes of a
/// session on the same non-blocking socket; a read that needs to send (or a write that
/// needs to read) waits for the socket to allow it, like any other.
extension EventLoop {
    /// Reads every record the socket has (each fits `readBuffer`, so nothing stays decrypted
    /// inside the session unseen by epoll) until it would block, reading pauses or the peer
    /// closes.
    func readTLS(_ c: Connection) {
        guard let ssl = c.tls else { return }
        while !c.readClosed && !c.readPaused && conns[c.id.raw] != nil {
            let n = readBuffer.withUnsafeMutableBytes { tabula_tls_read(ssl, $0.baseAddress, Int32($0.count)) }
            if n > 0 {
                c.tlsWantsWrite = false
                readThisTurn += Int(n)
                take(c, Int(n))
                // The turn's budget spent: the rest, perhaps decrypted already and so unseen
                // by epoll, is read first in the next turn.
                if readThisTurn >= ReadShare.budget, conns[c.id.raw] != nil, !c.readDeferred {
                    c.readDeferred = true
                    readLater.append(c)
                    return
                }
                continue
            }
            switch n {
            case 0:
                endOfInput(c)
                guard conns[c.id.raw] != nil else { return }
                c.readClosed = true
                updateInterest(c)
                closeIfDone(c)
            case Int32(TABULA_TLS_WANT_READ):
                c.tlsWantsWrite = false
                updateInterest(c)
            case Int32(TABULA_TLS_WANT_WRITE):
                c.tlsWantsWrite = true
                updateInterest(c)
            default:
                var text = [CChar](repeating: 0, count: 256)
                tabula_tls_last_error(&text, Int32(text.count))
                log.log(
                    .debug,
                    "connection \(c.id.raw): TLS failed: \(String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))",
                    conn: c.id.raw)
                closeConnection(c)
                return
            }
            break
        }
        // The handshake may have just finished: the greeting can go out.
        if conns[c.id.raw] != nil && !c.output.isEmpty { markDirty(c) }
    }

    /// Sends `bytes` at once if the socket takes them (a goodbye before closing): in TLS on a
    /// TLS connection.
    func sendNow(_ c: Connection, _ bytes: [UInt8]) {
        if let ssl = c.tls {
            _ = bytes.withUnsafeBytes { tabula_tls_write(ssl, $0.baseAddress, Int32($0.count)) }
        } else {
            _ = bytes.withUnsafeBytes { tabula_send(c.fd, $0.baseAddress, $0.count) }
        }
    }
}
