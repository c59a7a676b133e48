import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The vault lock: `flock` on `.quire/local/lock`, released by the kernel when the process dies,
/// so a crashed quire never leaves a lock that blocks the next sync. Holds the file descriptor
/// until `deinit`.
public final class VaultLock {
    private let descriptor: Int32
    /// When the previous holder took the lock, if it died holding it (its pid is still in the
    /// file: a holder that ends normally empties it); nil otherwise.
    public let deadHolderSince: Date?

    /// Takes the lock without waiting; throws `SyncError.locked` when a live process holds it.
    public init(vaultRoot: URL) throws {
        let directory = vaultRoot.appendingPathComponent(".quire/local")
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        } catch {
            throw SyncError.file(path: ".quire/local", reason: "cannot create the folder (\(error.localizedDescription))")
        }
        let path = directory.appendingPathComponent("lock").path
        let descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            throw SyncError.file(path: ".quire/local/lock", reason: String(cString: strerror(errno)))
        }
        if flock(descriptor, LOCK_EX | LOCK_NB) != 0 {
            let holder = VaultLock.readHolder(descriptor)
            close(descriptor)
            throw SyncError.locked(path: ".quire/local/lock", holder: holder)
        }
        self.descriptor = descriptor
        var status = stat()
        deadHolderSince = VaultLock.readHolder(descriptor) != nil && fstat(descriptor, &status) == 0
            ? Date(timeIntervalSince1970: TimeInterval(status.st_mtim.tv_sec)) : nil
        let text = "\(getpid())\n"
        _ = ftruncate(descriptor, 0)
        _ = text.withCString { pwrite(descriptor, $0, strlen($0), 0) }
    }

    deinit {
        _ = ftruncate(descriptor, 0)
        flock(descriptor, LOCK_UN)
        close(descriptor)
    }

    private static func readHolder(_ descriptor: Int32) -> String? {
        var buffer = [UInt8](repeating: 0, count: 32)
        let count = pread(descriptor, &buffer, buffer.count, 0)
        guard count > 0 else { return nil }
        let text = String(decoding: buffer[0..<count], as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        return text.isEmpty ? nil : text
    }
}
