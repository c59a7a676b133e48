import Foundation
import QuireCore

/// A list of strings kept as one buffer of UTF-8 bytes and the offset where each begins (one
/// more offset than strings): what the link table stores its paths, titles and attachments
/// as, written and read as two sections without a string object each.
struct PackedStrings: Sendable, Equatable {
    /// The strings' bytes, one after another (unless `mapped`).
    private var owned: [UInt8] = []
    /// Where the bytes lie in a mapped file instead (a table read from disk, used in place: only
    /// the pages of the strings read are brought in).
    private var mapped: MappedBytes?
    /// Where each string begins in the bytes, and where the last ends (in place where the file
    /// is mapped: `LinkColumn`).
    private(set) var offsets: LinkColumn<UInt32> = [0]

    /// Bytes of a mapped file.
    private struct MappedBytes: Sendable {
        let memory: ColumnMemory
        let offset: Int
        let count: Int
    }

    /// An empty list.
    init() {}

    /// The list of `strings`.
    init<S: Sequence>(_ strings: S) where S.Element == String {
        for string in strings { append(string) }
    }

    /// A list read back in place from its two sections (`count` bytes at `offset` of `memory`,
    /// and `offsets`); nil when the offsets do not fit the bytes (each checked to come after the
    /// one before with `checkingOrder`, else only the first and the last).
    init?(memory: ColumnMemory, offset: Int, count: Int, offsets: LinkColumn<UInt32>, checkingOrder: Bool = true) {
        guard offsets.first == 0, offsets.last.map({ Int($0) == count }) ?? false,
              !checkingOrder || zip(offsets, offsets.dropFirst()).allSatisfy({ $0 <= $1 }) else { return nil }
        mapped = MappedBytes(memory: memory, offset: offset, count: count)
        self.offsets = offsets
    }

    /// Two lists of the same strings.
    static func == (left: PackedStrings, right: PackedStrings) -> Bool {
        left.offsets == right.offsets && left.withAllBytes { a in right.withAllBytes { b in a.elementsEqual(b) } }
    }

    /// Calls `body` with every string's bytes, one after another.
    func withAllBytes<T>(_ body: (UnsafeRawBufferPointer) -> T) -> T {
        if let mapped { return body(UnsafeRawBufferPointer(start: mapped.memory.base + mapped.offset, count: mapped.count)) }
        return owned.withUnsafeBytes(body)
    }

    /// The number of strings.
    var count: Int { offsets.count - 1 }

    /// The string at `index`.
    subscript(index: Int) -> String {
        withBytes(index) { String(decoding: $0, as: UTF8.self) }
    }

    /// Calls `body` with the UTF-8 bytes of the string at `index`.
    func withBytes<T>(_ index: Int, _ body: (UnsafeRawBufferPointer) -> T) -> T {
        withAllBytes { buffer in
            body(UnsafeRawBufferPointer(rebasing: buffer[Int(offsets[index])..<Int(offsets[index + 1])]))
        }
    }

    /// Makes the bytes this list's own (before it grows).
    private mutating func own() {
        guard mapped != nil else { return }
        owned = withAllBytes { Array($0) }
        mapped = nil
    }

    /// Adds `string` at the end.
    mutating func append(_ string: String) {
        own()
        owned.append(contentsOf: string.utf8)
        offsets.append(UInt32(owned.count))
    }

    /// Adds the string at `index` of `other` at the end (its bytes copied, not decoded).
    mutating func append(_ index: Int, of other: PackedStrings) {
        own()
        other.withBytes(index) { owned.append(contentsOf: $0) }
        offsets.append(UInt32(owned.count))
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
