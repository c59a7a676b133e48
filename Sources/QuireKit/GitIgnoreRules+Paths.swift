import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Vault-relative paths as the ignore rules compare them: a path's folder, by its bytes.
extension GitIgnoreRules {
    /// Whether `folder` is the folder holding `path` (its bytes up to the last `/`).
    static func isParent(_ folder: String, of path: String) -> Bool {
        // Read in place (no copy of either string to make it contiguous, nothing retained).
        let answer = path.utf8.withContiguousStorageIfAvailable { bytes -> Bool? in
            var slash = bytes.count
            while slash > 0 {
                slash -= 1
                if bytes[slash] == UInt8(ascii: "/") { break }
            }
            // No slash: the root (slash is 0, and the parent is "").
            guard slash == folder.utf8.count else { return false }
            guard slash > 0 else { return true }
            return folder.utf8.withContiguousStorageIfAvailable { parent -> Bool in
                guard let left = parent.baseAddress, let right = bytes.baseAddress else { return false }
                return memcmp(left, right, slash) == 0
            }
        }
        if let known = answer ?? nil { return known }
        return parent(of: path) == folder  // strings not stored as UTF-8
    }

    /// The folder holding `path` (`""` for the root).
    static func parent(of path: String) -> String {
        var path = path
        return path.withUTF8 { bytes in
            var index = bytes.count
            while index > 0 {
                index -= 1
                if bytes[index] == UInt8(ascii: "/") {
                    return String(decoding: UnsafeBufferPointer(rebasing: bytes[..<index]), as: UTF8.self)
                }
            }
            return ""
        }
    }
}
