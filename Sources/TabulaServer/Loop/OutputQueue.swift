import CLinuxShims
import CTLSShim
import Glibc

/// Bytes waiting to be written to one socket: whole lines in chunks, flushed with `send`, or
/// `sendmsg` over an iovec when several chunks are queued.
struct OutputQueue {
    private var chunks: [[UInt8]] = []
    private var head = 0
    private var offset = 0
    /// Bytes queued and not yet written.
    private(set) var count = 0

    var isEmpty: Bool { count == 0 }
    /// Whether the next byte to go out starts a line (nothing half-written).
    var atLineBoundary: Bool { offset == 0 }

    /// Pieces up to this size are copied into the last chunk; bigger ones become a chunk.
    static let joinLimit = 512

    /// An HTTP/1.1 event stream's body is sent chunked (`Transfer-Encoding: chunked`), so a
    /// reader that reads in blocks gets each event at once: every piece appended from then on
    /// goes out as one HTTP chunk, whole, so a piece boundary is a chunk boundary
    /// (`atLineBoundary` holds between chunks).
    private(set) var chunkedBody = false

    /// Pieces are framed as HTTP chunks from now on.
    mutating func beginChunkedBody() { chunkedBody = true }

    /// `bytes` as the connection's body takes them: one chunk when chunked, else as they are.
    func framed(_ bytes: [UInt8]) -> [UInt8] {
        guard chunkedBody, !bytes.isEmpty else { return bytes }
        return OutputQueue.chunk(bytes)
    }

    /// `bytes` (not empty) as one HTTP chunk: its size in hex, CRLF, the bytes, CRLF.
    static func chunk(_ bytes: [UInt8]) -> [UInt8] {
        var out = Array(String(bytes.count, radix: 16).utf8)
        out.reserveCapacity(out.count + bytes.count + 4)
        out += [13, 10]
        out += bytes
        out += [13, 10]
        return out
    }

    /// The chunk that ends a chunked body.
    static let lastChunk: [UInt8] = Array("0\r\n\r\n".utf8)

    mutating func append(_ bytes: [UInt8]) {
        guard !bytes.isEmpty else { return }
        appendRaw(chunkedBody ? framed(bytes) : bytes)
    }

    /// Appends `bytes` as they are, framed already (a goodbye with the last chunk).
    mutating func appendRaw(_ bytes: [UInt8]) {
        guard !bytes.isEmpty else { return }
        count += bytes.count
        // Small pieces join the last chunk (when it has not started going out), so that a
        // burst of short replies leaves in one iovec rather than one each.
        if bytes.count <= OutputQueue.joinLimit, head < chunks.count, chunks.count - 1 > head || offset == 0,
            chunks[chunks.count - 1].count < 16 * 1024
        {
            chunks[chunks.count - 1].append(contentsOf: bytes)
            return
        }
        chunks.append(bytes)
    }

    mutating func removeAll() {
        chunks.removeAll()
        head = 0
        offset = 0
        count = 0
    }

    enum FlushResult { case done, wouldBlock, failed(Int32) }

    /// Writes as much as the socket takes.
    mutating func flush(fd: Int32) -> (FlushResult, Int) {
        var written = 0
        while count > 0 {
            let n = min(chunks.count - head, 64)
            let r: Int
            if n == 1 {  // the common case: one piece, a plain send (no iovec to build or import)
                r = chunks[head].withUnsafeBytes { tabula_send(fd, $0.baseAddress! + offset, $0.count - offset) }
            } else {
                r = withIOVecs(n) { iov in tabula_sendv(fd, iov.baseAddress, Int32(iov.count)) }
            }
            if r < 0 {
                let e = tabula_errno()
                if e == EAGAIN || e == EWOULDBLOCK { return (.wouldBlock, written) }
                return (.failed(e), written)
            }
            written += r
            consume(r)
        }
        return (.done, written)
    }

    /// Writes as much as a TLS session takes, a record (16 KiB) at a time. A write retried
    /// after "would block" starts at the same bytes, as OpenSSL requires.
    mutating func flush(tls ssl: UnsafeMutableRawPointer) -> (FlushResult, Int) {
        var written = 0
        while count > 0 {
            let r = chunks[head].withUnsafeBytes {
                tabula_tls_write(ssl, $0.baseAddress! + offset, Int32(min($0.count - offset, 16 * 1024)))
            }
            if r > 0 {
                written += Int(r)
                consume(Int(r))
                continue
            }
            if r == Int32(TABULA_TLS_WANT_WRITE) || r == Int32(TABULA_TLS_WANT_READ) { return (.wouldBlock, written) }
            return (.failed(EPROTO), written)
        }
        return (.done, written)
    }

    /// Calls `body` with iovecs pointing straight into the first `n` chunks (no copies).
    private func withIOVecs<R>(_ n: Int, _ body: (UnsafeBufferPointer<iovec>) -> R) -> R {
        var iovs = [iovec](repeating: iovec(), count: n)
        func gather(_ i: Int) -> R {
            if i == n { return iovs.withUnsafeBufferPointer(body) }
            return chunks[head + i].withUnsafeBytes { raw in
                let start = i == 0 ? offset : 0
                if let base = raw.baseAddress {
                    iovs[i] = iovec(
                        iov_base: UnsafeMutableRawPointer(mutating: base + start), iov_len: raw.count - start)
                }
                return gather(i + 1)
            }
        }
        return gather(0)
    }

    private mutating func consume(_ n: Int) {
        var left = n
        count -= n
        while left > 0 {
            let avail = chunks[head].count - offset
            if left >= avail {
                left -= avail
                head += 1
                offset = 0
            } else {
                offset += left
                left = 0
            }
        }
        if head == chunks.count {
            chunks.removeAll(keepingCapacity: true)
            head = 0
        } else if head > 64 {
            chunks.removeFirst(head)
            head = 0
        }
    }
}
