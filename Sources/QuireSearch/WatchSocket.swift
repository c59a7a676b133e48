import Foundation
import QuireCore
#if canImport(Glibc)
import Glibc
#endif

/// Why a vault's watcher could not start or stopped.
public enum WatchError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Another watcher already listens for this vault.
    case alreadyRunning
    /// The folders cannot be watched (inotify): what failed.
    case watch(FolderWatchError)
    /// A socket call failed: its name and message.
    case socket(function: String, message: String)

    /// A readable, lowercase description.
    public var description: String {
        switch self {
        case .alreadyRunning: return "a watcher is already running for this vault"
        case .watch(let error): return error.description
        case .socket(let function, let message): return "\(function) failed: \(message)"
        }
    }
}

/// The local socket a vault's watcher listens on: a Linux abstract socket (no file to leave
/// behind or to clean up) named after the user and the vault's real path. Both sides check the
/// other's user id with `SO_PEERCRED`, so no other user can ask or answer. Messages are
/// NUL-separated fields; every read and write has a deadline.
enum WatchSocket {
    /// How long one side waits for the other before giving up.
    static let timeoutMilliseconds = 1_000
    /// The largest message either side accepts.
    static let messageLimit = 64 * 1024 * 1024

    /// The socket address for the vault whose real root is `realRoot`.
    static func address(_ realRoot: String) -> (sockaddr_un, socklen_t) {
        let hash = ContentHash.hash(Data(realRoot.utf8))
        let name = Array("quire-watch-\(geteuid())-\(String(hash, radix: 16))".utf8)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { path in
            path[0] = 0  // abstract namespace
            for (index, byte) in name.enumerated() { path[index + 1] = byte }
        }
        let length = MemoryLayout<sa_family_t>.size + 1 + name.count
        return (address, socklen_t(length))
    }

    /// A new stream socket (close-on-exec).
    static func make() throws(WatchError) -> Int32 {
        let descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { throw .socket(function: "socket", message: String(cString: strerror(errno))) }
        return descriptor
    }

    /// Whether the process at the other end of `descriptor` runs as this user.
    static func peerIsSameUser(_ descriptor: Int32) -> Bool {
        // struct ucred { pid_t pid; uid_t uid; gid_t gid; }
        var credentials = (Int32(0), UInt32(0), UInt32(0))
        var length = socklen_t(MemoryLayout.size(ofValue: credentials))
        guard getsockopt(descriptor, SOL_SOCKET, SO_PEERCRED, &credentials, &length) == 0 else { return false }
        return credentials.1 == geteuid()
    }

    /// Sets the send and receive deadlines of `descriptor`.
    static func setDeadlines(_ descriptor: Int32) {
        var time = timeval(tv_sec: timeoutMilliseconds / 1000, tv_usec: (timeoutMilliseconds % 1000) * 1000)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &time, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(descriptor, SOL_SOCKET, SO_SNDTIMEO, &time, socklen_t(MemoryLayout<timeval>.size))
    }

    /// Writes all of `bytes`; false on an error or a deadline.
    static func send(_ descriptor: Int32, _ bytes: [UInt8]) -> Bool {
        var done = 0
        while done < bytes.count {
            let count = bytes.withUnsafeBytes { Glibc.send(descriptor, $0.baseAddress.map { $0 + done }, bytes.count - done, Int32(MSG_NOSIGNAL)) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { return false }
            done += count
        }
        return true
    }

    /// Reads until the peer closes its side (or `fields` NUL-terminated fields arrived);
    /// nil on an error, a deadline or a message over the limit.
    static func receive(_ descriptor: Int32, fields: Int? = nil) -> [UInt8]? {
        var message: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        var terminators = 0
        while true {
            let count = chunk.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            if count < 0 && errno == EINTR { continue }
            guard count >= 0 else { return nil }
            if count == 0 { return message }
            message.append(contentsOf: chunk[0..<count])
            guard message.count <= messageLimit else { return nil }
            if let fields {
                terminators += chunk[0..<count].reduce(0) { $0 + ($1 == 0 ? 1 : 0) }
                if terminators >= fields { return message }
            }
        }
    }

    /// Splits a message into its NUL-terminated fields.
    static func fields(_ message: [UInt8]) -> [String] {
        guard !message.isEmpty else { return [] }
        var parts = message.split(separator: 0, omittingEmptySubsequences: false).map { String(decoding: $0, as: UTF8.self) }
        if message.last == 0 { parts.removeLast() }
        return parts
    }

    /// Joins fields into a message (each NUL-terminated).
    static func message(_ fields: [String]) -> [UInt8] {
        var bytes: [UInt8] = []
        for field in fields {
            bytes.append(contentsOf: field.utf8)
            bytes.append(0)
        }
        return bytes
    }
}
