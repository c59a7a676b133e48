import Foundation

/// The rule every path that arrives from another device's tree must pass before quire writes
/// it, merges it or stages it — git's `verify_path` with `core.protectHFS` and
/// `core.protectNTFS` on: no absolute path, no empty, `.` or `..` component, no component that
/// a file system may take for `.git` (any case; HFS+ ignores some invisible code points, NTFS
/// trailing dots and spaces, the short name `git~1` and `:` stream suffixes; a backslash is a
/// separator there), and none of this device's own state (`.quire/local/`, `.quire/cache/`),
/// which is never tracked. A refused entry is left out of the merge and reported; the rest of
/// the tree syncs. Paths named by the synced `.quire/config.yml` pass it too (QuireKit
/// `ConfigPath`).
public enum IncomingPath {
    /// Why `path` is refused, or nil when it may be written.
    public static func refusal(_ path: String) -> String? {
        if path.isEmpty || path.contains("\0") { return "an empty or binary path" }
        if path.hasPrefix("/") { return "an absolute path" }
        let components = path.split(separator: "/", omittingEmptySubsequences: false)
        for component in components {
            if component.isEmpty { return "an empty path component" }
            // NTFS reads a backslash as a separator: each part is checked as a component too.
            for part in component.split(separator: "\\", omittingEmptySubsequences: false) {
                if part == "." || part == ".." { return "a path that climbs out of its folder (`\(part)`)" }
                if isDotGit(part) { return "a path inside a git folder (`\(component)`)" }
            }
        }
        if components.count > 2, components[0] == ".quire", components[1] == "local" || components[1] == "cache" {
            return "this device's own state (`.quire/\(components[1])/`), never synced"
        }
        return nil
    }

    /// Whether a component names `.git` on some file system: the literal name in any case,
    /// HFS+'s variant with ignored code points, or NTFS's with trailing dots and spaces, a
    /// stream suffix (`.git::$INDEX_ALLOCATION`) or the 8.3 short name `git~1`.
    static func isDotGit(_ component: Substring) -> Bool {
        // Every spelling starts with `.`, `g` or an invisible (non-ASCII) code point: most names stop here.
        guard let first = component.utf8.first,
              first == UInt8(ascii: ".") || first | 0x20 == UInt8(ascii: "g") || first >= 0x80 else { return false }
        // HFS+ ignores these code points when it compares names.
        let ignored: Set<UInt32> = [0x200C, 0x200D, 0x200E, 0x200F, 0x202A, 0x202B, 0x202C, 0x202D, 0x202E,
                                    0x206A, 0x206B, 0x206C, 0x206D, 0x206E, 0x206F, 0xFEFF]
        let visible = String(String.UnicodeScalarView(component.unicodeScalars.filter { !ignored.contains($0.value) }))
            .lowercased()
        if visible == ".git" { return true }
        // NTFS: what follows a `:` is a stream name; trailing dots and spaces are dropped.
        let name = component.lowercased().split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)[0]
        let trimmed = name.reversed().drop { $0 == "." || $0 == " " }
        let stem = String(trimmed.reversed())
        return stem == ".git" || stem == "git~1"
    }
}
