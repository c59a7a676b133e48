#if canImport(Glibc)
import Glibc
#endif

/// A whole file read into memory this type owns (freed in `deinit`), with a NUL after its end.
final class FileBytes {
    let bytes: UnsafePointer<UInt8>
    let count: Int
    private let buffer: UnsafeMutablePointer<UInt8>

    init?(path: String) {
        guard let read = Self.opened(path, { descriptor, status -> (UnsafeMutablePointer<UInt8>, Int)? in
            let size = Int(status.st_size)
            let buffer = UnsafeMutablePointer<UInt8>.allocate(capacity: size + 1)
            var done = 0
            while done < size {
                let got = Glibc.read(descriptor, buffer + done, size - done)
                if got < 0 && errno == EINTR { continue }
                guard got > 0 else { break }
                done += got
            }
            buffer[done] = 0
            guard done == size else {
                buffer.deallocate()
                return nil
            }
            return (buffer, size)
        }) else { return nil }
        (buffer, count) = read
        bytes = UnsafePointer(buffer)
    }

    /// `body` with the file at `path` open for reading (closed after) and its `fstat`; nil when
    /// it cannot be opened or looked at.
    static func opened<T>(_ path: String, _ body: (Int32, stat) -> T?) -> T? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0, status.st_size >= 0 else { return nil }
        return body(descriptor, status)
    }

    deinit {
        buffer.deallocate()
    }
}
