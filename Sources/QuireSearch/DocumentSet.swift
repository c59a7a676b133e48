/// A set of catalog documents (global document numbers) as a bitset.
struct DocumentSet: Equatable {
    private(set) var words: [UInt64]
    let capacity: Int

    init(capacity: Int, full: Bool = false) {
        self.capacity = capacity
        words = [UInt64](repeating: full ? ~0 : 0, count: (capacity + 63) / 64)
        if full, capacity % 64 != 0, !words.isEmpty {
            words[words.count - 1] = (1 << UInt64(capacity % 64)) - 1
        }
    }

    @inline(__always)
    func contains(_ document: Int) -> Bool {
        words[document >> 6] & (1 << UInt64(document & 63)) != 0
    }

    @inline(__always)
    mutating func insert(_ document: Int) {
        words[document >> 6] |= 1 << UInt64(document & 63)
    }

    @inline(__always)
    mutating func remove(_ document: Int) {
        words[document >> 6] &= ~(1 << UInt64(document & 63))
    }

    mutating func formIntersection(_ other: DocumentSet) {
        for index in words.indices { words[index] &= other.words[index] }
    }

    mutating func formUnion(_ other: DocumentSet) {
        for index in words.indices { words[index] |= other.words[index] }
    }

    mutating func subtract(_ other: DocumentSet) {
        for index in words.indices { words[index] &= ~other.words[index] }
    }

    var count: Int { words.reduce(0) { $0 + $1.nonzeroBitCount } }

    /// Calls `body` with every member, ascending.
    func forEach(_ body: (Int) -> Void) {
        for (index, word) in words.enumerated() where word != 0 {
            var bits = word
            while bits != 0 {
                body(index << 6 | bits.trailingZeroBitCount)
                bits &= bits - 1
            }
        }
    }

    /// The members, ascending.
    var members: [Int] {
        [Int](unsafeUninitializedCapacity: count) { buffer, filled in
            filled = 0
            forEach { member in
                buffer[filled] = member
                filled += 1
            }
        }
    }
}
