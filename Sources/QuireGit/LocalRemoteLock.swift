import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// An exclusive `flock` on the folder of a remote on a local path (a bare repository on disk or
/// a USB stick), held by quire's push into it, and the cleanup it makes safe: whatever a push
/// killed half-way left there — libgit2's temporary pack (`objects/pack/pack_git2_<hex>`) and
/// quire's staging reference (`refs/quire/incoming/…`) — can only be litter once no other
/// quire is pushing. The lock is on the folder itself, so nothing is added to the remote; the
/// kernel drops it when the process dies.
final class LocalRemoteLock {
    /// The open folder, or -1 when it could not be locked (a file system without `flock`).
    private let descriptor: Int32

    /// Waits up to `timeout` seconds (nil: as long as it takes) for the lock on `path`.
    /// Throws `.timedOut` when another push holds it all that time.
    init(path: String, timeout: Double?) throws {
        let fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else {
            descriptor = -1
            return
        }
        let deadline = timeout.map { Date().addingTimeInterval($0) }
        while flock(fd, LOCK_EX | LOCK_NB) != 0 {
            guard errno == EWOULDBLOCK || errno == EINTR else {
                close(fd)
                descriptor = -1
                return
            }
            if let deadline, Date() >= deadline {
                close(fd)
                throw GitError(function: "git_remote_push", code: .timedOut,
                               message: "another push into \(path) did not finish within \(Int(timeout ?? 0)) s")
            }
            usleep(50_000)
        }
        descriptor = fd
    }

    deinit {
        if descriptor >= 0 { close(descriptor) }
    }

    /// Whether the lock is held (cleanup is safe).
    var isHeld: Bool { descriptor >= 0 }

    /// Removes the temporary packs libgit2 left in `path` (bare, or a work tree's `.git`).
    /// Only files named exactly as libgit2 names them (`pack_git2_` and 16 hex digits).
    static func removeTemporaryPacks(in path: String) {
        let manager = FileManager.default
        for folder in ["objects/pack", ".git/objects/pack"] {
            let directory = URL(fileURLWithPath: path).appendingPathComponent(folder)
            guard let names = try? manager.contentsOfDirectory(atPath: directory.path) else { continue }
            for name in names where name.hasPrefix("pack_git2_") {
                let suffix = name.dropFirst("pack_git2_".count)
                guard suffix.count == 16, suffix.allSatisfy(\.isHexDigit) else { continue }
                try? manager.removeItem(at: directory.appendingPathComponent(name))
            }
        }
    }
}
