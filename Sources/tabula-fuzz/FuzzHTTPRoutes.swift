import TabulaHTTP
import TabulaProtocol
@testable import TabulaServer

/// The HTTP routes of one parsed request: a route is always chosen (no trap); a POST makes
/// a request of the verb its path names, or a refusal, never a page; a request built from
/// a route is one a line could have made (it encodes back to a line that parses to the
/// same command); a login header yields a name and secret or nothing.
func fuzzRoute(_ r: HTTPRequest) {
    let route = HTTPRoutes.route(r)
    if r.method == "POST" {
        switch route {
        case .request(let request):
            let named = String(r.path.dropFirst("/api/".count)).uppercased()
            precondition(
                request.command.verb.rawValue == named, "POST \(r.path) made a \(request.command.verb) request")
        case .refusal: break
        default: preconditionFailure("POST \(r.path) was routed to \(route)")
        }
    }
    if case .request(let request) = route {
        precondition(
            HTTPRoutes.refusalOverHTTP(request.command.verb) == nil,
            "a connection-only verb was routed: \(request.command.verb)")
    }
    _ = HTTPRoutes.crossSiteRefusal(r)
    if let authorization = r.header("authorization"), let (name, _) = HTTPRoutes.basicCredentials(authorization) {
        precondition(!name.contains(":"), "a Basic name holds the colon that ends it")
    }
}
