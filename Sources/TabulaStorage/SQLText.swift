import TabulaModel

/// SQL text built as bytes: literals quoted by scanning UTF-8 once (no Foundation string
/// search), so a commit of a thousand rows costs little besides copying them.
struct SQLText {
    private(set) var bytes: [UInt8] = []

    init() { bytes.reserveCapacity(4096) }

    /// Appends SQL as it is.
    mutating func raw(_ s: String) {
        var s = s
        s.withUTF8 { bytes.append(contentsOf: $0) }
    }

    /// Appends `s` as a string literal (standard_conforming_strings is on: only quotes double).
    mutating func literal(_ s: String) {
        var s = s
        bytes.append(39)
        s.withUTF8 { buf in
            for b in buf {
                bytes.append(b)
                if b == 39 { bytes.append(39) }
            }
        }
        bytes.append(39)
    }

    /// Appends UTF-8 bytes as a string literal.
    mutating func literal(bytes b: [UInt8]) {
        bytes.append(39)
        for c in b {
            bytes.append(c)
            if c == 39 { bytes.append(39) }
        }
        bytes.append(39)
    }

    /// Appends a stored value as a literal.
    mutating func value(_ v: StoredValue) {
        switch v {
        case .int(let n): raw(String(n))
        case .double(let d):
            raw(
                d.isFinite
                    ? "\(d)::double precision"
                    : "'\(d > 0 ? "Infinity" : d < 0 ? "-Infinity" : "NaN")'::double precision")
        case .text(let s): literal(s)
        }
    }

    /// The text.
    var string: String { String(decoding: bytes, as: UTF8.self) }

    /// The text as a C string, for libpq.
    func withCString<R>(_ body: (UnsafePointer<CChar>) throws -> R) rethrows -> R {
        try (bytes + [0]).withUnsafeBufferPointer {
            try $0.withMemoryRebound(to: CChar.self) { try body($0.baseAddress!) }
        }
    }
}
