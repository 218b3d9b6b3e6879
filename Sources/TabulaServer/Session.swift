import TabulaModel
import TabulaProtocol

/// One connection's own view settings: current path, item filter and wire format, and who
/// it is.
struct Session: Sendable, Equatable {
    var viewer = Viewer()
    var format = WireFormat.text
    /// The user this connection acts as; nil without access control.
    var user: String?
}
