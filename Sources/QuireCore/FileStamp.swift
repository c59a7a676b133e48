import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// What `lstat` says about a file, compared the way git compares its index: size, modification
/// and status-change times in nanoseconds, and inode. Any difference means "look at the
/// content"; a content hash then decides whether the note really changed.
public struct FileStamp: Equatable, Sendable {
    /// Size in bytes.
    public var size: UInt64
    /// Modification time, nanoseconds since 1970.
    public var modifiedNanoseconds: Int64
    /// Status-change time, nanoseconds since 1970.
    public var changedNanoseconds: Int64
    /// Inode number.
    public var inode: UInt64

    /// Creates a stamp.
    public init(size: UInt64, modifiedNanoseconds: Int64, changedNanoseconds: Int64, inode: UInt64) {
        self.size = size
        self.modifiedNanoseconds = modifiedNanoseconds
        self.changedNanoseconds = changedNanoseconds
        self.inode = inode
    }

    /// The stamp of a `stat` result.
    public init(_ status: stat) {
        self.init(size: UInt64(status.st_size),
                  modifiedNanoseconds: Int64(status.st_mtim.tv_sec) * 1_000_000_000 + Int64(status.st_mtim.tv_nsec),
                  changedNanoseconds: Int64(status.st_ctim.tv_sec) * 1_000_000_000 + Int64(status.st_ctim.tv_nsec),
                  inode: UInt64(status.st_ino))
    }
}

extension FileStamp {
    /// git's racily-clean window, in nanoseconds: a stamp that changed less than this before it
    /// was read is not trusted, since a second change within the clock's tick could leave it
    /// identical. The catalog's stamps, the walk's folder listings and the ignore verdicts all
    /// follow it. 50 ms, or `QUIRE_RACY_WINDOW_MS` (a test hook: 0 lets an end-to-end test
    /// trust what it has just written instead of sleeping the window out).
    public static let racyWindow: Int64 = racyWindow(environment: ProcessInfo.processInfo.environment)

    /// The window `QUIRE_RACY_WINDOW_MS` sets (whole milliseconds, 0 to 10,000), else 50 ms.
    static func racyWindow(environment: [String: String]) -> Int64 {
        guard let text = environment["QUIRE_RACY_WINDOW_MS"], let milliseconds = Int64(text),
              (0...10_000).contains(milliseconds) else { return 50_000_000 }
        return milliseconds * 1_000_000
    }

    /// The system clock now, in nanoseconds since 1970, as stamps count time (never the
    /// `QUIRE_NOW` of tests: stamps come from the real clock).
    public static func now() -> Int64 {
        Int64(Date().timeIntervalSince1970 * 1e9)
    }

    /// Whether the file changed within `racyWindow` before `now` (nanoseconds since 1970).
    public func isRacy(now: Int64) -> Bool {
        modifiedNanoseconds >= now - Self.racyWindow || changedNanoseconds >= now - Self.racyWindow
    }

    /// The stamp's four fields mixed into one word (for fingerprints of several files).
    public var digest: UInt64 {
        var hash: UInt64 = 0x9E37_79B9_7F4A_7C15
        for value in [size, UInt64(bitPattern: modifiedNanoseconds), UInt64(bitPattern: changedNanoseconds), inode] {
            hash = (hash ^ value) &* 0xBF58_476D_1CE4_E5B9
            hash ^= hash >> 31
        }
        return hash
    }
}

/// The order in which the vault walk returns note paths: by path components, each compared
/// byte by byte (as if `/` sorted before every other byte). It is a folder tree's order, the
/// order of a depth-first walk over names sorted by bytes, so the walk needs no global sort.
public enum PathOrder {
    /// Whether the UTF-8 path `a` comes before `b`.
    public static func precedes(_ a: UnsafeRawBufferPointer, _ b: UnsafeRawBufferPointer) -> Bool {
        let common = min(a.count, b.count)
        var index = 0
        while index < common {
            let x = a[index]
            let y = b[index]
            if x != y {
                if x == 0x2F { return true }
                if y == 0x2F { return false }
                return x < y
            }
            index += 1
        }
        return a.count < b.count
    }

    /// `precedes` for strings (their UTF-8 bytes).
    public static func precedes(_ a: String, _ b: String) -> Bool {
        var a = a
        var b = b
        return a.withUTF8 { left in b.withUTF8 { right in precedes(UnsafeRawBufferPointer(left), UnsafeRawBufferPointer(right)) } }
    }
}
