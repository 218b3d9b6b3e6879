/// Where the live view's cursor goes when its lines change: to the same thing, wherever it
/// now stands (a row added above it, or a move, must not put the cursor on another item,
/// whose `f`, `e` or `d` would then act on what the user did not choose). A line is known by
/// its key (`LiveLine.key`: an entry's path, an option's number); a line that is gone leaves
/// the cursor at the same place, kept in range. A place's first lines put it on the line it
/// was `arriving` from (back from an entry: that entry's row), else on the first row, never on
/// a section's header. Pure.
public enum LiveCursor {
    /// The index in `new` of the line at `selected` in `old`.
    public static func follow(_ selected: Int, from old: [LiveLine], to new: [LiveLine], arriving: String? = nil)
        -> Int
    {
        if old.isEmpty && !new.isEmpty {
            if let key = arriving, let i = new.firstIndex(where: { $0.key == key }) { return i }
            return new.firstIndex { $0.kind == .entry || $0.kind == .detail } ?? 0
        }
        let kept = min(selected, max(0, new.count - 1))
        guard selected < old.count else { return kept }
        let wanted = old[selected].key
        return new.firstIndex { $0.key == wanted } ?? kept
    }
}
