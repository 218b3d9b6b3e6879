// Built normally this runs the corpus given as arguments once (a smoke check);
// built with `--sanitize fuzzer`, libFuzzer supplies main and calls `fuzz` itself.
import Foundation

for path in CommandLine.arguments.dropFirst() {
    guard let data = FileManager.default.contents(atPath: path) else { continue }
    let bytes = [UInt8](data)
    _ = bytes.withUnsafeBufferPointer { fuzz($0.baseAddress ?? UnsafePointer(bitPattern: 1)!, $0.count) }
}
