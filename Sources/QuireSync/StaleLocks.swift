import Foundation
import QuireGit

/// `.lock` files a dead quire left in `.git/` (the vault lock is ours, so no other quire runs;
/// a lock older than a minute is not a live git command's either), and the packs libgit2 was
/// receiving when a fetch was killed (`objects/pack/pack_git2_…`: as large as what it fetched,
/// one more each time, and never read).
enum StaleLocks {
    /// Removes git lock files older than `olderThan` seconds (a minute in our own `.git`), and at
    /// once those made since a quire that died holding the vault lock took it
    /// (`deadHolderSince`, a second of slack for the clock's granularity): that quire can no
    /// longer finish them.
    /// Lock files on quire's own references (`refs/quire/…`: backups, their results) count too:
    /// one left on the oldest backup failed every later sync that drops it.
    /// `packs`: libgit2's packs too (only where quire's lock keeps every other quire out: a
    /// remote's are removed by the push that holds its lock, `Remote.push`).
    static func clean(gitDirectory: URL, references: [String], deadHolderSince: Date? = nil,
                      olderThan: TimeInterval = 60, packs: Bool = true) {
        let candidates = ["index.lock", "HEAD.lock", "config.lock", "packed-refs.lock"] + references.map { "\($0).lock" }
            + ownReferenceLocks(gitDirectory) + (packs ? temporaryPacks(gitDirectory) : [])
        for name in candidates {
            let url = gitDirectory.appendingPathComponent(name)
            guard let attributes = try? FileManager.default.attributesOfItem(atPath: url.path),
                  attributes[.type] as? FileAttributeType == .typeRegular,  // never a folder of that name
                  let modified = attributes[.modificationDate] as? Date,
                  Date().timeIntervalSince(modified) > olderThan
                    || deadHolderSince.map({ modified.timeIntervalSince($0) >= -1 }) == true else { continue }
            try? FileManager.default.removeItem(at: url)
        }
    }

    /// libgit2's packs being received in `objects/pack` of `gitDirectory`, as paths inside it
    /// (one a live fetch is writing is modified all the time, so never a minute old).
    private static func temporaryPacks(_ gitDirectory: URL) -> [String] {
        let folder = "objects/pack"
        let names = (try? FileManager.default.contentsOfDirectory(atPath: gitDirectory.appendingPathComponent(folder).path)) ?? []
        return names.filter(LocalRemoteLock.isTemporaryPack).map { folder + "/" + $0 }
    }

    /// The lock files under `refs/quire/` of `gitDirectory`, as paths inside it.
    private static func ownReferenceLocks(_ gitDirectory: URL) -> [String] {
        let folder = "refs/quire"
        guard let found = FileManager.default.enumerator(atPath: gitDirectory.appendingPathComponent(folder).path) else { return [] }
        return found.compactMap { ($0 as? String).flatMap { $0.hasSuffix(".lock") ? folder + "/" + $0 : nil } }
    }

    /// The git directory of a remote given as a local path or `file://` URL (a bare repository
    /// or a work tree's `.git`); nil for network remotes.
    static func localGitDirectory(_ remoteURL: String) -> URL? {
        let path: String
        if remoteURL.hasPrefix("file://") {
            path = URL(string: remoteURL)?.path ?? String(remoteURL.dropFirst(7))
        } else if remoteURL.hasPrefix("/") {
            path = remoteURL
        } else {
            return nil
        }
        let nested = URL(fileURLWithPath: path).appendingPathComponent(".git")
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: nested.path, isDirectory: &isDirectory), isDirectory.boolValue { return nested }
        return URL(fileURLWithPath: path)
    }
}
