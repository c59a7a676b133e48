import Foundation
import QuireGit

/// Many new objects at once go into one pack instead of one loose file each, as git keeps a
/// fetched pack of 100 objects or more (`fetch.unpackLimit`): creating thousands of small files
/// is what makes writing thousands of merged notes slow. `writeBlob` then finds each blob
/// already stored and writes nothing; fewer objects stay loose, so small merges add no pack.
/// (Staging many files does the same inside `Index.update(paths:root:)`.)
enum PackedObjects {
    /// Stores `blobs` in one pack when there are at least `Index.packThreshold` of them.
    static func storeBlobs(_ blobs: [Data], repository: Repository) throws {
        guard blobs.count >= Index.packThreshold else { return }
        _ = try repository.writeBlobsAsPack(blobs)
    }
}
