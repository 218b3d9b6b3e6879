import TabulaProtocol

/// The JSON target: bytes as UTF-8 text through `JSONParser` (the parser of POST bodies, of
/// the client's JSON replies and of `tabula import`). It must never trap; a value it takes is
/// written back and read again to the same value (numbers with a fraction aside, whose
/// digits the writer may round).
func fuzzJSON(_ bytes: UnsafeRawBufferPointer) {
    guard let text = String(validating: bytes, as: UTF8.self) else { return }
    guard let value = JSONParser.parse(text) else { return }
    guard !holdsDouble(value) else { return }
    var out: [UInt8] = []
    value.write(to: &out)
    let again = JSONParser.parse(String(decoding: out, as: UTF8.self))
    precondition(again == value, "written back, \(text) reads as \(String(describing: again))")
}

private func holdsDouble(_ v: JSONValue) -> Bool {
    switch v.resolved {
    case .double: return true
    case .array(let items): return items.contains(where: holdsDouble)
    case .object(let pairs): return pairs.contains { holdsDouble($0.1) }
    default: return false
    }
}
