import CNcurses
import TabulaClient

/// The live view's keys, read as bytes and decoded by `TerminalKeys`: a byte is read only
/// when the key so far needs it, and the bytes after an Esc that turn out to be keys of
/// their own stay held for the next read. When the view leaves, what is held is handed to
/// the caller (`typedAhead`): inside `\live` it goes to the prompt, so nothing typed after
/// Esc or `q` in one burst is lost.
extension LiveView {
    /// The next key, or nil when none came within 100 ms (or the terminal was resized: the
    /// view is then drawn again).
    func nextKey() -> TerminalKey? {
        while true {
            if let next = TerminalKeys.first(input[...], final: false) {
                input.removeFirst(next.length)
                return next.key
            }
            // Nothing held, or a sequence begun: the rest of a key's bytes comes at once, a
            // person's next key does not, so an Esc with nothing behind it within 50 ms is Esc.
            let c = tabula_curses_getch_within(input.isEmpty ? 100 : 50)
            if c == KEY_RESIZE {
                stale = true
                if input.isEmpty { return nil }
            } else if (0...255).contains(c) {
                input.append(UInt8(c))
            } else {
                guard let next = TerminalKeys.first(input[...], final: true) else { return nil }
                input.removeFirst(next.length)
                return next.key
            }
        }
    }
}
