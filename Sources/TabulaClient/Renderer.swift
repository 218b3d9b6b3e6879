import Foundation

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
        var out = reply.data.map(renderData)
        let message = SessionTracker.message(of: reply)
        if reply.final.hasPrefix("ERR") {
            out.append(paint(reply.final, "31"))
        } else if reply.final.hasPrefix("{") {
            out.append(reply.final)
        } else if !message.isEmpty {
            out.append(paint("(\(message))", "2"))
        }
        return out
    }

    /// One data line.
    public func renderData(_ d: String) -> String {
        if d.hasPrefix("{") { return d }
        if d.hasPrefix("== ") { return paint(String(d.dropFirst(3)), "1;4") }
        if d == "No Items" { return paint("  No Items", "2;3") }
        var line = "  " + d
        if color {
            line = line.replacingOccurrences(of: "★", with: paint("★", "33"))
            if line.hasPrefix("  [x]") { line = paint("  [x]", "32") + line.dropFirst(5) }
        }
        return line
    }

    /// A push.
    public func renderPush(_ p: String) -> String {
        if p.hasPrefix("* BYE") { return paint(p, "33") }
        return paint(p, "36")
    }
}
