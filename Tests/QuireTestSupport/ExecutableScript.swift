import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Writes a program (a shell script a test runs: an editor, a hook, a fake `fzf`) so that no
/// other process of the test run can hold it open for writing.
///
/// Foundation's `Data.write(to:)` opens the file without `O_CLOEXEC`: a process that another
/// test starts while the script is being written (a git server, a watcher, a `quire` run)
/// inherits the writable descriptor and keeps it for its whole life, and running the script
/// then fails with ETXTBSY ("Text file busy") — a test that passes alone and fails in a full
/// run. Here the descriptor is close-on-exec, so a child started meanwhile drops it at its
/// own `exec`.
public enum ExecutableScript {
    /// The failure of one of the calls, with the path and `errno`.
    public struct Failure: Error, CustomStringConvertible {
        public let function: String
        public let path: String
        public let code: Int32
        public var description: String { "\(function) \(path): \(String(cString: strerror(code)))" }
    }

    /// Writes `text` to `url` (its folder created), mode 0755, replacing what was there.
    public static func write(_ text: String, to url: URL) throws {
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        let path = url.path
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o755)
        guard descriptor >= 0 else { throw Failure(function: "open", path: path, code: errno) }
        defer { close(descriptor) }
        let bytes = Array(text.utf8)
        var written = 0
        while written < bytes.count {
            let count = bytes[written...].withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw Failure(function: "write", path: path, code: errno)
            }
            written += count
        }
        guard fchmod(descriptor, 0o755) == 0 else { throw Failure(function: "fchmod", path: path, code: errno) }
    }
}
