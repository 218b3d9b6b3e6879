// An example of the TabulaClient library's public API alone: keeps one list of a Tabula
// server live and prints each revision's change as a diffable data source would apply it.
//
//   swift run tabula-livelist-example 127.0.0.1 8228 /items [changes]
//
// It stops after `changes` changes (default: never), printing the rows it then holds. On a
// server with users it logs in as $TABULA_USER with the secret $TABULA_SECRET, as `tabula` does.
import Foundation
import TabulaClient

@MainActor
func main() async {
    let args = CommandLine.arguments
    guard args.count >= 4, let port = Int(args[2]) else {
        print("usage: tabula-livelist-example HOST PORT PATH [CHANGES]")
        exit(2)
    }
    let most = args.count > 4 ? Int(args[4]) ?? Int.max : Int.max
    let env = ProcessInfo.processInfo.environment
    let login = env["TABULA_USER"].map { Credentials(name: $0, secret: env["TABULA_SECRET"] ?? "") }
    let list = LiveList(path: args[3], endpoint: .tcp(host: args[1], port: port), credentials: login)
    let runner = Task { await list.run() }
    var seen = 0
    for await change in list.changes {
        if change.reset {
            print("rev \(change.rev): \(list.replica.entries.count) rows (snapshot)")
        } else {
            let parts = [
                ("+", change.insertedIDs), ("-", change.deletedIDs), ("~", change.movedIDs), ("*", change.updatedIDs),
            ]
            print(
                "rev \(change.rev): "
                    + parts.filter { !$0.1.isEmpty }.map { "\($0.0)\($0.1.joined(separator: ","))" }.joined(
                        separator: " "))
        }
        seen += 1
        if seen >= most { break }
    }
    for s in list.sections {
        if let name = s.name { print("== \(name) (\(s.entries.count))") }
        for e in s.entries { print("  \(e.path) rev \(e.rev)") }
    }
    runner.cancel()
}

await main()
