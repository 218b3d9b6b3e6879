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

    /// A whole reply, one display line per element.
    public func render(_ reply: ServerReply) -> [String] {
        if reply.final.hasPrefix("{") { return reply.lines }  // JSON: shown as it came, for tools
        var out = reply.reply.rows.map { renderData($0.text) }
        if let e = reply.reply.error {
            out.append(paint("ERR \(e.code.rawValue) \(e.message)", "31"))
        } else if !reply.reply.message.isEmpty {
            out.append(paint("(\(reply.reply.message))", "2"))
        }
        return out
    }

    /// One text row.
    public func renderData(_ d: String) -> String {
        if d.hasPrefix(RowMarks.sectionHeader) { return paint(String(d.dropFirst(RowMarks.sectionHeader.count)), "1;4") }
        if d == RowMarks.emptySection { return paint("  " + RowMarks.emptySection, "2;3") }
        var line = "  " + d
        if color {
            line = line.replacingOccurrences(of: RowMarks.favorite, with: paint(RowMarks.favorite, "33"))
            if d.hasPrefix(RowMarks.selected) { line = "  " + paint(RowMarks.selected, "32") + d.dropFirst(RowMarks.selected.count) }
        }
        return line
    }

    /// A push.
    public func renderPush(_ p: String) -> String {
        if case .bye? = TabulaConnection.push(p) { return paint(p, "33") }
        return paint(p, "36")
    }
}
