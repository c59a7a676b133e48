import Foundation
import QuireTestSupport
import Testing
@testable import QuireSearch

@Suite("The link table's columns, used in place until one changes")
struct LinkColumnTests {
    /// A column over values in memory of its own kind (as a mapped file's), then random
    /// appends, writes, removals and replacements: it holds what an array given the same
    /// changes holds, and the memory it was made over is left as it was.
    @Test func changesCopyTheValuesOnceAndLeaveTheMemory() {
        var random = SeededGenerator(seed: 3503)
        for round in 0..<50 {
            let values = (0..<Int(random.next() % 40)).map { _ in UInt32(truncatingIfNeeded: random.next()) }
            var expected = values
            var column = LinkColumn(mapped: FlatColumn(values))
            let source = column
            #expect(Array(column) == values && column == LinkColumn(values), "round \(round)")
            for _ in 0..<Int(random.next() % 6) {
                let value = UInt32(truncatingIfNeeded: random.next())
                switch random.next() % 4 {
                case 0:
                    column.append(value); expected.append(value)
                case 1 where !expected.isEmpty:
                    let index = Int(random.next() % UInt64(expected.count))
                    column[index] = value; expected[index] = value
                case 2 where !expected.isEmpty:
                    let start = Int(random.next() % UInt64(expected.count))
                    column.removeSubrange(start...); expected.removeSubrange(start...)
                default:
                    column.replaceSubrange(0..<0, with: [value, value]); expected.replaceSubrange(0..<0, with: [value, value])
                }
            }
            #expect(Array(column) == expected, "round \(round)")
            #expect(Array(source) == values, "round \(round): the mapped values are not changed")
            column.withUnsafeBytes { bytes in
                #expect(bytes.count == expected.count * 4)
            }
        }
    }
}
