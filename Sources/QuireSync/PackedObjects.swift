import Foundation
import QuireCore
import QuireGit
#if canImport(Glibc)
import Glibc
#endif

/// Many new objects at once go into one pack instead of one loose file each, as git keeps a
/// fetched pack of 100 objects or more (`fetch.unpackLimit`): creating thousands of small
/// files is what makes staging or merging thousands of notes slow. libgit2 then finds the
/// objects in the pack when it stages the files or writes the merged blobs, and creates no
/// loose file for them; fewer objects stay loose, so small syncs add no pack.
enum PackedObjects {
    /// The fewest objects worth a pack.
    static let threshold = 100
    /// Larger files are left to libgit2 (read and stored loose, as before).
    static let largestFile = 1 << 20
    /// The most bytes read into memory for one pack.
    static let largestPack = 256 << 20

    /// Stores the regular files at `paths` (relative to the vault root) as blobs in one pack
    /// when there are at least `threshold` of them. A file that cannot be read is skipped:
    /// staging it reports the problem. A file changed before it is staged is simply stored
    /// again by libgit2 (the packed copy is then unused).
    static func storeFiles(_ paths: [String], vault: Vault, repository: Repository) throws {
        guard paths.count >= threshold else { return }
        let contents = ParallelMap.map(paths, chunkSize: 32) { path -> Data? in
            let url = vault.url(for: path)
            var status = stat()
            guard lstat(url.path, &status) == 0, status.st_mode & S_IFMT == S_IFREG,
                  status.st_size <= largestFile else { return nil }
            return try? Data(contentsOf: url)
        }
        var blobs: [Data] = []
        var total = 0
        for case let data? in contents where total + data.count <= largestPack {
            total += data.count
            blobs.append(data)
        }
        try storeBlobs(blobs, repository: repository)
    }

    /// Stores `blobs` in one pack when there are at least `threshold` of them.
    static func storeBlobs(_ blobs: [Data], repository: Repository) throws {
        guard blobs.count >= threshold else { return }
        _ = try repository.writeBlobsAsPack(blobs)
    }
}
