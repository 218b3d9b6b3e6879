/// Where the live view's cursor goes when its rows are listed again: to the same entry,
/// wherever it now stands (a row added above it, or a move, must not put the cursor on
/// another item, whose `f`, `e` or `d` would then act on what the user did not choose).
/// An entry is known by what names it: an item by its id, an option by its index, a list
/// row by its name; a row that is gone leaves the cursor at the same place, kept in range.
/// Pure.
public enum LiveCursor {
    /// What names the entry a row shows.
    public static func key(_ row: String) -> String {
        if let id = LiveRow.itemID(row) { return "item \(id)" }
        if let n = LiveRow.option(row) { return "option \(n)" }
        let first = row.split(separator: " ", maxSplits: 1).first.map(String.init) ?? row
        return first.hasSuffix("/") ? "list \(first)" : "row \(row)"
    }

    /// The index in `new` of the entry at `selected` in `old`.
    public static func follow(_ selected: Int, from old: [String], to new: [String]) -> Int {
        let kept = min(selected, max(0, new.count - 1))
        guard selected < old.count else { return kept }
        let wanted = key(old[selected])
        return new.firstIndex { key($0) == wanted } ?? kept
    }
}
