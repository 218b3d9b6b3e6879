/// How a decoder's input buffer makes room for the bytes just received, written once for
/// every decoder (the line protocol's, RESP's): what was consumed (before `start`) is
/// dropped, all of it once everything was (the storage kept while bytes keep coming), or its
/// front once that is over 4 KiB and half the buffer; `scanned` moves with it.
public enum InputBuffer {
    @inline(__always)
    public static func append(
        _ bytes: UnsafeRawBufferPointer, to buffer: inout [UInt8], start: inout Int, scanned: inout Int
    ) {
        if start > 0 && start == buffer.count {
            buffer.removeAll(keepingCapacity: bytes.count > 0)
            scanned = 0
            start = 0
        } else if start > 4096 && start * 2 > buffer.count {
            buffer.removeSubrange(0..<start)
            scanned -= start
            start = 0
        }
        buffer.append(contentsOf: bytes)
    }
}
