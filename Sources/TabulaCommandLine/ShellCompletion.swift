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
        let files = options.filter { ($0.value ?? "").contains("FILE") || ($0.value ?? "").contains("PATH") }.flatMap(\.names)
        func firstLine(_ o: OptionSpec) -> String { String((o.help.split(separator: "\n").first ?? "").filter { $0 != "'" && $0 != "[" && $0 != "]" }) }
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
                let value = o.value.map { v in ":\(String(v.filter { $0 != ":" && $0 != "[" && $0 != "]" })):" + ((v.contains("FILE") || v.contains("PATH")) ? "_files" : "") } ?? ""
                return "    '\(long)[\(firstLine(o))]\(value)'"
            }
            return "#compdef \(tool)\n_arguments \\\n" + specs.joined(separator: " \\\n") + (words.isEmpty ? "" : " \\\n    '1:command:(\(words.joined(separator: " ")))'") + "\n"
        case "fish":
            let lines = options.map { o -> String in
                var l = "complete -c \(tool)"
                for n in o.names { l += n.hasPrefix("--") ? " -l \(n.dropFirst(2))" : " -s \(n.dropFirst())" }
                if o.value != nil { l += ((o.value ?? "").contains("FILE") || (o.value ?? "").contains("PATH")) ? " -r -F" : " -r" }
                return l + " -d '\(firstLine(o))'"
            }
            return (lines + words.map { "complete -c \(tool) -n '__fish_use_subcommand' -a \($0)" }).joined(separator: "\n") + "\n"
        default:
            return nil
        }
    }
}
