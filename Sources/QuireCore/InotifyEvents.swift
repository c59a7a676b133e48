import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Reads the events queued on a non-blocking inotify descriptor, for `FolderWatch` and the sync
/// daemon's watch: one place that knows the layout of `struct inotify_event`.
public enum InotifyEvents {
    /// One event: the watch it came from, its mask, and the name in the watched folder (empty
    /// for an event about the folder itself).
    public struct Event: Sendable {
        /// The watch descriptor.
        public let watch: Int32
        /// The `IN_*` bits.
        public let mask: UInt32
        /// The entry's name, its bytes without the padding.
        public let name: [UInt8]
    }

    /// Every event queued now, in order (never blocks); throws the C error number when `read`
    /// fails otherwise than "nothing waiting".
    public static func drain(_ descriptor: Int32) throws(InotifyReadError) -> [Event] {
        var events: [Event] = []
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                if errno == EAGAIN || errno == EWOULDBLOCK { return events }
                throw InotifyReadError(message: String(cString: strerror(errno)))
            }
            if count == 0 { return events }
            buffer.withUnsafeBytes { raw in
                var offset = 0
                let header = MemoryLayout<inotify_event>.size
                while offset + header <= count {
                    let wd = raw.loadUnaligned(fromByteOffset: offset, as: Int32.self)
                    let mask = raw.loadUnaligned(fromByteOffset: offset + 4, as: UInt32.self)
                    let length = Int(raw.loadUnaligned(fromByteOffset: offset + 12, as: UInt32.self))
                    let name = raw[(offset + header)..<min(count, offset + header + length)].prefix { $0 != 0 }
                    events.append(Event(watch: wd, mask: mask, name: Array(name)))
                    offset += header + length
                }
            }
        }
    }
}

/// A failed `read` of an inotify descriptor: `strerror`'s text.
public struct InotifyReadError: Error, Sendable {
    /// What the C library said.
    public let message: String
}
