import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Atomic file replacement: write a temporary file in the same directory, fsync it, give it
/// the permissions of the file it replaces, rename it over the target, fsync the directory.
/// A crash at any point leaves either the old or the new file, never a mix.
enum AtomicFile {
    /// Writes `data` to `url` atomically; `displayPath` names the file in errors.
    static func write(_ data: Data, to url: URL, displayPath: String) throws {
        let directory = url.deletingLastPathComponent().path
        let temporary = directory + "/.quire-tmp-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        // An existing file keeps its permissions; a new one gets 0666 minus the umask.
        var existingMode: mode_t?
        var status = stat()
        if stat(url.path, &status) == 0 { existingMode = status.st_mode & 0o7777 }
        func failure(_ what: String) -> CoreError {
            CoreError.writeFailed(path: displayPath, reason: "\(what): \(String(cString: strerror(errno)))")
        }
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, existingMode ?? 0o666)
        guard descriptor >= 0 else { throw failure("cannot create a temporary file") }
        var closed = false
        defer {
            if !closed { close(descriptor) }
        }
        do {
            try data.withUnsafeBytes { raw in
                var offset = 0
                while offset < raw.count {
                    guard let base = raw.baseAddress else { break }
                    let written = Glibc.write(descriptor, base + offset, raw.count - offset)
                    if written < 0 {
                        if errno == EINTR { continue }
                        throw failure("write failed")
                    }
                    offset += written
                }
            }
            if let mode = existingMode, fchmod(descriptor, mode) != 0 { throw failure("cannot set permissions") }
            guard fsync(descriptor) == 0 else { throw failure("fsync failed") }
            closed = true
            guard close(descriptor) == 0 else { throw failure("close failed") }
            guard rename(temporary, url.path) == 0 else { throw failure("rename failed") }
        } catch {
            unlink(temporary)
            throw error
        }
        let directoryDescriptor = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if directoryDescriptor >= 0 {
            defer { close(directoryDescriptor) }
            guard fsync(directoryDescriptor) == 0 else { throw failure("fsync of the folder failed") }
        }
    }
}
