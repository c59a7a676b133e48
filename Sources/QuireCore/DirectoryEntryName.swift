#if canImport(Glibc)
import Glibc
#endif

/// The name of an entry `readdir` returned, read where readdir left it. A copy of `d_name`
/// (a 256-byte field) reads all of it, past the end of readdir's buffer when the entry is a
/// short last record there: a heap over-read that crashed a sync now and then
/// (`make test-asan` finds it). Every folder listing reads names through this.
public enum DirectoryEntryName {
    /// `body` with the bytes of `entry`'s name (no NUL; one follows them in place, so the base
    /// address is also the name as a C string), valid during the call only.
    @inline(__always)
    public static func with<T>(_ entry: UnsafeMutablePointer<dirent>, _ body: (UnsafeRawBufferPointer) throws -> T) rethrows -> T {
        try withUnsafePointer(to: &entry.pointee.d_name) { field in
            let start = UnsafeRawPointer(field)
            return try body(UnsafeRawBufferPointer(start: start, count: strlen(start.assumingMemoryBound(to: CChar.self))))
        }
    }
}
