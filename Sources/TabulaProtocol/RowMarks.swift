/// The marks some text rows carry, defined once for the server that writes them and the
/// clients that style them.
public enum RowMarks {
    /// Starts a section header row: `== Cheap Items (< $50): 2 items`.
    public static let sectionHeader = "== "
    /// The whole row shown for a section with nothing in it.
    public static let emptySection = "No Items"
    /// Starts the row of a setting's selected option: `[x] #2  16`.
    public static let selected = "[x]"
    /// Starts the row of an option not selected.
    public static let unselected = "[ ]"
    /// Ends the row of a favourite item.
    public static let favorite = "★"
}
