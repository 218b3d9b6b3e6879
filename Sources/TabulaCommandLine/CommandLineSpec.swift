import Glibc
import TabulaProtocol

/// One option of a command line: its names, its value's placeholder (none for a flag) and
/// what it does. The same declaration parses and writes `--help`.
public struct OptionSpec: Sendable {
    /// Its names, short first: `["-p", "--port"]`. The last is its key.
    public var names: [String]
    /// The value's placeholder (`PORT`), or nil for a flag that takes none.
    public var value: String?
    /// What it does, for `--help` (may hold line breaks).
    public var help: String
    /// Whether it may be given more than once (each value is kept, in order).
    public var repeatable: Bool

    /// Declares an option.
    public init(_ names: String..., value: String? = nil, repeatable: Bool = false, help: String) {
        self.names = names
        self.value = value
        self.help = help
        self.repeatable = repeatable
    }

    /// The name values are kept under.
    public var key: String { names.last ?? "" }
}

/// Why a command line could not be read; the message says what to do.
public struct UsageError: Error, CustomStringConvertible, Sendable {
    /// What was wrong and what to do.
    public var message: String
    /// Makes one.
    public init(_ message: String) { self.message = message }
    /// The message.
    public var description: String { message }
}

/// The exit statuses of the three executables: one number means one thing everywhere.
public enum ExitStatus: Int32, Sendable {
    /// Success (for `tabulad`: a clean shutdown).
    case ok = 0
    /// A usage error: a bad option or value, an unreadable file.
    case usage = 1
    /// What it needs is not there: the server could not start (port in use, unusable data
    /// file), or the client could not reach the server or lost it.
    case unavailable = 2
    /// A client script failed (an `ERR`, a failed `\expect` or `\wait`).
    case script = 3
}

/// A tool's whole command line: what it is, how it is called, its options and the text
/// after them. `parse` reads arguments against it; `help` is written from it.
public struct CommandLineSpec: Sendable {
    /// The executable's name.
    public var tool: String
    /// One line on what it is.
    public var summary: String
    /// Ways to call it, one per line.
    public var usage: [String]
    /// The options, in the order `--help` lists them (`--help` and `--version` are added).
    public var options: [OptionSpec]
    /// Text after the options: environment, signals, exit statuses.
    public var epilogue: String

    /// Declares a command line.
    public init(tool: String, summary: String, usage: [String], options: [OptionSpec], epilogue: String = "") {
        self.tool = tool
        self.summary = summary
        self.usage = usage
        // `-h` too, unless the tool's own options take it (tabula's host, as redis-cli's).
        let help =
            options.contains { $0.names.contains("-h") }
            ? OptionSpec("--help", help: "print this help and exit")
            : OptionSpec("-h", "--help", help: "print this help and exit")
        self.options =
            options + [
                help, OptionSpec("--version", help: "print the version and exit"),
                OptionSpec("--man", help: "print this help as a man page (troff) and exit"),
            ]
        self.epilogue = epilogue
    }

    /// `--help`, written from the declarations.
    public var help: String {
        var out = "\(tool) — \(summary)\n\nUSAGE:\n"
        for u in usage { out += "  \(u)\n" }
        out += "\nOPTIONS:\n"
        let heads = options.map { o in "  " + o.names.joined(separator: ", ") + (o.value.map { " \($0)" } ?? "") }
        let width = min(28, (heads.map(\.count).max() ?? 0) + 2)
        for (o, head) in zip(options, heads) {
            let lines = o.help.split(separator: "\n", omittingEmptySubsequences: false)
            if head.count + 1 > width {
                out += head + "\n"
                for l in lines { out += String(repeating: " ", count: width) + l + "\n" }
            } else {
                out +=
                    head + String(repeating: " ", count: width - head.count) + (lines.first.map(String.init) ?? "")
                    + "\n"
                for l in lines.dropFirst() { out += String(repeating: " ", count: width) + l + "\n" }
            }
        }
        if !epilogue.isEmpty { out += "\n" + epilogue + (epilogue.hasSuffix("\n") ? "" : "\n") }
        return out
    }

