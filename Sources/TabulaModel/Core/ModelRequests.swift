import TabulaProtocol

/// Requests: reads answered from the lists, writes routed to the list their path names.
extension Model {
    /// Answers a command that changes nothing shared (LS, SHOW, CD, PWD, FILTER, BANDS
    /// without arguments, COMPLETE); `viewer` may change. Nil for a write or a verb the model
    /// does not handle.
    public func read(_ command: Command, viewer: inout Viewer) -> Reply? {
        let cwd = viewer.cwd
        let moved = settle(&viewer)
        guard var reply = readAll(command, viewer: &viewer) else {
            viewer.cwd = cwd  // a write: `apply` moves it, and says so in the write's reply
            return nil
        }
        if viewer.isRestricted, let grants = viewer.grants {
            reply.rows.removeAll { $0.path.map { !viewer.sees($0.string) } ?? false }
            for i in reply.rows.indices {  // a setting's row lists only the options it sees
                guard let p = reply.rows[i].path?.string, ModelPath.parent(p) == "/settings" else { continue }
                reply.rows[i].json = grants.seenOptions(reply.rows[i].json, at: p)
            }
        }
        addRevisions(&reply, viewer: viewer)
        if let moved { reply.note(moved) }
        return reply
    }

    /// Whether `viewer`'s current path no longer exists for it, so that its next read moves
    /// it (and says so): such a read's reply is not one to cache or to answer from a cache.
    public func mustSettle(_ viewer: Viewer) -> Bool {
        guard viewer.cwd != "/", case .failure = resolve(viewer.cwd, viewer: viewer) else { return false }
        return true
    }

    /// Moves a current path that no longer exists for `viewer` (another client removed it)
    /// up to its nearest existing ancestor; returns the notice for the reply, or nil.
    func settle(_ viewer: inout Viewer) -> String? {
        guard viewer.cwd != "/", case .failure = resolve(viewer.cwd, viewer: viewer) else { return nil }
        let old = viewer.cwd
        while viewer.cwd != "/", case .failure = resolve(viewer.cwd, viewer: viewer) {
            viewer.cwd = ModelPath.join(ModelPath.segments("..", cwd: viewer.cwd))
        }
        return "your current path \(old) was removed; you are now at \(viewer.cwd)"
    }

    private func readAll(_ command: Command, viewer: inout Viewer) -> Reply? {
        do {
            switch command {
            case .ls(let path, let limit, let after):
                let t = try resolve(path, viewer: viewer).get()
                guard case .place(let i, let ref) = t else { return rootListing(viewer) }
                if lists[i].isList(ref) {
                    return try lists[i].list(ref, limit: limit ?? Model.defaultPage, after: after, viewer: viewer)
                }
                return try showEntry(i, ref, viewer: viewer)
            case .show(let path):
                guard case .place(let i, let ref) = try resolve(path, viewer: viewer).get() else {
                    return rootListing(viewer)
                }
                return try showEntry(i, ref, viewer: viewer)
            case .cd(let path):
                let t = try resolve(path ?? "/", viewer: viewer).get()
                guard isList(t) else {
                    throw TabulaError(.invalid, "\(self.path(of: t)) is not a list; SHOW it instead")
                }
                viewer.cwd = self.path(of: t)
                return Reply(message: viewer.cwd)
            case .pwd:
                return Reply(message: viewer.cwd)  // `settle` moved it up if it was removed
            case .filter(let f):
                return try filter(f, viewer: &viewer)
            case .bands(let args) where args.isEmpty:
                return self[ItemsList.self].bandsReply(viewer)
            case .complete(let line):
                let c = Completer.complete(line, model: self, viewer: viewer)
                return Reply(
                    rows: c.map { Row(text: $0, json: .object([("candidate", .string($0))])) },
                    message: "\(c.count) \(plural(c.count, "candidate"))")
            default:
                return nil
            }
        } catch let e as TabulaError {
            return Reply(error: e)
        } catch {
            return Reply(error: TabulaError(.invalid, "\(error)"))
        }
    }

    /// `LS /`: a row per list the viewer may see.
    public func rootListing(_ viewer: Viewer) -> Reply {
        let rows = lists.map { $0.summary(seenBy: viewer) }.filter { r in r.path.map { viewer.sees($0.string) } ?? true
        }
        return Reply(rows: rows, message: "\(rows.count) \(plural(rows.count, "list"))")
    }

    /// Applies one model command for `viewer`: reads as `read`; a write that changes something
    /// bumps the revision and returns its event and mutations.
    /// With `ifRev`, a write applies only if what it changes (see `conditionPath`) was last
    /// changed at or before that revision; otherwise nothing changes: `ERR CONFLICT`.
    public mutating func apply(
        _ command: Command, ifRev: UInt64? = nil, viewer: inout Viewer, now: Double, rng: inout SplitMix64
    ) -> Outcome {
        let moved = settle(&viewer)
        var out = applySettled(command, ifRev: ifRev, viewer: &viewer, now: now, rng: &rng, readFirst: true)
        if let moved { out.reply.note(moved) }
        return out
    }

