/// Event bytes framed as an HTTP chunk for the event streams (`OutputQueue.chunk`), made
/// once for all the streams sent the same bytes: a publication sends each of its members one
/// shared array, one member after another, so 5,000 streams cost one chunk and 5,000
/// references to it (the output queue keeps a large piece as it is), not 5,000 copies.
struct SharedChunk {
    /// The last bytes framed (held, so that no other array takes their address) and their chunk.
    private var last: (source: [UInt8], chunk: [UInt8])?

    /// `bytes` (not empty) as one HTTP chunk: the last one made when `bytes` is the same
    /// array as it was made from.
    mutating func framing(_ bytes: [UInt8]) -> [UInt8] {
        func start(_ b: [UInt8]) -> UnsafeRawPointer? { b.withUnsafeBytes { $0.baseAddress } }
        if let last, last.source.count == bytes.count, start(last.source) == start(bytes) { return last.chunk }
        let chunk = OutputQueue.chunk(bytes)
        last = (bytes, chunk)
        return chunk
    }
}
