import QuireCore

/// The terms of a slice (`SegmentSlice`) waiting for their ids: their bytes back to back and
/// where each ends, in memory of their own written through pointers — no check per term that
/// an array is referenced once, no call to copy a word of a few bytes — with eight bytes of
/// room past the bytes, so that an ASCII word is copied and lowercased eight bytes at a time.
/// A slice makes its own copy when it was copied (`SegmentSlice.makePendingExclusive`); the
/// bytes are room made once, grown only for a longer batch than any before.
final class PendingTerms {
    /// The terms' bytes (`count` of them, then room).
    private(set) var bytes: UnsafeMutablePointer<UInt8>
    /// How many bytes the terms take.
    private(set) var count = 0
    /// Where each term ends in `bytes` (`terms` of them).
    let ends: UnsafeMutablePointer<Int>
    /// How many terms wait.
    private(set) var terms = 0
    /// Each term's head and hash, set by the slice as it appends the term (`TermTable.prefetchKey`).
    let keys: UnsafeMutablePointer<TermKey>
    /// How many bytes `bytes` holds, without the eight of room past them.
    private var capacity = 1024
    /// How many terms wait at most.
    let batchSize: Int

    /// Room for `batchSize` terms.
    init(batchSize: Int) {
        self.batchSize = batchSize
        bytes = .allocate(capacity: capacity + 8)
        ends = .allocate(capacity: batchSize)
        keys = .allocate(capacity: batchSize)
    }

    /// A copy of `other`'s waiting terms, for a slice that was copied (`SegmentSlice`).
    convenience init(copying other: PendingTerms) {
        self.init(batchSize: other.batchSize)
        if other.count > capacity { grow(to: other.count) }
        bytes.update(from: other.bytes, count: other.count)
        ends.update(from: other.ends, count: other.terms)
        keys.update(from: other.keys, count: other.terms)
        count = other.count
        terms = other.terms
    }

    deinit {
        bytes.deallocate()
        ends.deallocate()
        keys.deallocate()
    }

    /// Appends `term` (fewer than `batchSize` terms waiting), its ASCII capitals lowercased when
    /// `ascii` (a word of ASCII bytes alone): eight bytes at a time, the last ones loaded within
    /// the word and stored into the room past it.
    @inline(__always)
    func append(_ term: UnsafeBufferPointer<UInt8>, ascii: Bool) {
        let length = term.count
        if count &+ length > capacity { grow(to: count &+ length) }
        if let source = term.baseAddress {
            let target = UnsafeMutableRawPointer(bytes + count)
            if ascii {
                let from = UnsafeRawPointer(source)
                var offset = 0
                while offset &+ 8 <= length {
                    let chunk = from.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
                    target.storeBytes(of: chunk | (ASCIIChunk.upperBytes(chunk) &>> 2), toByteOffset: offset, as: UInt64.self)
                    offset &+= 8
                }
                if offset < length {
                    let chunk = ASCIIChunk.load(from + offset, count: length &- offset)
                    target.storeBytes(of: chunk | (ASCIIChunk.upperBytes(chunk) &>> 2), toByteOffset: offset, as: UInt64.self)
                }
            } else {
                target.copyMemory(from: source, byteCount: length)
            }
        }
        count &+= length
        ends[terms] = count
        terms &+= 1
    }

    /// The last term appended (some waiting).
    @inline(__always)
    var last: UnsafeBufferPointer<UInt8> {
        let start = terms > 1 ? ends[terms - 2] : 0
        return UnsafeBufferPointer(start: bytes + start, count: count - start)
    }

    /// Forgets the terms (once they have their ids).
    func removeAll() {
        count = 0
        terms = 0
    }

    /// Makes room for `needed` bytes (a batch longer than any before: rare).
    @inline(never)
    private func grow(to needed: Int) {
        let larger = max(needed, 2 * capacity)
        let moved = UnsafeMutablePointer<UInt8>.allocate(capacity: larger + 8)
        moved.update(from: bytes, count: count)
        bytes.deallocate()
        bytes = moved
        capacity = larger
    }
}
