import TabulaModel
import TabulaProtocol

/// One connection's own view settings: current path, item filter and wire format.
struct Session: Sendable, Equatable {
    var viewer = Viewer()
    var format = WireFormat.text
}