    /// Reads a tool's own arguments as `parse` does, and answers `--help` and `--version`
    /// itself: prints the help or `tool version` on stdout and exits with status 0.
    public func parseOrAnswer(_ arguments: [String], version: String) throws(UsageError) -> ParsedArguments {
        let p = try parse(arguments)
        if p.has("--help") {
            print(help, terminator: "")
            exit(ExitStatus.ok.rawValue)
        }
        if p.has("--version") {
            print("\(tool) \(version)")
            exit(ExitStatus.ok.rawValue)
        }
        if p.has("--man") {
            print(manPage, terminator: "")
            exit(ExitStatus.ok.rawValue)
        }
        return p
    }

    /// Reads `arguments` (without the program name). Words that are not options are kept as
    /// positionals, in order; `--` ends the options.
    public func parse(_ arguments: [String]) throws(UsageError) -> ParsedArguments {
        var byName: [String: OptionSpec] = [:]
        for o in options { for n in o.names { byName[n] = o } }
        var parsed = ParsedArguments(spec: self)
        var args = arguments[...]
        while let a = args.popFirst() {
            if a == "--" {
                parsed.positionals += args
                break
            }
            var name = a
            var inline: String?
            if a.hasPrefix("--"), let eq = a.firstIndex(of: "=") {
                name = String(a[..<eq])
                inline = String(a[a.index(after: eq)...])
            }
            guard a.hasPrefix("-") && a.count > 1 else {
                parsed.positionals.append(a)
                continue
            }
            guard let o = byName[name] else {
                let near = EditDistance.closest(to: name, in: byName.keys.filter { $0.hasPrefix("--") }.sorted())
                throw UsageError(
                    "unknown option '\(name)'\(near.map { "; did you mean \($0)?" } ?? ""); see \(tool) --help")
            }
            if o.value == nil {
                guard inline == nil else { throw UsageError("\(name) takes no value; see \(tool) --help") }
                parsed.values[o.key, default: []].append("")
                continue
            }
            guard let v = inline ?? args.popFirst() else {
                throw UsageError("\(name) needs a value (\(o.value ?? "")); see \(tool) --help")
            }
            if !o.repeatable && parsed.values[o.key] != nil { throw UsageError("\(name) is given twice; give it once") }
            parsed.values[o.key, default: []].append(v)
        }
        return parsed
    }
}

/// What a command line said, read through typed accessors that check the values.
public struct ParsedArguments: Sendable {
    let spec: CommandLineSpec
    /// Values by option key; a flag's value is "".
    var values: [String: [String]] = [:]
    /// The words that were not options, in order.
    public var positionals: [String] = []

    init(spec: CommandLineSpec) { self.spec = spec }

    /// The keys of the options given.
    public var keys: Set<String> { Set(values.keys) }

    /// Whether the option was given.
    public func has(_ key: String) -> Bool { values[key] != nil }

    /// The option's value, or nil when it was not given.
    public func string(_ key: String) -> String? { values[key]?.last }

    /// Every value of a repeatable option, in order.
    public func strings(_ key: String) -> [String] { values[key] ?? [] }

    /// The option's value as a whole number in `range`, or nil when it was not given.
    public func int(_ key: String, in range: ClosedRange<Int> = 0...Int.max) throws(UsageError) -> Int? {
        guard let v = string(key) else { return nil }
        guard let n = Int(v), range.contains(n) else {
            let bound =
                range.upperBound == Int.max
                ? "at least \(range.lowerBound)" : "from \(range.lowerBound) to \(range.upperBound)"
            throw UsageError("\(key) takes a whole number \(bound), not '\(v)'")
        }
        return n
    }

    /// The option's value, one of `choices`, or nil when it was not given.
    public func choice(_ key: String, _ choices: [String]) throws(UsageError) -> String? {
        guard let v = string(key) else { return nil }
        guard choices.contains(v) else {
            throw UsageError("\(key) takes \(choices.joined(separator: " or ")), not '\(v)'")
        }
        return v
    }
}
