import Foundation
import Testing

@testable import TabulaCommandLine

/// One declaration parses the command line and writes its help.
@Suite struct CommandLineSpecTests {
    let spec = CommandLineSpec(
        tool: "demo", summary: "a demo", usage: ["demo [options] [FILE]"],
        options: [
            OptionSpec("-p", "--port", value: "PORT", help: "the port"),
            OptionSpec("-c", "--command", value: "LINE", repeatable: true, help: "a line\nrun in order"),
            OptionSpec("--json", help: "JSON"),
            OptionSpec("--sync", value: "full|normal", help: "how"),
        ], epilogue: "EXIT STATUS: 0 ok")

    @Test func optionsValuesFlagsAndPositionalsAreRead() throws {
        let p = try spec.parse(["-p", "9000", "--json", "-c", "PING", "--command=LS", "file.txt", "--sync", "full"])
        #expect(try p.int("--port", in: 1...65535) == 9000)
        #expect(p.has("--json"))
        #expect(p.strings("--command") == ["PING", "LS"])
        #expect(p.positionals == ["file.txt"])
        #expect(try p.choice("--sync", ["full", "normal"]) == "full")
        #expect(try spec.parse(["--", "-p"]).positionals == ["-p"])
    }

    @Test func dashHIsHelpUnlessTheToolTakesItForItself() throws {
        #expect(try spec.parse(["-h"]).has("--help"))
        let host = CommandLineSpec(
            tool: "cli", summary: "s", usage: ["cli"],
            options: [OptionSpec("-h", "--host", value: "HOST", help: "the host")])
        #expect(try host.parse(["-h", "a"]).string("--host") == "a")
        #expect(host.help.contains("  --help") && !host.help.contains("-h, --help"))
    }

    @Test func aBashCompletionScriptFromTheDeclarationsCompletesTheOptions() throws {
        let script = try #require(spec.completionScript(shell: "bash", words: ["import"]))
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/bin/bash")
        p.arguments = [
            "-c",
            script
                + "\nCOMP_WORDS=(demo --po); COMP_CWORD=1; _demo; echo \"${COMPREPLY[*]}\"; COMP_WORDS=(demo im); _demo; echo \"${COMPREPLY[*]}\"",
        ]
        let out = Pipe()
        p.standardOutput = out
        try p.run()
        p.waitUntilExit()
        let lines = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self).split(
            separator: "\n")
        #expect(lines == ["--port", "import"])
        #expect(
            spec.completionScript(shell: "fish")?.contains("complete -c demo -s p -l port -r -d 'the port'") == true)
        #expect(
            spec.completionScript(shell: "zsh")?.hasPrefix("#compdef demo\n") == true
                && spec.completionScript(shell: "tcsh") == nil)
    }

    @Test func mistakesAreRefusedWithAMessageThatSaysWhatToDo() {
        func message(_ args: [String]) -> String {
            do {
                _ = try spec.parse(args)
                return "accepted"
            } catch {
                return error.message
            }
        }
        #expect(message(["--jsn"]) == "unknown option '--jsn'; did you mean --json?; see demo --help")
        #expect(message(["-p"]) == "-p needs a value (PORT); see demo --help")
        #expect(message(["--json=yes"]) == "--json takes no value; see demo --help")
        #expect(message(["-p", "1", "--port", "2"]) == "--port is given twice; give it once")
        #expect(throws: UsageError.self) { try spec.parse(["-p", "x"]).int("--port", in: 1...65535) }
        #expect(throws: UsageError.self) { try spec.parse(["--sync", "often"]).choice("--sync", ["full", "normal"]) }
    }

    @Test func helpIsWrittenFromTheDeclarations() {
        let help = spec.help
        #expect(help.hasPrefix("demo — a demo\n\nUSAGE:\n  demo [options] [FILE]\n\nOPTIONS:\n"))
        #expect(help.contains("  -p, --port PORT"))
        #expect(help.contains("a line\n") && help.contains(" run in order\n"))
        #expect(help.contains("  -h, --help") && help.contains("  --version"))
        #expect(help.hasSuffix("EXIT STATUS: 0 ok\n"))
    }
}

@Suite struct ConfigFileTests {
    static let spec = CommandLineSpec(
        tool: "t", summary: "s", usage: ["t"],
        options: [
            OptionSpec("--http", value: "N", help: "h"), OptionSpec("--memory", help: "m"),
            OptionSpec("--users", value: "FILE", help: "u"),
        ], epilogue: "")

    @Test func eachLineIsAnOptionWithoutItsDashesAndCommentsAreSkipped() throws {
        let words = try ConfigFile.arguments(
            "# the server\nhttp 8080\r\n\nmemory\nusers   /etc/tabula/users\n", spec: Self.spec, file: "f")
        #expect(words == ["--http", "8080", "--memory", "--users", "/etc/tabula/users"])
    }

    @Test func theCommandLineOverridesTheFileSinceItsWordsComeAfter() throws {
        let p = try Self.spec.parse(
            try ConfigFile.arguments("http 8080\nmemory\n", spec: Self.spec, file: "f", except: ["--http"]) + [
                "--http", "9090",
            ])
        #expect(p.has("--memory"))
        #expect(p.string("--http") == "9090")
    }

    @Test func anUnknownOptionOrAMissingValueNamesTheLine() {
        #expect(throws: UsageError.self) { try ConfigFile.arguments("htp 8080\n", spec: Self.spec, file: "f") }
        do {
            _ = try ConfigFile.arguments("memory\nhttp\n", spec: Self.spec, file: "t.conf")
            Issue.record("accepted")
        } catch {
            #expect(error.message == "t.conf line 2: http needs a value (N)")
        }
        #expect(throws: UsageError.self) { try ConfigFile.arguments("memory yes\n", spec: Self.spec, file: "f") }
    }
}
