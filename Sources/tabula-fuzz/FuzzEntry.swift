import CTLSShim
import Glibc
import TabulaAccess
import TabulaHTTP
import TabulaModel
import TabulaProtocol
@testable import TabulaServer

/// libFuzzer entry: feeds arbitrary bytes through the line decoder and the request parser,
/// encodes whatever comes out in both formats, checks every request against a restricted
/// user's rights (AUTH lines included) and reads every line as a users-file line, and
/// applies every request that parses to a model holding the seed data (checking that each
/// change moves the revision by one). The same bytes are also fed to a TLS server session
/// as a client's first flight, to the HTTP parser, to the RESP decoder and to the JSON
/// parser. With `TABULA_FUZZ_TARGET=json` only the JSON parser is fed (many more inputs a
/// second, for a run on it alone).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let bytes = UnsafeRawBufferPointer(start: data, count: size)
    fuzzJSON(bytes)
    if jsonOnly { return 0 }
    var decoder = LineDecoder(maxLine: maxLine)
    let half = size / 2
    decoder.append(UnsafeRawBufferPointer(rebasing: bytes[0..<half]))
    drain(&decoder)
    decoder.append(UnsafeRawBufferPointer(rebasing: bytes[half..<size]))
    drain(&decoder)
    _ = tabula_tls_fuzz_input(data, Int32(size))
    fuzzHTTP(bytes)
    fuzzRESP(bytes)
    return 0
}

/// The HTTP adapter: the same bytes read whole and cut in three give the same requests and
/// refusals; nothing but GET and HEAD comes out; a refusal is last and ends the parse; what
/// a request in progress holds stays under the parser's bounds.
func fuzzHTTP(_ bytes: UnsafeRawBufferPointer) {
    let whole = HTTPParser()
    let all = whole.feed(bytes) + whole.finish()
    let cut = HTTPParser()
    var pieces: [HTTPParsed] = []
    let a = bytes.count / 3, b = 2 * bytes.count / 3
    for r in [0..<a, a..<b, b..<bytes.count] {
        pieces += cut.feed(UnsafeRawBufferPointer(rebasing: bytes[r]))
        precondition(
            cut.partialCount <= HTTPParser.maxTarget + HTTPParser.maxHeaderBytes + HTTPParser.maxBody + 1,
            "a request in progress holds \(cut.partialCount) bytes")
    }
    pieces += cut.finish()
    precondition(all == pieces, "cut in three, the bytes parse otherwise: \(all) vs \(pieces)")
    for (i, p) in all.enumerated() {
        switch p {
        case .request(let r):
            precondition(["GET", "HEAD", "POST"].contains(r.method), "a \(r.method) request came out")
            fuzzRoute(r)
        case .refusal: precondition(i == all.count - 1 && whole.failed, "a refusal that is not last")
        }
    }
    _ = HTTPRoutes.arguments(of: Array(bytes))
}

/// Whether only the JSON target runs (`TABULA_FUZZ_TARGET=json`).
let jsonOnly = getenv("TABULA_FUZZ_TARGET").map { String(cString: $0) == "json" } ?? false

/// The server's default line cap: inputs up to it (run with -max_len above it) reach the
/// parser and the model whole, so a slow long input is found with -timeout.
let maxLine = 64 * 1024
let maxLinesPerInput = 128
/// A user whose grants the fuzzer checks every request against.
let restricted = AuthUser(
    name: "fuzz", role: .write, grants: Grants(allow: ["/items", "/orders"], deny: ["/items/3"]), generation: 1)

func drain(_ decoder: inout LineDecoder) {
    var model = SeedData.model(now: 1_700_000_000)
    var viewer = Viewer()
    var rng = SplitMix64(seed: 1)
    // The same requests as the restricted user, on a model of its own.
    var granted = SeedData.model(now: 1_700_000_000)
    var grantedViewer = Viewer()
    grantedViewer.grants = restricted.grants
    var lines = 0
    while let unit = decoder.next() {
        guard case .line(let line) = unit else { continue }
        // A slow input should be one slow line, not many ordinary ones (the server bounds
        // how many lines run at once the same way).
        lines += 1
        if lines > maxLinesPerInput { return }
        precondition(line.count <= maxLine, "decoder yielded a line over its cap")
        precondition(!line.contains(10), "decoder yielded a line holding a newline")
        _ = UsersFile.parse(String(decoding: line, as: UTF8.self))
        switch RequestParser.parse(line) {
        case .success(let request)?:
            let gv = grantedViewer
            let refusal = Authorization.refusal(request.command, user: restricted) {
                granted.canonicalPath($0, viewer: gv)
            }
            precondition(refusal == nil || refusal?.code == .noPerm, "a refusal is NOPERM")
            if refusal == nil {
                checkGranted(
                    granted.apply(request.command, viewer: &grantedViewer, now: 1_700_000_000, rng: &rng).reply,
                    viewer: grantedViewer)
            }
            let reply = Reply(
                rows: [Row(text: "\(request.command)", json: .string("\(request.command)"))], message: "ok")
            let text = WireEncoder.encode(reply, tag: request.tag, format: .text)
            precondition(
                text.last == 10 && text.dropLast().filter { $0 == 10 }.count == 1,
                "a one-row reply must be exactly two lines")
            _ = WireEncoder.encode(reply, tag: request.tag, format: .json)
            let before = model.revision
            let outcome = model.apply(request.command, viewer: &viewer, now: 1_700_000_000, rng: &rng)
            precondition(
                model.revision == before + (outcome.event == nil ? 0 : 1),
                "a change must move the revision by exactly one")
            for format in [LineFormat.text, .json] {
                let encoded = WireEncoder.encode(outcome.reply, tag: request.tag, format: format)
                roundTrip(encoded, outcome.reply, tag: request.tag)
            }
        case .failure(let f)?:
            let out = WireEncoder.encode(Reply(error: f.error), tag: f.tag, format: .text)
            precondition(out.starts(with: Array("ERR".utf8)), "an error reply must start with ERR")
            precondition(out.filter { $0 == 10 }.count == 1, "an error reply must be one line")
        case nil:
            break
        }
    }
}

/// A reply to the restricted user names no row it may not see and pages to no item hidden
/// from it (its grants deny /items/3).
func checkGranted(_ reply: Reply, viewer: Viewer) {
    for r in reply.rows {
        precondition(r.path.map { viewer.sees($0.string) } ?? true, "a row the user may not see: \(r.text)")
    }
    precondition(
        !(reply.message.contains("; more: ") && reply.message.hasSuffix(" AFTER 3")),
        "a page hint names the hidden item: \(reply.message)")
}

/// The client's decoder reads back what the server wrote: one reply, with its tag, its
/// error code and as many rows.
func roundTrip(_ encoded: [UInt8], _ reply: Reply, tag: String?) {
    var d = WireDecoder()
    var decoded: [ServerMessage] = []
    for line in String(decoding: encoded, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
        .dropLast()
    {
        if let m = d.feed(String(line)) { decoded.append(m) }
    }
    guard decoded.count == 1, case .reply(let r) = decoded[0] else { preconditionFailure("not one reply: \(decoded)") }
    precondition(r.tag == tag, "the tag did not survive")
    precondition(r.error?.code == reply.error?.code, "the error code did not survive")
    precondition(r.rows.count == reply.rows.count, "rows were lost or added")
}
