/// This release's version: what `--version` prints for every program of the package, and
/// what the server names itself in its greeting, HELLO, INFO and `/metrics`. One constant,
/// raised with each release (CHANGELOG.md).
public enum Release {
    public static let version = "0.1.0"
}
