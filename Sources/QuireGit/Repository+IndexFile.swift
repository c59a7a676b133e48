import Foundation
#if canImport(Glibc)
import Glibc
#endif

extension Repository {
    /// `.git/index`, read by `IndexFile` (nil when that reader leaves it to libgit2), once per
    /// version of the file: the one read before is kept while the file has its stamp and its
    /// trailing checksum (git and libgit2 replace the file on every write).
    func indexFile() -> IndexFile? {
        let path = gitDirectory.appendingPathComponent("index").path
        guard let stamp = IndexFile.Stamp(path: path) else { return nil }
        if let kept = keptIndexFile, kept.stamp == stamp { return kept.file }
        guard let file = IndexFile(path: path) else { return nil }
        // Stamped before the read: a file replaced in between is read again next time.
        keptIndexFile = (stamp, file)
        return file
    }

    /// The paths of the index entries whose file name (the part after the last `/`) starts
    /// with `prefix`, in index order (sorted by path): from the index file itself, as the
    /// sync's scan reads it, else from libgit2's index.
    public func trackedPaths(withNamePrefix prefix: String) throws -> [String] {
        let file = indexFile()
        let index = file == nil ? try self.index() : nil
        let entries = file?.entries ?? index.map { IndexFile.entries(of: $0) } ?? []
        return withExtendedLifetime((file, index)) {
            prefix.withCString { wanted in
                let length = strlen(wanted)
                return entries.compactMap { entry -> String? in
                    let name = strrchr(entry.path, 0x2F).map { UnsafePointer($0 + 1) } ?? entry.path
                    return strncmp(name, wanted, length) == 0 ? String(cString: entry.path) : nil
                }
            }
        }
    }
}
