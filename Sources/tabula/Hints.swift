@preconcurrency import CReadline
import Glibc
import TabulaProtocol

/// Whether a hint is on the screen after the line (it must then be erased when it changes).
nonisolated(unsafe) var hintShown = false

/// Hints, as redis-cli shows them: while the cursor is at the end of the line, the rest of
/// the verb's usage (from the verb table, `VerbGrammar.hint`) is drawn dimmed after it, and
/// goes as the words are typed. Only on a colour terminal (`--no-hints`, `NO_COLOR` and
/// `--no-color` turn it off); never past the screen's edge.
extension Interactive {
    func drawHint() {
        guard let buffer = rl_line_buffer else { return }
        var out = ""
        if hintShown {
            // Erase the old hint after the line's end, wherever the cursor is.
            let right = Int(rl_end - rl_point)
            out += right > 0 ? "\u{1B}7\u{1B}[\(right)C\u{1B}[K\u{1B}8" : "\u{1B}[K"
            hintShown = false
        }
        if rl_point == rl_end && rl_end > 0 && rl_done == 0 {  // not on a line just accepted
            let line = String(cString: buffer)
            let hint = VerbGrammar.hint(line)
            var rows: Int32 = 0, cols: Int32 = 0
            rl_get_screen_size(&rows, &cols)
            let room = Int(cols) - prompt.count - line.count - 1
            if !hint.isEmpty && room > 3 {
                let shown = hint.count <= room ? hint : String(hint.prefix(room - 1)) + "…"
                out += "\u{1B}[2m\(shown)\u{1B}[0m\u{1B}[\(shown.count)D"
                hintShown = true
            }
        }
        guard !out.isEmpty else { return }
        fputs(out, stdout)
        fflush(stdout)
    }
}

extension Interactive {
    /// Readline has moved past an accepted line that still shows its hint: go back up and
    /// erase it, so the scrollback holds only what was typed.
    func eraseHint(ofAccepted line: String) {
        guard hintShown else { return }
        hintShown = false
        let col = prompt.count + line.count
        fputs("\u{1B}[1A\r" + (col > 0 ? "\u{1B}[\(col)C" : "") + "\u{1B}[K\u{1B}[1B\r", stdout)
        fflush(stdout)
    }
}
