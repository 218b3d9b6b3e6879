import Foundation
import TabulaProtocol

/// Turns protocol lines into what a person reads: markers removed, sections, marks and
/// errors coloured when colour is on.
public struct Renderer: Sendable {
    /// Whether to use ANSI colour.
    public var color: Bool

    /// Makes a renderer.
    public init(color: Bool) { self.color = color }

    /// `s` in ANSI colour `code` when colour is on.
    public func paint(_ s: String, _ code: String) -> String { color ? "\u{1b}[\(code)m\(s)\u{1b}[0m" : s }

    /// A whole reply, one display line per element; with `width` (the terminal's columns), a
    /// row longer than that is wrapped at spaces, its continuation indented (HELP at 40
    /// columns breaks between words, not inside them).
    public func render(_ reply: ServerReply, width: Int? = nil) -> [String] {
        if reply.final.hasPrefix("{") { return reply.lines }  // JSON: shown as it came, for tools
        var out: [String] = []
        for row in reply.reply.rows {
            let text = TerminalText.safe(row.text)  // a decoded escape may be a control character
            let parts = width.map { Renderer.wrap(text, width: $0 - 2) } ?? [text]
            out.append(renderData(parts[0]))
            out += parts.dropFirst().map { "      " + $0 }
        }
        if let e = reply.reply.error {
            out.append(paint("ERR \(e.code.rawValue) \(TerminalText.safe(e.message))", "31"))
        } else if !reply.reply.message.isEmpty {
            out.append(paint("(\(TerminalText.safe(reply.reply.message)))", "2"))
        }
        return out
    }

    /// `s` cut into lines of at most `width` characters at spaces (a word longer than that
    /// stands alone); continuation lines are 4 characters narrower, for their indent.
    static func wrap(_ s: String, width: Int) -> [String] {
        guard width >= 16, s.count > width else { return [s] }
        var lines: [String] = []
        var current = ""
        // Split keeping empty words, so the runs of spaces that align columns stay.
        for word in s.split(separator: " ", omittingEmptySubsequences: false) {
            if current.isEmpty && word.isEmpty && !lines.isEmpty { continue }  // no leading blanks
            let limit = lines.isEmpty ? width : width - 4
            let candidate = current.isEmpty ? String(word) : current + " " + word
            if candidate.count > limit && current.contains(where: { $0 != " " }) {
                lines.append(current)
                current = String(word)
            } else {
                current = candidate
            }
        }
        lines.append(current)
        return lines
    }

    /// A row as a full-screen view shows it: a section header without its marker.
    public static func plain(_ d: String) -> String {
        d.hasPrefix(RowMarks.sectionHeader) ? String(d.dropFirst(RowMarks.sectionHeader.count)) : d
    }

    /// One text row.
    public func renderData(_ d: String) -> String {
        if d.hasPrefix(RowMarks.sectionHeader) {
            return paint(String(d.dropFirst(RowMarks.sectionHeader.count)), "1;4")
        }
        if d == RowMarks.emptySection { return paint("  " + RowMarks.emptySection, "2;3") }
        var line = "  " + d
        if color {
            line = line.replacingOccurrences(of: RowMarks.favorite, with: paint(RowMarks.favorite, "33"))
            if d.hasPrefix(RowMarks.selected) {
                line = "  " + paint(RowMarks.selected, "32") + d.dropFirst(RowMarks.selected.count)
            }
        }
        return line
    }

    /// A push.
    public func renderPush(_ p: String) -> String {
        if case .bye? = TabulaConnection.push(p) { return paint(p, "33") }
        return paint(p, "36")
    }
}
