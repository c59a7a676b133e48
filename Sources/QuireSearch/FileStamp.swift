import Foundation
import QuireCore
#if canImport(Glibc)
import Glibc
#endif

extension FileStamp {
    /// The stamp of the file at `path` (not following a final symbolic link), or the `errno`
    /// message when it cannot be read.
    static func read(_ path: String) -> Result<FileStamp, StampError> {
        var status = stat()
        guard lstat(path, &status) == 0 else {
            let code = errno
            if code == ENOENT || code == ENOTDIR { return .failure(.missing) }
            return .failure(.failed(.cannotRead(String(cString: strerror(code)))))
        }
        guard status.st_mode & S_IFMT == S_IFREG else { return .failure(.failed(.notAFile)) }
        return .success(FileStamp(status))
    }
}

/// Why a file has no stamp.
enum StampError: Error {
    /// The file is gone.
    case missing
    /// It exists but cannot be used.
    case failed(IndexFailure.Reason)
}

/// A file's stamp together with the hash of the content it was indexed from.
struct StoredStamp: Equatable, Sendable {
    var stamp: FileStamp
    var contentHash: UInt64
}

/// A fast 64-bit content hash (FNV-1a over 8-byte words with a final mix); not cryptographic,
/// only used to tell whether a file's bytes changed.
enum ContentHash {
    static func hash(_ data: Data) -> UInt64 {
        data.withUnsafeBytes { bytes in
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
    }
}
