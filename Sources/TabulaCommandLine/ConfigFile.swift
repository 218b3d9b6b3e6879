/// A config file for a tool's options (`tabulad --config FILE`): one option per line, named
/// as on the command line without its dashes, then its value (`http 8080`, `users
/// /etc/tabula/users`, or `memory` for a flag); `#` starts a comment line. It reads as the
/// command line's words placed before the real ones; an option the command line gives is
/// left out of the file's, so the command line overrides the file.
public enum ConfigFile {
    /// The options that cannot come from a file (they end the run or name the file).
    static let excluded: Set<String> = ["--help", "--version", "--man", "--config"]

    /// The command-line words `text` stands for, checked against `spec`.
    public static func arguments(_ text: String, spec: CommandLineSpec, file: String, except given: Set<String> = [])
        throws(UsageError) -> [String]
    {
        var byKey: [String: OptionSpec] = [:]
        for o in spec.options where !excluded.contains(o.key) { byKey[o.key] = o }
        var words: [String] = []
        for (n, raw) in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).enumerated() {
            let line = String(raw).trimmingCharacters(in: [" ", "\t", "\r"])
            if line.isEmpty || line.hasPrefix("#") { continue }
            let parts = line.split(maxSplits: 1, whereSeparator: { $0 == " " || $0 == "\t" })
            let key = "--" + parts[0]
            guard let o = byKey[key] else {
                throw UsageError(
                    "\(file) line \(n + 1): no option '\(parts[0])'; write one option of tabulad --help per line without its dashes, such as: http 8080"
                )
            }
            if given.contains(key) { continue }
            let value = parts.count > 1 ? String(parts[1]).trimmingCharacters(in: [" ", "\t"]) : ""
            if o.value == nil {
                guard value.isEmpty else { throw UsageError("\(file) line \(n + 1): \(parts[0]) takes no value") }
                words.append(key)
            } else {
                guard !value.isEmpty else {
                    throw UsageError("\(file) line \(n + 1): \(parts[0]) needs a value (\(o.value ?? "VALUE"))")
                }
                words += [key, value]
            }
        }
        return words
    }
}

extension String {
    fileprivate func trimmingCharacters(in set: Set<Character>) -> String {
        var s = self[...]
        while let f = s.first, set.contains(f) { s = s.dropFirst() }
        while let l = s.last, set.contains(l) { s = s.dropLast() }
        return String(s)
    }
}
