import TabulaProtocol

/// Titles and names as people type them: never empty or blank, anywhere.
enum Title {
    /// Whether `s` is empty or only white space.
    static func isBlank(_ s: String) -> Bool { s.unicodeScalars.allSatisfy { $0.properties.isWhitespace } }

    /// `s` when it is a usable title of `what` ("a setting"); otherwise an error saying so.
    static func checked(_ s: String, of what: String) throws -> String {
        guard !isBlank(s) else { throw TabulaError(.invalid, "the title of \(what) cannot be empty or blank") }
        return s
    }

    /// The new title from fields that may only set `title` (checked before anything changes).
    static func only(_ fields: [FieldAssignment], at path: String, known: String = "title") throws -> String {
        var title: String?
        for f in fields {
            guard f.field == "title" else {
                throw TabulaError(.invalid, "\(path) has no field '\(f.field)'; it has \(known)")
            }
            title = try checked(f.value, of: path)
        }
        guard let title else { throw TabulaError(.syntax, "SET needs field=value") }
        return title
    }
}

/// `1 item`, `2 items`.
func plural(_ n: Int, _ word: String, _ many: String? = nil) -> String {
    n == 1 ? word : many ?? word + "s"
}
