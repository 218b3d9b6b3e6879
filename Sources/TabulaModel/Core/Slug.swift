import TabulaProtocol

/// Path-segment names made from titles: lower case, words joined by `-`, so that no path
/// ever needs quoting ("My Int" → `my-int`).
public enum Slug {
    /// The slug of `title`; never empty.
    public static func make(_ title: String) -> String {
        var out = ""
        var pendingDash = false
        for ch in title.lowercased().unicodeScalars {
            let keep = ch.properties.isAlphabetic || ("0"..."9").contains(ch) || ch == "." || ch == "_"
            if keep {
                if pendingDash && !out.isEmpty { out.append("-") }
                pendingDash = false
                out.unicodeScalars.append(ch)
            } else {
                pendingDash = true
            }
        }
        while out.hasPrefix(".") { out.removeFirst() }
        return out.isEmpty ? "x" : out
    }

    /// `make(title)`, with `-2`, `-3`… added until `taken` says it is free.
    public static func unique(_ title: String, taken: (String) -> Bool) -> String {
        let base = make(title)
        if !taken(base) { return base }
        var n = 2
        while taken("\(base)-\(n)") { n += 1 }
        return "\(base)-\(n)"
    }
}

/// Formatting of money and times, shared by rows and events.
public enum Display {
    /// Whole dollars, as `$12`.
    public static func dollars(_ v: Int) -> String {
        var out: [UInt8] = []
        writeDollars(v, to: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// Appends `dollars(v)` to `out`, without making a String.
    public static func writeDollars(_ v: Int, to out: inout [UInt8]) {
        out.append(v < 0 ? "-$" : "$")
        WireEncoder.appendDecimal(UInt64(v.magnitude), to: &out)
    }

    /// An ISO 8601 UTC timestamp (seconds) from Unix seconds.
    public static func timestamp(_ t: Double) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(20)
        writeTimestamp(t, to: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// Appends `timestamp(t)` to `out`, without making a String.
    public static func writeTimestamp(_ t: Double, to out: inout [UInt8]) {
        ByteWriter.append(to: &out, atMost: timestampBound) { writeTimestamp(t, to: &$0) }
    }

    /// The most bytes `writeTimestamp` writes (a year of 6 digits and its sign).
    public static let timestampBound = 24

    /// Writes `timestamp(t)`, at most `timestampBound` bytes.
    public static func writeTimestamp(_ t: Double, to w: inout ByteWriter) {
        guard t.isFinite, abs(t) < 1e13 else { return w.append("invalid-time") }
        let secs = Int64(t.rounded(.down))
        let days = secs >= 0 ? secs / 86400 : (secs - 86399) / 86400
        let rem = Int(secs - days * 86400)
        // Civil-from-days (H. Hinnant).
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let d = doy - (153 * mp + 2) / 5 + 1
        let m = mp < 10 ? mp + 3 : mp - 9
        let y = yoe + era * 400 + (m <= 2 ? 1 : 0)
        w.appendDecimal(y)
        w.append(UInt8(ascii: "-"))
        w.appendTwoDigits(Int(m), then: UInt8(ascii: "-"))
        w.appendTwoDigits(Int(d), then: UInt8(ascii: "T"))
        w.appendTwoDigits(rem / 3600, then: UInt8(ascii: ":"))
        w.appendTwoDigits(rem / 60 % 60, then: UInt8(ascii: ":"))
        w.appendTwoDigits(rem % 60, then: UInt8(ascii: "Z"))
    }
}
