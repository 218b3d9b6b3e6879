import Foundation
import Glibc

/// A text file read whole, or the reason it cannot be: `no such file or directory`,
/// `permission denied`, `a directory`, `not UTF-8 text`.
public enum ReadableFile {
    public static func text(_ path: String) -> Result<String, FileProblem> {
        var st = stat()
        if stat(path, &st) != 0 {
            return .failure(FileProblem(path: path, reason: String(cString: strerror(errno)).lowercased()))
        }
        if (st.st_mode & S_IFMT) == S_IFDIR { return .failure(FileProblem(path: path, reason: "it is a directory")) }
        guard let data = FileManager.default.contents(atPath: path) else {
            return .failure(
                FileProblem(
                    path: path,
                    reason: access(path, R_OK) != 0
                        ? String(cString: strerror(errno)).lowercased() : "it could not be read"))
        }
        guard let text = String(data: data, encoding: .utf8) else {
            return .failure(FileProblem(path: path, reason: "it is not UTF-8 text"))
        }
        return .success(text)
    }
}

/// Why a file could not be read, said as `cannot read PATH: REASON`.
public struct FileProblem: Error, CustomStringConvertible {
    public let path: String
    public let reason: String
    public var description: String { "cannot read \(path): \(reason)" }
}
