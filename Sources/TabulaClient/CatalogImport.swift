import Foundation
import TabulaModel
import TabulaProtocol

/// Reads catalog trees from a property list in seed 001's shape, or from JSON.
public enum CatalogImport {
    /// Parses a property list (XML or binary) or JSON document into top-level drafts.
    ///
    /// Accepted shapes: an array of nodes, or a dictionary with a `Rows` array. A node is a
    /// dictionary with `Title`, optional `Children`, and on leaves `View` = 1 (tabs), 2 (image)
    /// or 3 (text). Lower-case keys (`title`, `children`, `view`) and `view` given as a word,
    /// with `tabs`, `image` and `text` fields, are accepted too.
    public static func parse(_ data: [UInt8]) -> Result<[CatalogDraft], TabulaError> {
        let object: Any
        let d = Data(data)
        if let first = data.first(where: { $0 != 32 && $0 != 10 && $0 != 13 && $0 != 9 }),
            first == UInt8(ascii: "[") || first == UInt8(ascii: "{")
        {
            guard let o = try? JSONSerialization.jsonObject(with: d) else {
                return .failure(
                    TabulaError(.invalid, "the file looks like JSON but does not parse; check brackets and commas"))
            }
            object = o
        } else {
            guard let o = try? PropertyListSerialization.propertyList(from: d, options: [], format: nil) else {
                return .failure(TabulaError(.invalid, "the file is neither a property list nor JSON"))
            }
            object = o
        }
        let rows: [Any]
        if let a = object as? [Any] {
            rows = a
        } else if let dict = object as? [String: Any],
            let a = (dict["Rows"] ?? dict["rows"] ?? dict["Children"] ?? dict["children"]) as? [Any]
        {
            rows = a
        } else {
            return .failure(TabulaError(.invalid, "expected an array of nodes or a dictionary with a Rows array"))
        }
        do {
            return .success(try rows.enumerated().map { try node($0.element, where: "node \($0.offset + 1)") })
        } catch let e as TabulaError {
            return .failure(e)
        } catch {
            return .failure(TabulaError(.invalid, "\(error)"))
        }
    }

    static func node(_ any: Any, where place: String) throws -> CatalogDraft {
        guard let dict = any as? [String: Any] else { throw TabulaError(.invalid, "\(place) is not a dictionary") }
        func value(_ key: String) -> Any? { dict[key] ?? dict[key.lowercased()] }
        guard let title = value("Title") as? String, !title.isEmpty else {
            throw TabulaError(.invalid, "\(place) has no Title string")
        }
        let kids = (value("Children") as? [Any]) ?? []
        if !kids.isEmpty {
            let children = try kids.enumerated().map {
                try node($0.element, where: "\(place) › \(title) › child \($0.offset + 1)")
            }
            return CatalogDraft(title: title, view: .branch, children: children)
        }
        let view = value("View")
        let number = (view as? Int) ?? (view as? NSNumber)?.intValue ?? (view as? String).flatMap { Int($0) }
        let word = (view as? String)?.lowercased()
        switch (number, word) {
        case (1, _), (_, "tabs"):
            let tabs = (value("Tabs") as? [String]) ?? ["View One", "View Two"]
            return CatalogDraft(title: title, view: .tabs(tabs))
        case (2, _), (_, "image"):
            return CatalogDraft(title: title, view: .image((value("Image") as? String) ?? "Image.jpg"))
        case (3, _), (_, "text"), (nil, nil):
            return CatalogDraft(title: title, view: .text((value("Text") as? String) ?? title))
        default:
            throw TabulaError(
                .invalid,
                "\(place) (\(title)) has View \(view.map { "\($0)" } ?? "?"); use 1 (tabs), 2 (image) or 3 (text)")
        }
    }
}
