import Foundation
import Synchronization

/// Log verbosity, from quietest.
public enum LogLevel: Int, Sendable, Comparable, CaseIterable {
    case error, warn, info, debug

    /// Parses `error|warn|info|debug`.
    public init?(name: String) {
        guard let l = LogLevel.allCases.first(where: { "\($0)" == name.lowercased() }) else { return nil }
        self = l
    }

    public static func < (a: LogLevel, b: LogLevel) -> Bool { a.rawValue < b.rawValue }
}

/// One line per event that matters, to stderr, with a UTC timestamp.
public final class Log: Sendable {
    let level: LogLevel
    let lock = Locked(())

    /// Logs at `level` and quieter.
    public init(level: LogLevel) { self.level = level }

    /// Writes `message` if `l` is enabled.
    public func log(_ l: LogLevel, _ message: @autoclosure () -> String) {
        guard l <= level else { return }
        let line = "\(Date().formatted(.iso8601)) \(String(describing: l).uppercased()) \(message())\n"
        lock.withLock { _ in FileHandle.standardError.write(Data(line.utf8)) }
    }
}
