import Glibc

/// Reading a secret: the first line of standard input, or at a terminal, asked for on
/// stderr with echo turned off (so it is never shown, and never stored in any history).
public enum SecretPrompt {
    public static func read(prompt: String) -> String? {
        guard isatty(0) != 0 else { return readLine(strippingNewline: true) }
        say(prompt)
        var old = termios()
        tcgetattr(0, &old)
        var quiet = old
        quiet.c_lflag &= ~tcflag_t(ECHO)
        tcsetattr(0, TCSANOW, &quiet)
        defer {
            tcsetattr(0, TCSANOW, &old)
            say("\n")
        }
        return readLine(strippingNewline: true)
    }

    private static func say(_ s: String) {
        var bytes = Array(s.utf8)
        _ = write(2, &bytes, bytes.count)
    }
}
