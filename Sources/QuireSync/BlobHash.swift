import Foundation
import QuireGit

/// Git blob ids of work-tree bytes, to compare files with tree entries without staging them
/// (a sync's status, and whether a note is as its last commit left it for its dates).
public enum BlobHash {
    /// The blob id of `data` as 40 hex digits: libgit2's SHA-1 (`git_odb_hash`), which is many
    /// times faster than the portable `SHA1` here; that one gives the same digits should
    /// libgit2 refuse the buffer.
    public static func hex(_ data: Data) -> String {
        if let id = try? OID.blob(for: data) { return id.hex }
        var bytes = Data("blob \(data.count)\0".utf8)
        bytes.append(data)
        return SHA1.hex(bytes)
    }
}
