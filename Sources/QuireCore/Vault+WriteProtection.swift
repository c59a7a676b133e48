import Foundation
#if canImport(Glibc)
import Glibc
#endif

extension Vault {
    /// Whether the file at `path` (vault-relative) is write-protected, as an editor would warn:
    /// its mode has no write bit (`chmod 444`; checked on the bits, since root may write any
    /// file), or this user may not write it. A missing file is not write-protected.
    public func isWriteProtected(_ path: String) throws -> Bool {
        let target = url(for: try resolveSafePath(path)).path
        var status = stat()
        guard stat(target, &status) == 0 else { return false }
        return status.st_mode & (S_IWUSR | S_IWGRP | S_IWOTH) == 0 || access(target, W_OK) != 0
    }
}
