import Foundation
import QuireCore
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// What reading the next framed message gave.
enum FramedInput: Equatable {
    /// A message body (the bytes after the headers, `Content-Length` long).
    case body([UInt8])
    /// A header block that could not be understood (no or a bad `Content-Length`): skipped,
    /// the reader goes on with the next block.
    case badHeader(String)
    /// The input ended (the client closed the pipe).
    case end
}

/// Reads LSP base-protocol messages (`Content-Length: N\r\n` … `\r\n\r\n` then N bytes) from a
/// file descriptor. Owns only its buffer; the descriptor belongs to the caller.
final class MessageReader {
    /// The largest body accepted (a bigger announced length is a bad header, its bytes skipped).
    static let maxBodyBytes = 256 << 20

    private let descriptor: Int32
    private var buffer: [UInt8] = []
    private var start = 0
    private var ended = false

    /// Reads from `descriptor` (not closed here).
    init(descriptor: Int32) { self.descriptor = descriptor }

    /// The next message, blocking until it is complete.
    func next() -> FramedInput {
        while true {
            guard let headerEnd = find([13, 10, 13, 10]) else {
                if !fill() {
                    return available == 0 || buffer[start..<buffer.count].allSatisfy({ $0 == 13 || $0 == 10 })
                        ? .end : consumeAll(reason: "the input ended inside a header")
                }
                continue
            }
            let header = String(decoding: buffer[start..<headerEnd], as: UTF8.self)
            start = headerEnd + 4
            guard let length = Self.contentLength(header) else {
                return .badHeader("no valid Content-Length header in '\(header.prefix(200))'")
            }
            guard length <= Self.maxBodyBytes else {
                skip(length)
                return .badHeader("a message of \(length) bytes is larger than the limit")
            }
            while available < length {
                if !fill() { return consumeAll(reason: "the input ended inside a message body") }
            }
            let body = Array(buffer[start..<(start + length)])
            start += length
            compact()
            return .body(body)
        }
    }

    /// The value of `Content-Length` in a header block (case-insensitive name, per HTTP).
    static func contentLength(_ header: String) -> Int? {
        var length: Int?
        for line in header.split(separator: "\r\n", omittingEmptySubsequences: true) {
            guard let colon = line.firstIndex(of: ":") else { return nil }
            let name = line[..<colon].trimmingCharacters(in: .whitespaces).lowercased()
            let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            if name == "content-length" {
                guard let number = Int(value), number >= 0 else { return nil }
                length = number
            }
        }
        return length
    }

    private var available: Int { buffer.count - start }

    private func consumeAll(reason: String) -> FramedInput {
        buffer.removeAll()
        start = 0
        return ended ? .badHeader(reason) : .end
    }

    /// Skips `count` bytes of input (an oversized body).
    private func skip(_ count: Int) {
        var left = count
        while left > 0 {
            let here = min(left, available)
            start += here
            left -= here
            compact()
            if left > 0 && !fill() { return }
        }
    }

    private func find(_ needle: [UInt8]) -> Int? {
        guard available >= needle.count else { return nil }
        var index = start
        let last = buffer.count - needle.count
        while index <= last {
            if buffer[index] == needle[0] && buffer[index + 1] == needle[1]
                && buffer[index + 2] == needle[2] && buffer[index + 3] == needle[3] { return index }
            index += 1
        }
        return nil
    }

    private func compact() {
        if start > 0 && start == buffer.count {
            buffer.removeAll(keepingCapacity: true)
            start = 0
        } else if start > 1 << 20 {
            buffer.removeSubrange(0..<start)
            start = 0
        }
    }

    /// Reads more input; false at the end of input (or a read error).
    private func fill() -> Bool {
        if ended { return false }
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            if count <= 0 {
                ended = true
                return false
            }
            buffer.append(contentsOf: chunk[0..<count])
            return true
        }
    }
}

/// Writes framed messages to a file descriptor; safe to call from any thread (one lock keeps
/// messages whole). The descriptor belongs to the caller.
final class MessageWriter: Sendable {
    /// The descriptor, held by the lock that keeps messages whole.
    private let descriptor: Mutex<Int32>

    /// Writes to `descriptor` (not closed here).
    init(descriptor: Int32) { self.descriptor = Mutex(descriptor) }

    /// Sends one message: its `Content-Length` header and its compact JSON body. A write error
    /// (the client went away) is returned, not thrown: the server stops reading soon after.
    @discardableResult
    func send(_ message: JSON) -> Bool {
        let body = message.encoded(.compact)
        var bytes = Array("Content-Length: \(body.count)\r\n\r\n".utf8)
        bytes.append(contentsOf: body)
        return descriptor.withLock { descriptor in
            var offset = 0
            while offset < bytes.count {
                let written = bytes[offset...].withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
                if written < 0 && errno == EINTR { continue }
                if written <= 0 { return false }
                offset += written
            }
            return true
        }
    }
}
