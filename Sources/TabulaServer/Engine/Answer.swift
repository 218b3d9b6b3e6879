import TabulaProtocol

/// One reply as a value: made under a lock (on a loop, on the engine, in the login pool) and
/// encoded after it is released, by the loop of the connection it answers, in the format
/// the connection had when the request ran.
enum Answer: Sendable {
    /// Already bytes: a cached reply, a codec's own answer.
    case bytes([UInt8], close: Bool = false)
    /// A watcher's own event, as its watch of `channel` sends it (`SharedState.ownEvent`).
    case event(Event, channel: String, format: WireFormat)
    /// A request's execution, with what encoding it needs (and the cache entry it makes).
    case run(Execution, tag: String?, format: WireFormat, cacheKey: ReplyCache.Key?, revision: UInt64)

    /// Whether it answers a request with an error.
    var isRefusal: Bool {
        if case .run(let e, _, _, _, _) = self { return e.outcome.reply.error != nil }
        return false
    }

    /// The reply `reply` to a request tagged `tag`, in `format`, cached nowhere.
    static func reply(_ reply: consuming Reply, tag: String?, format: WireFormat) -> Answer {
        .run(Execution(reply), tag: tag, format: format, cacheKey: nil, revision: 0)
    }

    /// Appends `answers`, encoded (and cached where they may be); returns whether the last
    /// asked to close and the replay it began, if any.
    static func encode(_ answers: borrowing [Answer], cache: inout ReplyCache, into out: inout [UInt8]) -> (
        close: Bool, replay: ReplayPlan?
    ) {
        var close = false
        var replay: ReplayPlan?
        // Read in place by index (popping each off a reversed copy moved it twice: a copy
        // and a destroy of the whole enum per answer).
        for i in answers.indices {
            switch answers[i] {
            case .bytes(let b, let closes):
                out.append(contentsOf: b)
                close = closes
            case .event(let e, let channel, let format):
                Codec.event(e, channel: channel, format: format, into: &out)
                close = false
            case .run(let e, let tag, let format, let key, let revision):
                replay = e.replay
                if let key, replay == nil {
                    let bytes = RequestExecutor.encode(e, tag: tag, format: format)
                    cache.store(key, revision: revision, bytes: bytes)
                    out.append(contentsOf: bytes)
                } else {
                    RequestExecutor.encode(e, tag: tag, format: format, into: &out)
                }
                close = e.close
            }
        }
        return (close, replay)
    }
}