    /// `apply` of a command that `read` has just declined, a write (what a server runs after
    /// trying `read`): not read again.
    public mutating func applyUnread(
        _ command: Command, ifRev: UInt64? = nil, viewer: inout Viewer, now: Double, rng: inout SplitMix64
    ) -> Outcome {
        let moved = settle(&viewer)
        var out = applySettled(command, ifRev: ifRev, viewer: &viewer, now: now, rng: &rng, readFirst: false)
        if let moved { out.reply.note(moved) }
        return out
    }

    private mutating func applySettled(
        _ command: Command, ifRev: UInt64?, viewer: inout Viewer, now: Double, rng: inout SplitMix64,
        readFirst: Bool
    ) -> Outcome {
        if readFirst, let reply = read(command, viewer: &viewer) { return Outcome(reply) }
        guard command.isWrite else { return .fail(TabulaError(.invalid, "the model does not handle this verb")) }
        do {
            // The path the write names, resolved once: for its condition, its place before and
            // the write itself.
            let resolved = Model.namedPath(command).map { resolve($0, viewer: viewer) }
            let target = conditionPath(command, resolved: resolved)
            if let n = ifRev, let path = target {
                let m = changes.revision(of: path)
                if m > n {
                    return .fail(
                        TabulaError(.conflict, "\(path) changed at rev \(m), after rev \(n); SHOW it and try again"))
                }
            }
            let before = target.flatMap { placementBefore(writing: $0, resolved: resolved) }
            var out = try write(command, resolved: resolved, viewer: viewer, now: now, rng: &rng)
            if var event = out.event.take() {  // moved out and back: no copy of the event
                addContext(to: &event, before: before, found: out.entry)
                revision += 1
                event.rev = revision
                out.reply.rev = revision
                if let (i, ref) = out.entry {
                    changes.note(event, list: i, number: lists[i].number(of: ref))
                } else {
                    changes.note(event)
                }
                out.event = consume event
            }
            return out
        } catch let e as TabulaError {
            return .fail(e)
        } catch {
            return .fail(TabulaError(.invalid, "\(error)"))
        }
    }

    func filter(_ f: ItemFilter?, viewer: inout Viewer) throws -> Reply {
        let hasFavorites = self[ItemsList.self].hasFavorites(seenBy: viewer)
        switch f {
        case nil:
            let offered = hasFavorites ? "a favourite exists" : "no favourites yet"
            return Reply(message: "\(viewer.filter.rawValue); \(offered)")
        case .all?:
            viewer.filter = .all
            return Reply(message: "all")
        case .favorites?:
            // Taken with no favourite too (the seed only hides its button then): a copy kept
            // under this filter must be able to take it again on every reconnect.
            viewer.filter = .favorites
            return Reply(message: hasFavorites ? "favorites" : "favorites (none yet: lists of items are empty)")
        }
    }

    /// `command`, a write, applied; `resolved` is its named path resolved for `viewer`.
    mutating func write(
        _ command: Command, resolved: Result<Target, TabulaError>?, viewer: Viewer, now: Double, rng: inout SplitMix64
    ) throws -> Outcome {
        let path: String, w: Write, refused: (String) -> String
        switch command {
        case .select(let p, let option):
            (path, w, refused) = (
                p, .select(option), { "SELECT needs a setting (LS /settings lists them); \($0) is not one" }
            )
        case .add(let p, let args): (path, w, refused) = (p, .add(args), { "nothing can be added under \($0)" })
        case .set(let p, let fields): (path, w, refused) = (p, .set(fields), { "\($0) has no fields to SET" })
        case .rm(let p):
            (path, w, refused) = (
                p, .remove,
                {
                    "\($0) cannot be removed"
                        + ($0.split(separator: "/").count <= 1 ? "; the top-level lists always exist" : "")
                }
            )
        case .mv(let p, let position):
            (path, w, refused) = (p, .move(to: position), { "MV moves items; \($0) is not an item" })
        case .fav(let p, let action):
            (path, w, refused) = (p, .favorite(action), { "FAV marks items; \($0) is not an item" })
        case .bands(let args): (path, w, refused) = ("/items", .bands(args), { "\($0) has no bands" })
        case .order(let p): return try order(p, viewer: viewer, now: now, rng: &rng)
        default: throw TabulaError(.invalid, "not a write")
        }
        let t = try (resolved ?? resolve(path, viewer: viewer)).get()
        guard case .place(let i, let ref) = t,
            let out = try write(w, list: i, at: ref, viewer: viewer, now: now, rng: &rng)
        else {
            throw TabulaError(.invalid, refused(self.path(of: t)))
        }
        return out
    }

