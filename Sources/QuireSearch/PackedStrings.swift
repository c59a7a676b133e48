import Foundation
import QuireCore

/// A list of strings kept as one buffer of UTF-8 bytes and the offset where each begins (one
/// more offset than strings): what the link table stores its paths, titles and attachments
/// as, written and read as two sections without a string object each.
struct PackedStrings: Sendable, Equatable {
    /// The strings' bytes, one after another.
    private(set) var bytes: [UInt8] = []
    /// Where each string begins in `bytes`, and where the last ends.
    private(set) var offsets: [UInt32] = [0]

    /// An empty list.
    init() {}

    /// The list of `strings`.
    init<S: Sequence>(_ strings: S) where S.Element == String {
        for string in strings { append(string) }
    }

    /// A list read back from its two sections; nil when the offsets do not fit the bytes.
    init?(bytes: [UInt8], offsets: [UInt32]) {
        guard offsets.first == 0, offsets.last.map({ Int($0) == bytes.count }) ?? false,
              zip(offsets, offsets.dropFirst()).allSatisfy({ $0 <= $1 }) else { return nil }
        self.bytes = bytes
        self.offsets = offsets
    }

    /// The number of strings.
    var count: Int { offsets.count - 1 }

    /// The string at `index`.
    subscript(index: Int) -> String {
        withBytes(index) { String(decoding: $0, as: UTF8.self) }
    }

    /// Calls `body` with the UTF-8 bytes of the string at `index`.
    func withBytes<T>(_ index: Int, _ body: (UnsafeRawBufferPointer) -> T) -> T {
        bytes.withUnsafeBytes { buffer in
            body(UnsafeRawBufferPointer(rebasing: buffer[Int(offsets[index])..<Int(offsets[index + 1])]))
        }
    }

    /// Adds `string` at the end.
    mutating func append(_ string: String) {
        bytes.append(contentsOf: string.utf8)
        offsets.append(UInt32(bytes.count))
    }

    /// Adds the string at `index` of `other` at the end (its bytes copied, not decoded).
    mutating func append(_ index: Int, of other: PackedStrings) {
        bytes.append(contentsOf: other.bytes[Int(other.offsets[index])..<Int(other.offsets[index + 1])])
        offsets.append(UInt32(bytes.count))
    }

    /// The index of `string` in a list in `PathOrder`, nil when it holds no such string.
    func indexInPathOrder(of string: String) -> Int? {
        var wanted = string
        return wanted.withUTF8 { target -> Int? in
            let key = UnsafeRawBufferPointer(target)
            var low = 0, high = count
            while low < high {
                let middle = (low + high) / 2
                let (same, before) = withBytes(middle) { (ExactPath.same($0, key), PathOrder.precedes($0, key)) }
                if same { return middle }
                if before { low = middle + 1 } else { high = middle }
            }
            return nil
        }
    }
}
