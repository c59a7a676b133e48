import Testing
@testable import QuireSearch

/// The term table tells terms apart by every byte, whatever their length.
struct TermTableTests {
    /// Terms of every length up to 24 that differ in a single byte (at each position) get ids
    /// of their own, and asking again gives the same id.
    @Test func termsDifferingInOneByteGetTheirOwnIDs() {
        var table = TermTable()
        var expected: [[UInt8]: UInt32] = [:]
        for length in 0...24 {
            let base = (0..<length).map { UInt8(0x61 + $0 % 26) }
            var variants = [base]
            for position in 0..<length {
                var changed = base
                changed[position] = 0x30 + UInt8(position % 10)
                variants.append(changed)
            }
            for key in variants {
                let id = key.withUnsafeBufferPointer { table.id(for: $0) }
                if let known = expected[key] {
                    #expect(id == known, "\(key) changed its id")
                } else {
                    #expect(id == UInt32(expected.count), "\(key) did not get a new id")
                    expected[key] = id
                }
            }
        }
        for (key, id) in expected {
            #expect(key.withUnsafeBufferPointer { table.id(for: $0) } == id)
            #expect(table.withTerm(Int(id)) { Array($0) } == key)
        }
        #expect(table.count == expected.count)
    }
}
