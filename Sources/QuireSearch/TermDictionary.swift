/// The sorted terms of a segment: UTF-8 bytes in one column, sorted bytewise, so a prefix is
/// a contiguous range of term ids.
struct TermDictionary: Sendable {
    let bytes: ByteColumn
    /// `count + 1` offsets into `bytes`.
    let offsets: Column

    var count: Int { max(offsets.count - 1, 0) }

    /// The term with id `id`.
    func term(_ id: Int) -> String {
        let span = offsets.span(id, limit: bytes.count)
        return String(decoding: UnsafeBufferPointer(start: bytes.pointer + span.lowerBound, count: span.count), as: UTF8.self)
    }

    /// The ids of terms equal to `term` (`isPrefix == false`) or starting with it.
    func range(of term: String, isPrefix: Bool) -> Range<Int> {
        var term = term
        return term.withUTF8 { key in
            let lower = lowerBound(key)
            if !isPrefix {
                return lower < count && compare(lower, key) == 0 ? lower..<(lower + 1) : lower..<lower
            }
            var low = lower
            var high = count
            while low < high {
                let middle = (low + high) / 2
                if hasPrefix(middle, key) { low = middle + 1 } else { high = middle }
            }
            return lower..<low
        }
    }

    private func lowerBound(_ key: UnsafeBufferPointer<UInt8>) -> Int {
        var low = 0
        var high = count
        while low < high {
            let middle = (low + high) / 2
            if compare(middle, key) < 0 { low = middle + 1 } else { high = middle }
        }
        return low
    }

    private func compare(_ id: Int, _ key: UnsafeBufferPointer<UInt8>) -> Int {
        let span = offsets.span(id, limit: bytes.count)
        let start = span.lowerBound
        let length = span.count
        let shared = min(length, key.count)
        for index in 0..<shared {
            let left = bytes.pointer[start + index]
            let right = key[index]
            if left != right { return left < right ? -1 : 1 }
        }
        return length == key.count ? 0 : (length < key.count ? -1 : 1)
    }

    private func hasPrefix(_ id: Int, _ key: UnsafeBufferPointer<UInt8>) -> Bool {
        let span = offsets.span(id, limit: bytes.count)
        let start = span.lowerBound
        let length = span.count
        guard length >= key.count else { return false }
        for index in 0..<key.count where bytes.pointer[start + index] != key[index] { return false }
        return true
    }
}
