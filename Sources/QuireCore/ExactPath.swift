#if canImport(Glibc)
import Glibc
#endif

/// A vault-relative path as a key that is its UTF-8 bytes: equal, hashed and ordered by them.
///
/// Swift's `String` compares and hashes by canonical equivalence, so `café.md` written
/// precomposed (NFC, `caf\u{E9}`) and decomposed (NFD, `cafe\u{301}`, as macOS writes names) is
/// one `String` key. To Linux, to git and to the vault walk they are two files. Tables of notes by
/// path use this key, so two such files are two notes (Docs/guarantees.md, "Two names equal under
/// Unicode normalization").
public struct ExactPath: Hashable, Comparable, Sendable, CustomStringConvertible {
    public let string: String

    @inlinable
    public init(_ string: String) {
        self.string = string
    }

    public var description: String { string }

    @inlinable
    public static func == (a: ExactPath, b: ExactPath) -> Bool {
        same(a.string, b.string)
    }

    @inlinable
    public func hash(into hasher: inout Hasher) {
        var bytes = string
        bytes.withUTF8 { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
    }

    /// By bytes: for names in NFC (almost all) the same order as `String`'s.
    @inlinable
    public static func < (a: ExactPath, b: ExactPath) -> Bool {
        precedes(a.string, b.string)
    }

    /// Whether two strings have the same UTF-8 bytes.
    @inlinable
    public static func same(_ a: String, _ b: String) -> Bool {
        var a = a
        var b = b
        return a.withUTF8 { left in b.withUTF8 { right in same(UnsafeRawBufferPointer(left), UnsafeRawBufferPointer(right)) } }
    }

    /// Whether two byte strings are equal.
    @inlinable
    public static func same(_ a: UnsafeRawBufferPointer, _ b: UnsafeRawBufferPointer) -> Bool {
        guard a.count == b.count else { return false }
        guard let left = a.baseAddress, let right = b.baseAddress else { return true }
        return memcmp(left, right, a.count) == 0
    }

    /// Whether `path` is `folder` or a path below it, by their bytes (`String.hasPrefix` compares
    /// by canonical equivalence: a folder `café` in NFC is not the start of one in NFD). A folder
    /// written with a trailing `/` (`/` itself) holds every path that starts with it.
    public static func isWithin(_ path: String, _ folder: String) -> Bool {
        var path = path
        var folder = folder
        return path.withUTF8 { whole in
            folder.withUTF8 { start in
                guard whole.count >= start.count, start.elementsEqual(whole.prefix(start.count)) else { return false }
                return start.last == UInt8(ascii: "/") || whole.count == start.count || whole[start.count] == UInt8(ascii: "/")
            }
        }
    }

    /// Whether the UTF-8 bytes of `a` come before those of `b` (a byte-wise, lexicographic order).
    @inlinable
    public static func precedes(_ a: String, _ b: String) -> Bool {
        var a = a
        var b = b
        return a.withUTF8 { left in
            b.withUTF8 { right in
                let common = min(left.count, right.count)
                if common > 0, let x = left.baseAddress, let y = right.baseAddress {
                    let order = memcmp(x, y, common)
                    if order != 0 { return order < 0 }
                }
                return left.count < right.count
            }
        }
    }
}
