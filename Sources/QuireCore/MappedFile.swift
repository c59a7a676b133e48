import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A whole file mapped read-only (private), unmapped when the value goes away: a small cache
/// file read once per command costs its pages' mapping (the kernel maps several at each fault)
/// instead of a buffer zeroed page by page and a copy.
public final class MappedFile: @unchecked Sendable {
    /// The file's bytes, valid while this value lives.
    public let bytes: UnsafeRawBufferPointer

    /// Maps the file at `path`; nil when it is missing, empty, not a regular file or cannot be
    /// mapped (a caller then reads nothing from it, as from a missing cache).
    public init?(path: String) {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFREG, status.st_size > 0,
              let address = mmap(nil, Int(status.st_size), PROT_READ, MAP_PRIVATE, descriptor, 0),
              address != MAP_FAILED else { return nil }
        bytes = UnsafeRawBufferPointer(start: address, count: Int(status.st_size))
    }

    deinit {
        if let base = bytes.baseAddress { munmap(UnsafeMutableRawPointer(mutating: base), bytes.count) }
    }
}
