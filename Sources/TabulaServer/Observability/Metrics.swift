import TabulaModel
import TabulaProtocol

/// `GET /metrics`: the server's counters, gauges and histograms in Prometheus's text format,
/// in base units (seconds, bytes), counters ending in `_total`.
extension EventLoop {
    func metricsText() -> String {
        var p = PrometheusText()
        let s = stats
        let state = executor.state
        p.family(
            "tabulad_build_info", .gauge, "The running tabulad's version (always 1).",
            [([("version", ServerConfig.version)], 1)])
        p.family(
            "tabulad_io_threads", .gauge, "I/O loop threads, chosen from the CPUs available or by --io-threads.",
            Double(state.loops.count))
        p.family(
            "tabulad_cpus_available", .gauge,
            "CPUs the process may use: its affinity and its cgroup's CPU quota, whichever allows fewer.",
            Double(ServerConfig.budget.cpus))
        p.family(
            "tabulad_uptime_seconds", .gauge, "Seconds since the server started.",
            Double((ContinuousClock.now - s.started).components.seconds))
        p.family(
            "tabulad_connections", .gauge, "Open connections by transport.",
            Listening.Kind.allCases.map { ([("transport", $0.rawValue)], Double(s.byTransport[$0.index].count)) })
        p.family(
            "tabulad_connections_accepted_total", .counter, "Connections accepted.",
            Double(s.totalConnections.load(ordering: .relaxed)))
        p.family(
            "tabulad_connections_rejected_total", .counter, "Connections refused at a connection limit.",
            Double(s.rejectedConnections.load(ordering: .relaxed)))
        p.family(
            "tabulad_connections_timed_out_total", .counter,
            "Connections closed for making no progress or sitting idle.", Double(s.timedOut.load(ordering: .relaxed)))
        p.family(
            "tabulad_commands_total", .counter, "Requests run, by verb.",
            Verb.allCases.map { ([("verb", $0.rawValue)], Double(s.requests($0))) })
        p.family(
            "tabulad_errors_total", .counter, "Error replies, by code.",
            ErrorCode.allCases.map { ([("code", $0.rawValue)], Double(s.byError[$0.index].count)) })
        trafficFamilies(&p)
        stateFamilies(&p)
        if executor.store.isShared { clusterFamilies(&p) }
        return p.text
    }

    /// Requests, commits, events and bytes.
    private func trafficFamilies(_ p: inout PrometheusText) {
        let s = stats
        let state = executor.state
        p.family("tabulad_http_requests_total", .counter, "HTTP requests answered.", Double(s.httpRequests.count))
        p.histogram(
            "tabulad_request_batch_duration_seconds", "Time an I/O loop took to answer one read's pipelined requests.",
            bounds: batchSeconds.bounds, Histogram.merged(state.loops.map(\.batchSeconds)))
        p.histogram(
            "tabulad_store_commit_duration_seconds", "Time each store commit took (durable once it returns).",
            bounds: s.commitSeconds.bounds, s.commitSeconds.reading)
        p.histogram(
            "tabulad_group_commit_changes", "Changes made durable by one commit (group commit).",
            bounds: s.commitChanges.bounds, s.commitChanges.reading)
        p.family(
            "tabulad_events_delivered_total", .counter, "Events queued to watchers.",
            Double(s.eventsDelivered.load(ordering: .relaxed)))
        p.family(
            "tabulad_watchers", .gauge, "Watches (connection and prefix pairs) registered.",
            Double(state.hub.withLock { $0.count }))
        p.family(
            "tabulad_unread_output_bytes", .gauge,
            "Bytes queued for clients and not yet written, all connections together.",
            Double(s.unreadOutput.load(ordering: .relaxed)))
        p.family(
            "tabulad_unread_output_peak_bytes", .gauge,
            "The most bytes queued for clients and not yet written at any one time since the server started.",
            Double(s.unreadOutputPeak.load(ordering: .relaxed)))
        p.family(
            "tabulad_input_held_bytes", .gauge,
            "Bytes of requests the server holds unrun (begun, held behind a wait, queued in a transaction), all connections together.",
            Double(s.partialInput.load(ordering: .relaxed)))
        p.family(
            "tabulad_snapshots", .gauge, "Snapshots being sent (WATCH … SNAPSHOT, snapshot=1).",
            Double(executor.state.snapshots.inUse))
        p.family(
            "tabulad_snapshot_old_versions", .gauge,
            "Old versions of the model (before the newest revision) kept alive by snapshots being sent.",
            Double(
                executor.state.snapshots.oldRevisions(before: executor.state.publishedRevision.load(ordering: .relaxed))
                    .count))
        p.family(
            "tabulad_slow_consumers_dropped_total", .counter, "Connections dropped for not reading their output.",
            Double(s.slowConsumersDropped.load(ordering: .relaxed)))
        p.family(
            "tabulad_output_queue_max_bytes", .gauge,
            "The largest output queued for one connection (as of each loop's last second).",
            Double(state.loops.map { $0.largestQueued.load(ordering: .relaxed) }.max() ?? 0))
        p.family(
            "tabulad_received_bytes_total", .counter, "Bytes read from clients.",
            Double(s.bytesIn))
        p.family(
            "tabulad_sent_bytes_total", .counter, "Bytes written to clients.",
            Double(s.bytesOut))
    }

