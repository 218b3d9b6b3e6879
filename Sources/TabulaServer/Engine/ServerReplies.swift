import Glibc
import TabulaModel
import TabulaProtocol
import TabulaStorage

/// Replies the server makes itself, from its own state: `STATS` and `HELP`.
enum ServerReplies {
    static func stats(
        state: SharedState, model: borrowing Model, stats: ServerStats, store: StateStore, historyOldest: UInt64
    ) -> Reply {
        let up = ContinuousClock.now - stats.started
        let watches = state.hub.withLock { $0.count }
        var fields: [(String, Int)] = [
            ("connections", stats.connections.load(ordering: .relaxed)),
            ("connections_total", stats.totalConnections.load(ordering: .relaxed)),
            ("connections_rejected", stats.rejectedConnections.load(ordering: .relaxed)),
            ("watches", watches),
            ("revision", Int(model.revision)),
            ("history_oldest", Int(historyOldest)),
            ("requests", stats.requests),
            ("events_delivered", stats.eventsDelivered.load(ordering: .relaxed)),
            ("bytes_in", stats.bytesIn),
            ("bytes_out", stats.bytesOut),
            ("slow_consumers_dropped", stats.slowConsumersDropped.load(ordering: .relaxed)),
            ("unread_output_bytes", stats.unreadOutput.load(ordering: .relaxed)),
            ("unread_output_peak_bytes", stats.unreadOutputPeak.load(ordering: .relaxed)),
            ("input_held_bytes", stats.partialInput.load(ordering: .relaxed)),
            ("snapshots", state.snapshots.inUse),
            ("snapshot_old_versions", state.snapshots.oldRevisions(before: model.revision).count),
            ("connections_timed_out", stats.timedOut.load(ordering: .relaxed)),
            ("logins_hashed", stats.loginsHashed.load(ordering: .relaxed)),
            ("logins_failed", stats.loginsFailed.load(ordering: .relaxed)),
            ("logins_waiting", stats.loginsWaiting.load(ordering: .relaxed)),
            ("logins_dropped", stats.loginsDropped.load(ordering: .relaxed)),
            ("items", model[ItemsList.self].items.count),
            ("uptime_seconds", Int(up.components.seconds)),
            ("io_threads", state.loops.count),
            ("cpus_available", ServerConfig.budget.cpus),
        ]
        if store.isShared {
            // A node of a cluster: the store's head as last seen, and how far behind it this node is.
            let head = state.storeHead.load(ordering: .relaxed)
            let applied = state.publishedRevision.load(ordering: .relaxed)
            fields += [
                ("revision_applied", Int(applied)), ("store_head", Int(head)),
                ("lag", Int(head > applied ? head - applied : 0)),
            ]
        }
        let rows = fields.map {
            Row(text: "\($0.0): \($0.1)", json: .object([("name", .string($0.0)), ("value", .int(Int64($0.1)))]))
        }
        // The store's kind, not its path: where the file lives is the operator's business (the log says).
        let words = [("store", store.kind), ("history_id", state.historyID), ("cpus_from", ServerConfig.budget.source)]
            .map { Row(text: "\($0.0): \($0.1)", json: .object([("name", .string($0.0)), ("value", .string($0.1))])) }
        return Reply(rows: rows + words, message: "tabulad \(ServerConfig.version)")
    }

    /// `CLIENTS`: a row per connection, by id, as of each loop's last second.
    static func clients(_ all: [ClientInfo]) -> Reply {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        let rows = all.sorted { $0.id < $1.id }.map { $0.row(now: Int(ts.tv_sec)) }
        return Reply(rows: rows, message: "\(rows.count) client\(rows.count == 1 ? "" : "s")")
    }

    static func help(_ verb: String?) -> Reply {
        if let verb {
            guard let v = Verb.named(verb) else {
                let hint = Verb.suggestion(for: verb).map { "; did you mean \($0.rawValue)?" } ?? ""
                return Reply(error: TabulaError(.unknown, "no verb \(verb)\(hint)"))
            }
            return Reply(
                rows: [
                    Row(text: v.usage, json: .object([("field", .string("usage")), ("value", .string(v.usage))])),
                    Row(
                        text: v.summary, json: .object([("field", .string("summary")), ("value", .string(v.summary))])),
                ], message: v.rawValue)
        }
        let rows = Verb.allCases.map { v in
            Row(
                text: "\(v.usage.padding(toLength: 34, withPad: " ", startingAt: 0)) \(v.summary)",
                json: .object([
                    ("verb", .string(v.rawValue)), ("usage", .string(v.usage)), ("summary", .string(v.summary)),
                ]))
        }
        return Reply(rows: rows, message: "\(rows.count) verbs; HELP verb for one; Protocol.md has them all")
    }
}
