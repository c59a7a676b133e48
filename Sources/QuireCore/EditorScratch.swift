/// The scratch files editors leave beside the file being edited: vim's swap files (`.x.swp`,
/// `.x.swo`, … `.x.swa`) and its write test `4913`, backups ending in `~` (vim, emacs, gedit),
/// emacs's lock links `.#x` and auto-save files `#x#`. They change many times a second while a
/// note is open and mean nothing to another device: a sync never stages a new one, and the sync
/// daemon never wakes up for one (Docs/guarantees.md).
public enum EditorScratch {
    /// Whether the last component of `path` (vault-relative or a bare name) names an editor's
    /// scratch file.
    public static func isScratch(_ path: String) -> Bool {
        let name = path.split(separator: "/", omittingEmptySubsequences: false).last.map(String.init) ?? path
        if name.isEmpty { return false }
        if name == "4913" || name.hasSuffix("~") { return true }
        if name.hasPrefix(".#") { return true }
        if name.count > 2, name.hasPrefix("#"), name.hasSuffix("#") { return true }
        // vim: `.name.swp`, then `.swo`, `.swn`, … down to `.swa` when several are open.
        if name.hasPrefix("."), name.count > 4 {
            let suffix = name.suffix(4)
            if suffix.hasPrefix(".sw"), let last = suffix.last, last >= "a", last <= "p" { return true }
        }
        return false
    }
}
