import Foundation
import QuireCore

/// The name a file takes when a folder holds its own (`Projects` where `Projects/` is): `-2`,
/// `-3`, … before its extension (`a-2.md` for a note), shortened to the file-name limit
/// (`FileNameLimit`), as a merge names the file of a file and a folder of one name.
enum BesideName {
    /// The first such name of `path` that `isTaken` does not refuse.
    static func free(beside path: String, isTaken: (String) -> Bool) -> String {
        let (stem, ext) = TreeMerger.split(path)
        var counter = 2
        var candidate: String { FileNameLimit.path(stem: stem, suffix: "-\(counter)", ext: ext) }
        while isTaken(candidate) { counter += 1 }
        return candidate
    }

    /// Whether anything is at `path` in the vault, a link included (even one that leads nowhere).
    static func exists(_ path: String, in vault: Vault) -> Bool {
        var status = stat()
        return lstat(vault.url(for: path).path, &status) == 0
    }
}
