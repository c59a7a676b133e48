import Foundation
import QuireCore
#if canImport(Glibc)
import Glibc
#endif

/// Folders of the work tree that are symbolic links. The sync never writes through one, and
/// never commits one over the real folder the branch has at that path, nor the absence of that
/// folder's files (seen through the link) as their deletion: the link stays the user's,
/// uncommitted, and the files stay in the branch, reported at every sync.
enum LinkedFolder {
    /// The first folder of `path` (vault-relative) that is a symbolic link in `vault`, if any.
    static func of(_ path: String, in vault: Vault) -> String? {
        var folder = ""
        for part in path.split(separator: "/").dropLast() {
            folder += folder.isEmpty ? String(part) : "/" + part
            guard let link = isLink(folder, in: vault) else { return nil }
            if link { return folder }
        }
        return nil
    }

    /// Whether `path` is a symbolic link (nil: nothing there).
    static func isLink(_ path: String, in vault: Vault) -> Bool? {
        var status = stat()
        guard lstat(vault.url(for: path).path, &status) == 0 else { return nil }
        return status.st_mode & S_IFMT == S_IFLNK
    }

    /// The reason shown for a file left alone because of the link `folder`.
    static func reason(_ folder: String) -> String {
        "its folder \(folder) is a symbolic link; quire never writes through one (replace the link by a folder)"
    }
}
