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

    /// Each term's slot counts its documents and occurrences, through the table's growth; once
    /// the counts are taken, the table still knows every term by its id.
    @Test func countsFollowTheirTermsAndTheTableStillKnowsItsTermsAfterwards() {
        var table = TermTable()
        let words = (0..<5000).map { Array("word\($0)".utf8) }
        // Document d holds words 0...d % 50 + (d / 50) * 10 ..., each word w of it (w % 3 + 1) times.
        var expected = [TermCount](repeating: TermCount(), count: words.count)
        for document in 0..<400 {
            let first = document * 10
            for word in first..<min(first + 100, words.count) {
                for _ in 0...(word % 3) {
                    _ = words[word].withUnsafeBufferPointer { table.occurrence(of: $0, in: Int32(document)) }
                    expected[word].occurrences += 1
                }
                expected[word].postings += 1
            }
        }
        let ids = words.map { word in word.withUnsafeBufferPointer { table.id(for: $0) } }
        #expect(Set(ids).count == words.count)
        let counts = table.takeTermCounts()
        #expect(counts.count == words.count)
        for (word, id) in ids.enumerated() {
            #expect(counts[Int(id)].postings == expected[word].postings, "postings of word \(word)")
            #expect(counts[Int(id)].occurrences == expected[word].occurrences, "occurrences of word \(word)")
        }
        for (word, id) in ids.enumerated() {
            #expect(words[word].withUnsafeBufferPointer { table.id(for: $0) } == id)
        }
        #expect(Array("new".utf8).withUnsafeBufferPointer { table.id(for: $0) } == UInt32(words.count))
    }

    /// Merged tables give one dictionary sorted bytewise (a term before the longer ones it
    /// begins), each table's ids mapped to it and listed in its order.
    @Test func mergedTablesGiveOneSortedDictionary() {
        let lists = [["b", "ab", "a", "abc", "z"], ["ab", "c", "aa", "b"], [], ["zz", "a"]]
        let tables = lists.map { list in
            var table = TermTable()
            for term in list { _ = Array(term.utf8).withUnsafeBufferPointer { table.id(for: $0) } }
            return table
        }
        let (terms, finalIDs, orders) = TermTable.merged(tables)
        let all = Set(lists.joined()).sorted { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) }
        #expect((0..<terms.count).map { terms.term($0) } == all)
        for (index, list) in lists.enumerated() {
            #expect(finalIDs[index].map { terms.term(Int($0)) } == list)
            #expect(orders[index].map { list[Int($0)] } == list.sorted { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) })
        }
    }

    /// The merge cut into ranges by key, on several cores, gives the very dictionary, ids and
    /// orders of one merge: tables of shared and own terms, terms that begin one another at the
    /// cuts, an empty table, and more ranges than some tables have terms.
    @Test func aMergeCutIntoRangesGivesTheSameDictionary() {
        var generator = SeededGenerator(seed: 14)
        let alphabet = Array("abcé東".unicodeScalars.map(String.init))
        func word() -> String {
            (0..<Int(generator.next() % 7 + 1)).map { _ in alphabet[Int(generator.next() % UInt64(alphabet.count))] }.joined()
        }
        let shared = (0..<3_000).map { _ in word() }
        let lists: [[String]] = [
            (0..<6_000).map { _ in generator.next() % 2 == 0 ? shared[Int(generator.next() % 3_000)] : word() },
            (0..<2_000).map { _ in shared[Int(generator.next() % 3_000)] },
            [],
            ["a", "ab", "abc", "b"],
            (0..<9_000).map { _ in word() },
        ]
        let tables = lists.map { list in
            var table = TermTable()
            for term in list { _ = Array(term.utf8).withUnsafeBufferPointer { table.id(for: $0) } }
            return table
        }
        let one = TermTable.merged(tables, parts: 1)
        let terms = (0..<one.terms.count).map { one.terms.term($0) }
        #expect(terms == Set(lists.joined()).sorted { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) })
        for parts in [2, 3, 7, 64, 5_000] {
            let cut = TermTable.merged(tables, parts: parts)
            #expect((0..<cut.terms.count).map { cut.terms.term($0) } == terms, "\(parts) parts")
            #expect(cut.finalIDs == one.finalIDs, "\(parts) parts")
            #expect(cut.orders == one.orders, "\(parts) parts")
        }
        // By default: as many ranges as cores (for this many terms), the same again.
        let byDefault = TermTable.merged(tables)
        #expect(byDefault.finalIDs == one.finalIDs && byDefault.terms.count == one.terms.count)
    }

    /// The ids sort by their terms' bytes, whether terms differ in their first eight bytes or
    /// only after them, hold zero bytes or bytes above 0x7F, or begin one another.
    @Test func sortedIDsFollowTheBytes() {
        var generator = SystemRandomNumberGenerator()
        let alphabet: [UInt8] = [0x00, 0x01, 0x61, 0x62, 0x7F, 0x80, 0xC3, 0xFF]
        var table = TermTable()
        var terms: [[UInt8]] = ["abcdefgh", "abcdefghi", "abcdefgh\u{0}", "abcdefg", "abcdefghz", "ab"].map { Array($0.utf8) }
        for _ in 0..<3000 {
            let length = Int.random(in: 1...20, using: &generator)
            terms.append((0..<length).map { _ in alphabet.randomElement(using: &generator) ?? 0x61 })
        }
        var distinct: [[UInt8]] = []
        for term in terms where term.withUnsafeBufferPointer({ table.id(for: $0) }) == UInt32(distinct.count) {
            distinct.append(term)
        }
        #expect(table.count == distinct.count)
        let sorted = table.sortedIDs().map { distinct[Int($0)] }
        #expect(sorted == distinct.sorted { $0.lexicographicallyPrecedes($1) })
    }
}
