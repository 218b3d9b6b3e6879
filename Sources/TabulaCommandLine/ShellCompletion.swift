/// Shell completion scripts written from a tool's declarations (`tabula --completion SHELL`),
/// so the options a shell offers are the ones `--help` lists.
extension CommandLineSpec {
    /// The shells a script can be written for.
    public static let completionShells = ["bash", "zsh", "fish"]

    /// A completion script for `shell` (one of `completionShells`), completing the options,
    /// `words` (subcommands) and files for options whose value is a FILE or PATH.
    public func completionScript(shell: String, words: [String] = []) -> String? {
        let fn = "_" + String(tool.map { $0 == " " || $0 == "-" ? "_" : $0 })
        let names = options.flatMap(\.names)
        let files = options.filter { ($0.value ?? "").contains("FILE") || ($0.value ?? "").contains("PATH") }.flatMap(
            \.names)
        func firstLine(_ o: OptionSpec) -> String {
            String((o.help.split(separator: "\n").first ?? "").filter { $0 != "'" && $0 != "[" && $0 != "]" })
        }
        switch shell {
        case "bash":
            return """
                # bash completion for \(tool) (source it, or put it in /etc/bash_completion.d/\(tool))
                \(fn)() {
                    local cur="${COMP_WORDS[COMP_CWORD]}" prev="${COMP_WORDS[COMP_CWORD-1]}"
                    case "$prev" in
                        \(files.isEmpty ? "__none__" : files.joined(separator: "|"))) COMPREPLY=($(compgen -f -- "$cur")); return ;;
                    esac
                    COMPREPLY=($(compgen -W "\((names + words).joined(separator: " "))" -- "$cur"))
                }
                complete -F \(fn) \(tool)

                """
        case "zsh":
            let specs = options.map { o -> String in
                let long = o.names.last ?? ""
                let value =
                    o.value.map { v in
                        ":\(String(v.filter { $0 != ":" && $0 != "[" && $0 != "]" })):"
                            + ((v.contains("FILE") || v.contains("PATH")) ? "_files" : "")
                    } ?? ""
                return "    '\(long)[\(firstLine(o))]\(value)'"
            }
            return "#compdef \(tool)\n_arguments \\\n" + specs.joined(separator: " \\\n")
                + (words.isEmpty ? "" : " \\\n    '1:command:(\(words.joined(separator: " ")))'") + "\n"
        case "fish":
            let lines = options.map { o -> String in
                var l = "complete -c \(tool)"
                for n in o.names { l += n.hasPrefix("--") ? " -l \(n.dropFirst(2))" : " -s \(n.dropFirst())" }
                if o.value != nil {
                    l += ((o.value ?? "").contains("FILE") || (o.value ?? "").contains("PATH")) ? " -r -F" : " -r"
                }
                return l + " -d '\(firstLine(o))'"
            }
            return (lines + words.map { "complete -c \(tool) -n '__fish_use_subcommand' -a \($0)" }).joined(
                separator: "\n") + "\n"
        default:
            return nil
        }
    }
}

extension CommandLineSpec {
    /// The tool's man page (troff `man` macros), written from the same declarations as
    /// `--help`: `tool --man > tool.1`.
    public var manPage: String {
        func esc(_ s: String) -> String {
            let t = s.replacingBackslashes()
            return t.hasPrefix(".") || t.hasPrefix("'") ? "\\&" + t : t
        }
        let name = tool.split(separator: " ").joined(separator: "-")
        var out = ".TH \(name.uppercased()) 1\n.SH NAME\n\(esc(name)) \\- \(esc(summary))\n.SH SYNOPSIS\n.nf\n"
        for u in usage { out += esc(u) + "\n" }
        out += ".fi\n.SH OPTIONS\n"
        for o in options {
            out +=
                ".TP\n" + o.names.map { "\\fB\(esc($0))\\fR" }.joined(separator: ", ")
                + (o.value.map { " \\fI\(esc($0))\\fR" } ?? "") + "\n"
            out += o.help.split(separator: "\n").map { esc(String($0)) }.joined(separator: "\n") + "\n"
        }
        if !epilogue.isEmpty {
            out +=
                ".SH NOTES\n.nf\n"
                + epilogue.split(separator: "\n", omittingEmptySubsequences: false).map { esc(String($0)) }.joined(
                    separator: "\n") + "\n.fi\n"
        }
        return out
    }
}

extension String {
    /// Backslashes written as troff's `\e`.
    fileprivate func replacingBackslashes() -> String {
        var out = ""
        for c in self { if c == "\\" { out += "\\e" } else { out.append(c) } }
        return out
    }
}
