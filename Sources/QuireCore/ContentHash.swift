import Foundation

/// A fast 64-bit hash of bytes (FNV-1a over 8-byte words with a final mix); not cryptographic.
/// It tells whether a file's bytes changed (the catalog's stamps), checks a cache file
/// (`FolderListings`) and keys tables of paths (QuireKit `IgnoreVerdicts`, `DatesPathTable`).
public enum ContentHash {
    /// The hash of `bytes`.
    public static func hash(_ bytes: UnsafeRawBufferPointer) -> UInt64 {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325 ^ UInt64(bytes.count)
        let prime: UInt64 = 0x0000_0100_0000_01B3
        let words = bytes.count / 8
        for index in 0..<words {
            let word = bytes.loadUnaligned(fromByteOffset: index * 8, as: UInt64.self)
            hash = (hash ^ word) &* prime
            hash ^= hash >> 29
        }
        for index in (words * 8)..<bytes.count {
            hash = (hash ^ UInt64(bytes[index])) &* prime
        }
        hash ^= hash >> 33
        hash = hash &* 0xFF51_AFD7_ED55_8CCD
        hash ^= hash >> 33
        return hash
    }

    /// The hash of `data`'s bytes.
    public static func hash(_ data: Data) -> UInt64 {
        data.withUnsafeBytes { hash($0) }
    }
}
