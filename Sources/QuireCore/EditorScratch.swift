/// The scratch, swap and lock files editors leave beside the file being edited (the whole list,
/// editor by editor, is in Docs/sync.md, "Editor scratch files"):
/// - vim and neovim: swap files `.x.swp`, `.x.swo`, … `.x.swa`, then `.x.svz` … `.x.saa`, the
///   name test `.x.swx`, and the write test `4913` (then `5036`, `5159`, … in steps of 123 while
///   the name is taken);
/// - emacs: lock links `.#x`, auto-save files `#x#`, backups `x~` and `x.~1~`;
/// - nano: its lock file, named like vim's swap file (`.x.swp`);
/// - Kate: `.x.kate-swp`; gedit: `.goutputstream-XXXXXX`; LibreOffice: `.~lock.x#`;
/// - JetBrains IDEs' safe write: `x___jb_tmp___` and `x___jb_old___`;
/// - VS Code's atomic save: `x.vsctmp`.
/// They change many times a second while a note is open, mean nothing to another device and
/// may name the user and the host (LibreOffice's lock): a sync never stages a new one, and the
/// sync daemon never wakes up for one (Docs/guarantees.md).
public enum EditorScratch {
    /// Whether the last component of `path` (vault-relative or a bare name) names an editor's
    /// scratch file.
    public static func isScratch(_ path: String) -> Bool {
        let name = path.split(separator: "/", omittingEmptySubsequences: false).last.map(String.init) ?? path
        if name.isEmpty { return false }
        if name.hasSuffix("~") || name.hasPrefix(".#") { return true }
        if name.count > 2, name.hasPrefix("#"), name.hasSuffix("#") { return true }
        if name.hasSuffix("___jb_tmp___") || name.hasSuffix("___jb_old___") { return true }
        if name.hasSuffix(".kate-swp") || name.hasSuffix(".vsctmp") || name.hasPrefix(".goutputstream-") { return true }
        if name.count > 8, name.hasPrefix(".~lock."), name.hasSuffix("#") { return true }
        return isVimSwap(name) || isVimWriteTest(name)
    }

    /// vim's swap names for a hidden `.x`: `.swp` down to `.swa`, then `.svz` down to `.saa`, and
    /// `.swx`, the file it makes for a moment to learn whether the file system keeps long names.
    private static func isVimSwap(_ name: String) -> Bool {
        let bytes = Array(name.utf8)
        guard bytes.count > 5, bytes[0] == UInt8(ascii: ".") else { return false }
        let suffix = bytes.suffix(4).map { $0 }
        guard suffix[0] == UInt8(ascii: "."), suffix[1] == UInt8(ascii: "s") else { return false }
        let second = suffix[2], third = suffix[3]
        guard third >= UInt8(ascii: "a"), third <= UInt8(ascii: "z") else { return false }
        if second == UInt8(ascii: "w") { return third <= UInt8(ascii: "p") || third == UInt8(ascii: "x") }
        return second >= UInt8(ascii: "a") && second <= UInt8(ascii: "v")
    }

    /// vim's test of whether a folder may be written: `4913`, and `4913 + 123·n` while taken.
    private static func isVimWriteTest(_ name: String) -> Bool {
        guard name.utf8.count >= 4, name.utf8.count <= 6, name.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }),
              let number = Int(name), String(number) == name else { return false }
        return number >= 4913 && (number - 4913) % 123 == 0
    }
}