    /// Revisions, lists and logins.
    private func stateFamilies(_ p: inout PrometheusText) {
        let s = stats
        let state = executor.state
        p.family(
            "tabulad_revision", .gauge, "The newest published revision.",
            Double(state.publishedRevision.load(ordering: .relaxed)))
        p.family(
            "tabulad_history_oldest_revision", .gauge, "The oldest revision WATCH ... FROM can replay.",
            Double(state.reading { executor.retainedOldest($0) }))
        let lists = state.reading { $0.model.rootListing(Viewer()) }
        p.family(
            "tabulad_list_entries", .gauge,
            "Entries at the top of each list (items, settings, catalog nodes, menu sections, orders).",
            lists.rows.compactMap(Metrics.nameAndCount).map { ([("list", $0.0)], Double($0.1)) })
        p.family(
            "tabulad_logins_hashed_total", .counter, "Logins checked against their slow hash.",
            Double(s.loginsHashed.load(ordering: .relaxed)))
        p.family(
            "tabulad_authentication_failures_total", .counter, "Logins refused (wrong name or secret).",
            Double(s.loginsFailed.load(ordering: .relaxed)))
    }

    /// A cluster node's revisions and its waits for the head row.
    private func clusterFamilies(_ p: inout PrometheusText) {
        let s = stats
        let state = executor.state
        let head = state.storeHead.load(ordering: .relaxed),
            applied = state.publishedRevision.load(ordering: .relaxed)
        p.family(
            "tabulad_cluster_applied_revision", .gauge, "The newest revision this node has applied.",
            Double(applied))
        p.family(
            "tabulad_cluster_store_head_revision", .gauge,
            "The shared store's head revision, as this node last saw it.", Double(head))
        p.family(
            "tabulad_cluster_lag_revisions", .gauge, "Revisions this node is behind the store's head.",
            Double(head > applied ? head - applied : 0))
        p.histogram(
            "tabulad_cluster_head_lock_wait_seconds", "Time a write turn waited for the head row's lock.",
            bounds: s.headLockSeconds.bounds, s.headLockSeconds.reading)
    }

    /// The `/clients` body: the one made this second while no connection came or went here,
    /// else made now (O(connections): about 15 ms of CPU at 5,000 of them, which every
    /// request of a scraper in a loop paid before).
    func clientsBody() -> [UInt8] {
        if let page = clientsPage, page.second == nowSeconds { return page.body }
        let body = ClientInfo.json(allClients(), now: nowSeconds)
        clientsPage = (nowSeconds, body)
        return body
    }

    /// Why the server should not be sent traffic now, or nil when it is ready.
    func readiness() -> String? {
        if shuttingDown { return "shutting down" }
        if let why = executor.state.storeRefusal.withLock({ $0 }) { return why }
        if executor.store.isShared {
            let head = executor.state.storeHead.load(ordering: .relaxed)
            let applied = executor.state.publishedRevision.load(ordering: .relaxed)
            if head > applied && head - applied > config.readyLag {
                return "this node is \(head - applied) revisions behind the store (more than \(config.readyLag))"
            }
        }
        return nil
    }

    /// Every connection of every loop, by id (this loop's as of now, the others' as of their
    /// last second).
    func allClients() -> [ClientInfo] {
        refreshClients()
        return executor.state.loops.flatMap { $0.clients.withLock { $0 } }.sorted { $0.id < $1.id }
    }

    /// Lists a connection just adopted at once (the once-a-second refresh would leave it out of
    /// a CLIENTS it asks in its first second).
    func listNewClient(_ c: Connection) {
        let info = ClientInfo(
            id: c.id.raw, address: "\(c.peer)", transport: c.transport, user: nil, connectedAt: c.connectedAt,
            lastRequest: c.lastRequest, watches: 0, outputQueued: 0, replayAt: nil, replayThrough: nil)
        clients.withLock { $0.append(info) }
    }

    /// Records this loop's connections for `CLIENTS` and `/metrics`.
    func refreshClients() {
        let watches = executor.state.hub.withLock { hub in conns.values.map { hub.watchCount(of: $0.id) } }
        let infos = zip(conns.values, watches).map { c, w in
            ClientInfo(
                id: c.id.raw, address: "\(c.peer)", transport: c.transport, user: c.session.user?.name,
                connectedAt: c.connectedAt, lastRequest: c.lastRequest, watches: w,
                outputQueued: c.output.count + c.deferredCount, replayAt: c.replay?.cursor,
                replayThrough: c.replay?.plan.through, codec: c.codec.map { _ in c.session.format.rawValue },
                name: c.codec?.clientName)
        }
        clients.withLock { $0 = infos }
        handle.largestQueued.store(infos.map(\.outputQueued).max() ?? 0, ordering: .relaxed)
    }
}

enum Metrics {
    /// A `LS /` row's list name and count.
    static func nameAndCount(_ row: Row) -> (String, Int)? {
        guard case .object(let pairs) = row.json,
            case .string(let name)? = pairs.first(where: { $0.0 == "name" })?.1,
            case .int(let n)? = pairs.first(where: { $0.0 == "count" })?.1
        else { return nil }
        return (name, Int(n))
    }
}
