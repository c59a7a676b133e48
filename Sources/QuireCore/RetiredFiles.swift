import Dispatch
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A private folder that keeps the old versions of files replaced by `AtomicFile.writeAll`
/// alive, by a hard link, until they are deleted in the background. Replacing a file by rename
/// frees the old one inside the rename, and freeing a file can wait for the disk (on a file
/// system mounted with `discard`, each freed file waits for a TRIM of its blocks: 0.1–0.3 ms,
/// a few seconds for 10,000 notes). With the old version linked here first, the rename only
/// drops a name, and the freeing happens on a background thread while the caller goes on.
///
/// The folder must be on the vault's file system and outside the work tree's tracked and
/// untracked files (the sync uses one inside `.git`). Where a link cannot be made (another
/// file system, no hard links) the file is replaced as before. Whatever a crash leaves in the
/// folder is deleted by the next `startPurge()`.
public final class RetiredFiles: @unchecked Sendable {
    /// The folder holding the links (created when the first file is retired).
    public let directory: String
    private let queue = DispatchQueue(label: "quire.retired-files")
    private let group = DispatchGroup()
    private let lock = NSLock()
    /// How many files were retired so far (names the links); guarded by `lock`.
    private var counter = 0
    /// False once a link failed for a reason other than a missing file; guarded by `lock`.
    private var linking = true

    /// Retires into `directory`.
    public init(directory: String) {
        self.directory = directory
    }

    /// Links the file at `path` into the folder so that replacing it does not free it; false
    /// when it was not linked (no file there, or links do not work here: replaced as before).
    @discardableResult
    func retire(_ path: String) -> Bool {
        let name = lock.withLock { () -> String? in
            guard linking else { return nil }
            counter += 1
            return "\(getpid())-\(counter)"
        }
        guard let name else { return false }
        if link(path, directory + "/" + name) == 0 { return true }
        if errno == ENOENT, mkdir(directory, 0o700) == 0 || errno == EEXIST {
            if link(path, directory + "/" + name) == 0 { return true }
        }
        if errno != ENOENT { lock.withLock { linking = false } }
        return false
    }

    /// Starts deleting every file in the folder on a background thread (after any purge
    /// already started). Deleting is best effort: what is left is deleted by a later purge.
    public func startPurge() {
        let directory = self.directory
        queue.async(group: group) {
            guard let stream = opendir(directory) else { return }
            defer { closedir(stream) }
            let descriptor = dirfd(stream)
            while let item = readdir(stream) {
                DirectoryEntryName.with(item) { name in
                    guard let path = name.baseAddress?.assumingMemoryBound(to: CChar.self),
                          strcmp(path, ".") != 0 && strcmp(path, "..") != 0 else { return }
                    _ = unlinkat(descriptor, path, 0)
                }
            }
        }
    }

    /// Waits until every purge started so far has finished.
    public func waitForPurge() {
        group.wait()
    }
}
