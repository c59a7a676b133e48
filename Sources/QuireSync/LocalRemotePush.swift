import Foundation
import QuireGit
#if canImport(Glibc)
import Glibc
#endif

/// A turn at pushing into a remote on a local path (a bare repository on disk, a USB stick).
/// libgit2's local transport moves the remote branch without checking that it still points
/// where the fetch found it, so two devices pushing at once could both report success while the
/// second push replaced the first one's commit. Quire's pushes into one such remote take turns
/// (`flock` on `quire-push.lock` in its git directory, released by the kernel if the process
/// dies), and a push goes ahead only while the branch is still where this round's fetch found
/// it; otherwise the round is retried like a rejected push. Held until `deinit`.
final class LocalRemotePush {
    private let descriptor: Int32
    private let gitDirectory: URL

    /// Waits for the turn to push into `remoteURL`; nil for a network remote (its server checks
    /// the old value itself) and when the lock file cannot be made there (the push then reports
    /// what is wrong with the remote).
    static func begin(remoteURL: String) -> LocalRemotePush? {
        guard let gitDirectory = StaleLocks.localGitDirectory(remoteURL) else { return nil }
        let descriptor = open(gitDirectory.appendingPathComponent("quire-push.lock").path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { return nil }
        while flock(descriptor, LOCK_EX) != 0 {
            guard errno == EINTR else {
                close(descriptor)
                return nil
            }
        }
        return LocalRemotePush(descriptor: descriptor, gitDirectory: gitDirectory)
    }

    private init(descriptor: Int32, gitDirectory: URL) {
        self.descriptor = descriptor
        self.gitDirectory = gitDirectory
    }

    deinit {
        flock(descriptor, LOCK_UN)
        close(descriptor)
    }

    /// Whether the remote's `branch` still points at `expected` (nil: the branch does not exist).
    func branch(_ branch: String, isStillAt expected: OID?) throws -> Bool {
        try Repository.open(at: gitDirectory).referenceTarget(branch) == expected
    }
}