    /// `w` at `ref` of list `i`, written in place through the buffer (no copy of the list's
    /// existential); nil when the list takes no such write there.
    mutating func write(_ w: Write, list i: Int, at ref: Ref, viewer: Viewer, now: Double, rng: inout SplitMix64) throws
        -> Outcome?
    {
        try lists.withUnsafeMutableBufferPointer { try $0[i].write(w, at: ref, viewer: viewer, now: now, rng: &rng) }
    }

    /// `ORDER`: the entry named by path, or by its bare name when that is unique among the
    /// entries the viewer may read, appended to the order list.
    mutating func order(_ path: String, viewer: Viewer, now: Double, rng: inout SplitMix64) throws -> Outcome {
        var target: Target?
        if !path.utf8.contains(UInt8(ascii: "/")) {
            let matches = lists.indices.flatMap { i in
                lists[i].places(bareNamed: path).map { Target.place(list: i, $0) }
            }.filter { viewer.reaches(self.path(of: $0)) }
            if matches.count > 1 {
                throw TabulaError(
                    .invalid,
                    "\(path) is on the menu more than once: \(matches.map { self.path(of: $0) }.joined(separator: ", ")); give the full path"
                )
            }
            target = matches.first
            // A bare name that is no entry may be a section of the menu (`ORDER pizza`).
            if target == nil, case .success(let section) = resolve("/menu/" + path, viewer: viewer) { target = section }
        }
        if target == nil {
            switch resolve(path, viewer: viewer) {
            case .success(let t): target = t
            case .failure(let e):
                if let s = EditDistance.closest(to: path, in: bareNames(for: viewer)) {
                    throw TabulaError(.notFound, "no menu entry \(path); did you mean \(s)?")
                }
                throw e
            }
        }
        guard let t = target, case .place(let i, let ref) = t, let line = lists[i].orderLine(ref) else {
            let named = target.map { self.path(of: $0) } ?? path
            let listing =
                target.map { isList($0) && named.hasPrefix("/menu/") } == true
                ? " but a section of the menu; LS \(named) lists its entries" : ""
            throw TabulaError(
                .invalid, "ORDER takes a menu entry such as /menu/pizza/margherita; \(named) is not one\(listing)")
        }
        guard let o = Model.rootIndex[OrdersList.name],
            let out = try write(
                .order(entry: line.entry, title: line.title), list: o, at: .top, viewer: viewer, now: now, rng: &rng)
        else {
            throw TabulaError(.invalid, "there is no order list to order to")
        }
        return out
    }
}

extension Model {
    /// What a write's `IF REV` compares: the entry it changes (SELECT, SET, RM, MV, FAV), the
    /// list it adds to (ADD; a price section counts as /items, which holds every item), the
    /// order list (ORDER) or /items (BANDS). Nil when the path does not resolve: the write
    /// then fails as it would without the condition (NOTFOUND).
    func conditionPath(_ command: Command, resolved: Result<Target, TabulaError>?) -> String? {
        switch command {
        case .order: return "/" + OrdersList.name
        case .bands: return "/" + ItemsList.name
        default: break
        }
        guard case .success(let t)? = resolved else { return nil }
        let path = self.path(of: t)
        if case .place(let i, let ref) = t, ref != .top, Model.conditionIsItsList(i, ref, in: self) {
            return "/" + ItemsList.name
        }
        return path
    }

    /// Whether a write at `ref` of list `i` is conditioned on its whole list (a price section
    /// of the item store: its items' order is the list's).
    static func conditionIsItsList(_ i: Int, _ ref: Ref, in model: borrowing Model) -> Bool {
        i == Model.itemsIndex && model.lists[i].isList(ref)
    }

    /// The path a write names, as typed (nil: ORDER, BANDS and what is no write).
    static func namedPath(_ command: Command) -> String? {
        switch command {
        case .select(let p, _), .add(let p, _), .set(let p, _), .rm(let p), .mv(let p, _), .fav(let p, _): p
        default: nil
        }
    }

    /// SHOW: an entry's fields, then the revision of its last change (a list's SHOW, its
    /// children, is left as it is).
    func showEntry(_ i: Int, _ ref: Ref, viewer: Viewer) throws -> Reply {
        var r = try lists[i].show(ref, viewer: viewer)
        guard r.error == nil, let first = r.rows.first, case .object(let pairs) = first.json.resolved,
            pairs.first?.0 == "field"
        else { return r }
        r.rows.append(revisionRow(lists[i].path(of: ref)))
        return r
    }

    /// The field row SHOW ends with: the revision of the entry's last change.
    func revisionRow(_ path: String) -> Row {
        let rev = changes.revision(of: path)
        return Row(
            text: "rev: \(rev)", json: .object([("field", .string("rev")), ("value", .int(Int64(clamping: rev)))]))
    }
}
