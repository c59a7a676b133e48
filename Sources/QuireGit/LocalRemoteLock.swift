import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// An exclusive `flock` on the folder of a remote on a local path (a bare repository on disk or
/// a USB stick), held by quire's push into it, and the cleanup it makes safe: whatever a push
/// killed half-way left there — libgit2's temporary pack (`objects/pack/pack_git2_<hex>`),
/// quire's staging reference (`refs/quire/incoming/…`) and a lock file on it — can only be
/// litter once no other quire is pushing. The lock is on the folder itself, so nothing is added
/// to the remote; the kernel drops it when the process dies.
public final class LocalRemoteLock {
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

    /// Waits for the lock file at `path`, on a reference of the remote, to go, while this lock
    /// is held — so no quire is writing that reference: a plain git holds such a file for
    /// milliseconds, while one left by a process killed in the middle (a sync on a laptop whose
    /// battery died) stays for good and fails every push after it. The same file (device, inode,
    /// size, modification time) still there after `seconds` is removed; no clock is compared
    /// with its times (on a shared or removable disk they come from another clock, or in local
    /// time). Returns whether it is gone (the reference can be written again): false when this
    /// lock is not held or the file cannot be removed.
    func waitForReferenceLock(at path: String, staleAfter seconds: Double) -> Bool {
        guard isHeld else { return false }
        func identity() -> [Int]? {
            var status = stat()
            guard lstat(path, &status) == 0 else { return nil }
            return [Int(status.st_dev), Int(status.st_ino), Int(status.st_size),
                    status.st_mtim.tv_sec, status.st_mtim.tv_nsec]
        }
        guard let first = identity() else { return true }
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            usleep(50_000)
            // Gone or made again: its writer finished (a new one may hold it; the caller tries again).
            guard identity() == first else { return true }
        }
        return unlink(path) == 0 || errno == ENOENT
    }

    /// Removes the lock files a killed push left on quire's staging references in `path` (bare,
    /// or a work tree's `.git`): `refs/quire/incoming/<uuid>.lock`, made by libgit2 while it
    /// writes or deletes such a reference. Left behind, one fails every later deletion of its
    /// reference, and so every later push, for good. Only that namespace, which no one but
    /// quire writes, and only names made as quire makes them (a lowercase UUID).
    static func removeStagingLocks(in path: String) {
        removeFiles(in: path, folder: "refs/quire/incoming") { name in
            guard name.hasSuffix(".lock") else { return false }
            let stem = name.dropLast(".lock".count)
            return stem.count == 36 && stem.allSatisfy { $0 == "-" || ($0.isHexDigit && !$0.isUppercase) }
        }
    }

    /// Removes the temporary packs libgit2 left in `path` (bare, or a work tree's `.git`).
    /// Only files named exactly as libgit2 names them (`pack_git2_` and 16 hex digits).
    static func removeTemporaryPacks(in path: String) {
        removeFiles(in: path, folder: "objects/pack", matches: isTemporaryPack)
    }

    /// Whether `name` is one libgit2 gives the pack it is receiving (`pack_git2_` and 16 hex
    /// digits, in `objects/pack`): a fetch or push killed half-way leaves it there.
    public static func isTemporaryPack(_ name: String) -> Bool {
        let suffix = name.dropFirst("pack_git2_".count)
        return name.hasPrefix("pack_git2_") && suffix.count == 16 && suffix.allSatisfy(\.isHexDigit)
    }

    /// Removes the files of `folder` in the git directory `path` (bare, or a work tree's `.git`)
    /// whose names `matches` picks.
    private static func removeFiles(in path: String, folder: String, matches: (String) -> Bool) {
        let manager = FileManager.default
        for folder in [folder, ".git/" + folder] {
            let directory = URL(fileURLWithPath: path).appendingPathComponent(folder)
            guard let names = try? manager.contentsOfDirectory(atPath: directory.path) else { continue }
            for name in names where matches(name) {
                try? manager.removeItem(at: directory.appendingPathComponent(name))
            }
        }
    }
}
