import Foundation
import Glibc
import Testing
import TabulaProtocol

@testable import TabulaClient

/// The one escaping rule for a server's text on the terminal, applied by every output.
@Suite struct TerminalTextTests {
    static let hostile = "x\u{1b}]0;TITLE\u{07}\u{1b}]52;c;Q0xJUA==\u{07}\u{1b}[2J"

    static func hasControl(_ s: String) -> Bool { s.unicodeScalars.contains { TerminalText.isUnsafe($0) } }

    @Test func everyControlCharacterButTabAndLineFeedBecomesAQuestionMark() {
        for v in UInt32(0)...0x3000 {
            guard let u = Unicode.Scalar(v) else { continue }
            let shown = TerminalText.safe("a" + String(Character(u)) + "b")
            let control =
                v < 32 && v != 9 && v != 10 || v == 127 || (0x80...0x9F).contains(v) || (0x2028...0x202E).contains(v)
                || (0x2066...0x2069).contains(v)
            #expect(shown == (control ? "a?b" : "a" + String(Character(u)) + "b"), "U+\(String(v, radix: 16))")
        }
    }

    @Test func textWithoutControlsIsReturnedUnchanged() {
        #expect(TerminalText.safe("Rusty Spork ★ é\tx\ny") == "Rusty Spork ★ é\tx\ny")
    }

    @Test func csvAndTsvCellsCarryNoControlCharacterAndStayQuoted() {
        let rows: [JSONValue] = [.object([("name", .string(Self.hostile)), ("note", .string("a, \"b\"\nc"))])]
        for format in [TableOutput.csv, .tsv] {
            let text = format.lines(rows).joined(separator: "\n")
            #expect(!Self.hasControl(text), "\(format)")
            #expect(text.contains("x?]0;TITLE??]52;c;Q0xJUA==??[2J"), "\(format)")
        }
        #expect(TableOutput.csv.lines(rows)[1].hasSuffix(",\"a, \"\"b\"\"\nc\""))  // RFC 4180
        #expect(TableOutput.tsv.lines(rows)[1].hasSuffix("\ta, \"b\"\\nc"))
    }

    @Test func renderedRowsAndMessagesCarryNoControlCharacter() {
        let reply = ServerReply(
            reply: DecodedReply(rows: [Row(text: Self.hostile, json: .null)], message: Self.hostile), lines: [])
        for line in Renderer(color: false).render(reply) { #expect(!Self.hasControl(line)) }
    }
}

/// A hostile server's raw bytes: what the client reads never carries a control character.
@Suite struct HostileServerTests {
    /// A one-shot server on loopback that sends `bytes` to whoever connects; its port.
    static func serve(_ bytes: [UInt8]) throws -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var addr = sockaddr_in()
        addr.sin_family = sa_family_t(AF_INET)
        addr.sin_addr.s_addr = inet_addr("127.0.0.1")
        var len = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafePointer(to: &addr) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, len) } }
        listen(fd, 1)
        _ = withUnsafeMutablePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &len) }
        }
        Thread {
            let c = accept(fd, nil, nil)
            _ = bytes.withUnsafeBytes { send(c, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            var sink = [UInt8](repeating: 0, count: 4096)
            while recv(c, &sink, sink.count, 0) > 0 {}
            close(c)
            close(fd)
        }.start()
        return Int(UInt16(bigEndian: addr.sin_port))
    }

    @Test func rawEscapesInRepliesAndPushesFromAServerAreShownAsQuestionMarks() throws {
        let esc = "\u{1b}]0;TITLE\u{07}\u{1b}[2J\u{9b}1m"
        let port = try Self.serve(
            Array(
                "* HELLO tabula 3 rev=0 id=0123456789abcdef server=x\n* EVENT 1 fav /items/1 \(esc)\n- row \(esc)\nOK done \(esc)\n"
                    .utf8))
        let c = try TabulaConnection(host: "127.0.0.1", port: port)
        let r = try c.request("PING")
        for l in r.lines + c.takePushes() { #expect(!TerminalTextTests.hasControl(l), "\(l.debugDescription)") }
        #expect(r.final == "OK done ?]0;TITLE??[2J?1m")
    }

    @Test func aPushFloodWhileAReplyIsAwaitedKeepsAtMostTheBoundAndCountsWhatItDropped() throws {
        var text = "* HELLO tabula 3 rev=0 id=0123456789abcdef server=x\n"
        for i in 1...30_000 { text += "* EVENT \(i) fav /items/1 Rusty Spork\n" }
        let port = try Self.serve(Array((text + "OK PONG\n").utf8))
        let c = try TabulaConnection(host: "127.0.0.1", port: port)
        #expect(try c.request("PING", timeout: 30).final == "OK PONG")
        let kept = c.pushes.count
        #expect(kept <= TabulaConnection.mostQueuedPushes)
        #expect(kept + c.takeDropped() == 30_000)
        #expect(c.takePushes().last == "* EVENT 30000 fav /items/1 Rusty Spork")  // the newest are kept
    }
}
