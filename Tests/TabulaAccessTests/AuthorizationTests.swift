import Testing
import TabulaModel
import TabulaProtocol

@testable import TabulaAccess

/// The access rules: every verb against every role, and grants on every kind of touch.
@Suite struct AuthorizationTests {
    static func user(_ role: Role, allow: [String] = [], deny: [String] = []) -> AuthUser {
        AuthUser(name: "ci", role: role, grants: Grants(allow: allow, deny: deny), generation: 1)
    }

    static func command(_ line: String) -> Command {
        guard case .success(let r)? = RequestParser.parse(Array(line.utf8)) else { fatalError(line) }
        return r.command
    }

    static func refusal(_ line: String, _ u: AuthUser, cwd: String = "/") -> TabulaError? {
        Authorization.refusal(command(line), user: u, canonical: { ModelPath.join(ModelPath.segments($0, cwd: cwd)) })
    }

    static let samples: [Verb: String] = [
        .help: "HELP", .ping: "PING", .quit: "QUIT", .ls: "LS /items", .show: "SHOW /items/1", .cd: "CD /items",
        .pwd: "PWD",
        .select: "SELECT /settings/my-int 8", .add: "ADD /orders x", .set: "SET /items/1 name=x", .rm: "RM /items/1",
        .mv: "MV /items/1 2", .fav: "FAV /items/1", .filter: "FILTER all", .bands: "BANDS A 5 B", .order: "ORDER pesto",
        .watch: "WATCH /items", .unwatch: "UNWATCH", .format: "FORMAT json", .stats: "STATS", .complete: "COMPLETE LS",
        .auth: "AUTH a b", .whoami: "WHOAMI", .sync: "SYNC 5", .clients: "CLIENTS", .multi: "MULTI", .exec: "EXEC",
        .discard: "DISCARD",
    ]

    @Test func eachRoleMayUseExactlyItsVerbs() {
        // A transaction's own verbs are a read's: what EXEC runs is checked request by request.
        let readVerbs: Set<Verb> = [
            .ls, .show, .cd, .pwd, .watch, .unwatch, .complete, .filter, .format, .help, .ping, .quit, .whoami, .auth,
            .sync, .multi, .exec, .discard,
        ]
        let writeVerbs = readVerbs.union([.select, .add, .set, .rm, .mv, .fav, .order])
        #expect(Set(Self.samples.keys) == Set(Verb.allCases))
        for (verb, line) in Self.samples {
            #expect((Self.refusal(line, Self.user(.read)) == nil) == readVerbs.contains(verb), "read \(line)")
            #expect((Self.refusal(line, Self.user(.write)) == nil) == writeVerbs.contains(verb), "write \(line)")
            #expect(Self.refusal(line, Self.user(.admin)) == nil, "admin \(line)")
        }
        #expect(Self.refusal("BANDS", Self.user(.read)) == nil, "listing the bands is a read")
        #expect(
            Self.refusal("BANDS A 5 B", Self.user(.write))?.message
                == "ci (write) may not use BANDS: it needs the admin role")
    }

    @Test func beforeLoginOnlyAuthPingHelpAndQuitAreAllowed() {
        #expect(Verb.allCases.filter { $0.spec.traits.beforeLogin } == [.help, .ping, .quit, .auth])
    }

    @Test func grantsAllowPrefixesAndDenyWins() {
        let g = Grants(allow: ["/items", "/orders"], deny: ["/items/7"])
        #expect(g.covers("/items") && g.covers("/items/3") && g.covers("/orders/1"))
        #expect(!g.covers("/items/7") && !g.covers("/items/7/x") && !g.covers("/menu") && !g.covers("/"))
        #expect(!g.covers("/itemsx"), "a prefix is a whole segment")
        #expect(g.shows("/") && !g.shows("/menu") && !g.shows("/items/7"))
        let deep = Grants(allow: ["/catalog/books"])
        #expect(deep.shows("/catalog") && deep.shows("/") && !deep.covers("/catalog") && !deep.shows("/catalog/films"))
        #expect(Grants().covers("/anything") && Grants().isUnrestricted)
    }

    @Test func aWriterWithGrantsMayChangeOnlyWhatTheyCover() {
        let u = Self.user(.write, allow: ["/items", "/orders"], deny: ["/items/7"])
        #expect(Self.refusal("SET /items/3 name=x", u) == nil)
        #expect(Self.refusal("RM /items/7", u)?.message == "ci (write) may not change /items/7")
        #expect(Self.refusal("RM 7", u, cwd: "/items")?.code == .noPerm, "relative paths are resolved first")
        #expect(Self.refusal("ADD /menu Drinks", u)?.message == "ci (write) may not change /menu")
        #expect(
            Self.refusal("ORDER pesto", u)?.message == "ci (write) may not read /menu",
            "a bare name could be any menu entry")
        #expect(Self.refusal("ORDER pesto", Self.user(.write, allow: ["/menu", "/orders"])) == nil)
        #expect(Self.refusal("ORDER /menu/pasta/pesto", Self.user(.write, allow: ["/menu/pasta", "/orders"])) == nil)
    }

    @Test func readsAndNavigationNeedAPathThatLeadsSomewhereAllowed() {
        let u = Self.user(.read, allow: ["/catalog/books"])
        #expect(Self.refusal("LS /", u) == nil)
        #expect(Self.refusal("CD /catalog", u) == nil)
        #expect(Self.refusal("LS /catalog/books/x", u) == nil)
        #expect(Self.refusal("SHOW /catalog/films", u)?.message == "ci (read) may not read /catalog/films")
        #expect(Self.refusal("LS /items", u)?.code == .noPerm)
    }

    @Test func aWatchMustLeadToOrLieUnderAnAllowedPrefixAndOutsideEveryDenied() {
        let u = Self.user(.read, allow: ["/items", "/orders"], deny: ["/items/7"])
        #expect(Self.refusal("WATCH", u) == nil)  // `/` leads to what it may read: only that is sent
        #expect(
            Self.refusal("WATCH /settings", u)?.message
                == "ci (read) may not watch /settings; watch under /items or /orders")
        #expect(Self.refusal("WATCH /items", u) == nil)
        #expect(Self.refusal("WATCH /items/7", u)?.code == .noPerm)
        #expect(Self.refusal("WATCH /orders FROM 3", u) == nil)
        #expect(u.grants.receives("/items/3") && !u.grants.receives("/items/7"))
    }
}
