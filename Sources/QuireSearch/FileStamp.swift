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

