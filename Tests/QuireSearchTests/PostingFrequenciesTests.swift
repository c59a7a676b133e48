import QuireTestSupport
import Testing
@testable import QuireSearch

/// A posting's occurrences kept in a byte, or in the overflow table when they do not fit, read
/// back as they were written: in order through a cursor (from any first slot, every slot or
/// skipping some) and one at a time.
struct PostingFrequenciesTests {
    /// Writes `occurrences` (title, other) as a segment's writers do and checks every read.
    static func expectRoundTrip(_ occurrences: [(title: UInt32, other: UInt32)]) {
        var bytes: [UInt8] = []
        var overflow: [UInt32] = []
        for (slot, (title, other)) in occurrences.enumerated() {
            let byte = PostingFrequencies.byte(title: title, other: other)
            bytes.append(byte ?? PostingFrequencies.escape)
            if byte == nil { overflow += [UInt32(slot), PostingFrequencies.packed(title: title, other: other), title &+ other] }
        }
        // Written out of order, as the slices return them, and sorted.
        overflow = PostingFrequencies.sortedOverflow(stride(from: 0, to: overflow.count, by: 3).reversed()
            .flatMap { overflow[$0..<$0 + 3] })
        let entries = overflow.count / 3
        // A value past each end (never read), so that neither array is empty.
        (bytes + [0]).withUnsafeBufferPointer { bytes in
            (overflow + [0, 0, 0]).withUnsafeBufferPointer { table in
                guard let byteBase = bytes.baseAddress, let tableBase = table.baseAddress else { return }
                let frequencies = PostingFrequencies(bytes: byteBase, count: occurrences.count, overflow: tableBase,
                                                     overflowCount: entries)
                func expected(_ slot: Int) -> (UInt32, Int) {
                    let (title, other) = occurrences[slot]
                    return (min(title, 255) << 24 | min(other, 0xFF_FFFF), Int(title + other))
                }
                for first in Set([0, occurrences.count / 3, occurrences.count / 2, max(occurrences.count - 1, 0)]) {
                    var cursor = frequencies.cursor(from: first)
                    for slot in first..<occurrences.count {
                        let read = frequencies.read(slot, &cursor)
                        #expect(read.packed == expected(slot).0 && read.positions == expected(slot).1, "slot \(slot) from \(first)")
                    }
                }
                // A walk that skips postings (an AND of two terms) passes several overflow
                // entries at a time.
                for step in [2, 7, 31] {
                    var cursor = frequencies.cursor(from: 0)
                    for slot in stride(from: 0, to: occurrences.count, by: step) {
                        let read = frequencies.read(slot, &cursor)
                        #expect(read.packed == expected(slot).0 && read.positions == expected(slot).1, "slot \(slot) by \(step)")
                    }
                }
                for slot in occurrences.indices {
                    let read = frequencies.read(slot)
                    #expect(read.packed == expected(slot).0 && read.positions == expected(slot).1, "slot \(slot) alone")
                }
                #expect(frequencies.read(occurrences.count).positions == 0)
            }
        }
    }

    @Test func occurrencesReadBackAsWritten() {
        // None, one, the edges of the byte, the caps and the largest values.
        Self.expectRoundTrip([])
        Self.expectRoundTrip([(0, 1)])
        Self.expectRoundTrip([(3, 62), (3, 63), (4, 0), (0, 64), (1, 63), (2, 0), (255, 0), (256, 7), (0, 0xFF_FFFF),
                              (0, 0xFF_FFFF + 5), (300, 0x100_0000), (0, 1)])
        Self.expectRoundTrip([(3, 63)])
        var random = SeededGenerator(seed: 91)
        for _ in 0..<40 {
            let count = Int.random(in: 0..<600, using: &random)
            let escapes = Int.random(in: 0...3, using: &random)  // none, few, many, most escaped
            Self.expectRoundTrip((0..<count).map { _ in
                let title = Int.random(in: 0..<100, using: &random) < escapes * 5 ? UInt32.random(in: 0..<400, using: &random)
                    : UInt32.random(in: 0..<4, using: &random)
                let other = Int.random(in: 0..<100, using: &random) < escapes * 10
                    ? UInt32.random(in: 0..<0x180_0000, using: &random) : UInt32.random(in: 0..<64, using: &random)
                return (title, other)
            })
        }
    }
}
