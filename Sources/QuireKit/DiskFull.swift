import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Whether a failure was a full disk (`ENOSPC`), wherever it surfaced: a file write, libgit2
/// writing objects or a fetched pack, a temporary file. It is this device's trouble, never the
/// network's: the daemon does not call it offline.
enum DiskFull {
    /// The system's words for `ENOSPC` ("No space left on device"), as libgit2 and Foundation
    /// append them to their messages.
    static let words = String(cString: strerror(ENOSPC))

    /// Whether `error` is, or says it was caused by, a full disk.
    static func caused(_ error: Error) -> Bool {
        if let posix = error as? POSIXError, posix.code == .ENOSPC { return true }
        let nested = error as NSError
        if nested.domain == NSPOSIXErrorDomain, nested.code == Int(ENOSPC) { return true }
        if let underlying = nested.userInfo[NSUnderlyingErrorKey] as? NSError,
           underlying.domain == NSPOSIXErrorDomain, underlying.code == Int(ENOSPC) {
            return true
        }
        return String(describing: error).contains(words)
    }
}
