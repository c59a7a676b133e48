import Foundation
import QuireCore
#if canImport(Glibc)
import Glibc
#endif

/// The sync daemon's log, `.quire/local/log`: one line per cycle (and per start, stop, reload),
/// each starting with its UTC time; beyond `limit` bytes the file becomes `log.1` (the previous
/// `log.1` is dropped) and a new one starts.
struct SyncDaemonLog {
    let url: URL
    let limit: Int

    init(vaultRoot root: URL, limit: Int) {
        url = root.appendingPathComponent(".quire/local/log")
        self.limit = limit
    }

    /// Appends `line` (with its time); returns the line as written. A log that cannot be written
    /// is not an error of the sync: the line still goes to standard error through the caller.
    @discardableResult
    func append(_ line: String, at time: Date) -> String {
        let stamped = "\(Self.format(time)) \(line)"
        let data = Data((stamped + "\n").utf8)
        let path = url.path
        if let attributes = try? FileManager.default.attributesOfItem(atPath: path),
           let size = attributes[.size] as? Int, size + data.count > limit {
            let old = url.deletingLastPathComponent().appendingPathComponent("log.1").path
            _ = rename(path, old)
        }
        let descriptor = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o644)
        if descriptor >= 0 {
            _ = data.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
            close(descriptor)
        }
        return stamped
    }

    static func format(_ time: Date) -> String {
        QuireClock.iso8601UTC(time)
    }
}
