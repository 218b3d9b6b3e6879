import Foundation
import Testing

@testable import TabulaClient

/// A script file that cannot be read is refused with the reason.
@Suite struct ReadableFileTests {
    static func problem(_ path: String) -> String {
        if case .failure(let p) = ReadableFile.text(path) { return "\(p)" }
        return "read"
    }

    @Test func aMissingFileADirectoryAndBinaryDataEachSayWhy() throws {
        #expect(Self.problem("/nope.tab") == "cannot read /nope.tab: no such file or directory")
        #expect(Self.problem("/tmp") == "cannot read /tmp: it is a directory")
        let binary = NSTemporaryDirectory() + "tabula-binary-\(UUID().uuidString)"
        try Data([0xff, 0xfe, 0x00, 0xc3]).write(to: URL(fileURLWithPath: binary))
        defer { try? FileManager.default.removeItem(atPath: binary) }
        #expect(Self.problem(binary) == "cannot read \(binary): it is not UTF-8 text")
    }
}
