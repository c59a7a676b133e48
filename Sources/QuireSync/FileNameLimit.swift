import Foundation
import QuireCore
import QuireGit

/// File names the sync makes (a collision's `-2`, an attachment's `.<device>`, a keep-both copy's
/// `.conflict-<device>-<time>`) stay within the 255 bytes a file name may have on Linux, macOS
/// and Windows file systems: a name that would pass it is shortened at a character boundary and
/// keeps a short hash of the whole name, so two long names that differ only at their end stay
/// apart. Without this, one long name made every later sync fail with "File name too long".
enum FileNameLimit {
    /// The longest file name, in UTF-8 bytes (QuireCore's one rule).
    static let bytes = SafeFileName.maxBytes

    /// `stem + suffix + ext` (`stem` may start with folders; only its file name is shortened).
    static func path(stem: String, suffix: String, ext: String) -> String {
        let slash = stem.lastIndex(of: "/")
        let folder = slash.map { String(stem[...$0]) } ?? ""
        let name = slash.map { String(stem[stem.index(after: $0)...]) } ?? stem
        return folder + fitted(name: name, suffix: suffix, ext: ext)
    }

    /// `path` with every component that passes the limit shortened the same way (the last one
    /// keeps a short extension); nil when every component fits.
    static func shortened(_ path: String) -> String? {
        let components = path.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        guard components.contains(where: { $0.utf8.count > bytes }) else { return nil }
        return components.enumerated().map { index, name in
            guard name.utf8.count > bytes else { return name }
            let dot = index == components.count - 1 ? name.lastIndex(of: ".") : nil
            let ext = dot.map { String(name[$0...]) }.flatMap { $0.utf8.count <= 16 ? $0 : nil } ?? ""
            return fitted(name: String(name.dropLast(ext.count)), suffix: "", ext: ext)
        }.joined(separator: "/")
    }

    private static func fitted(name: String, suffix: String, ext: String) -> String {
        guard (name + suffix + ext).utf8.count > bytes else { return name + suffix + ext }
        let marker = "~" + SHA1.hex(Data((name + suffix + ext).utf8)).prefix(8)
        // An absurd suffix or extension is cut too; the marker still keeps the names apart.
        let tail = SafeFileName.prefix(suffix + ext, bytes: (bytes - marker.utf8.count) / 2)
        return SafeFileName.prefix(name, bytes: bytes - marker.utf8.count - tail.utf8.count) + marker + tail
    }
}
