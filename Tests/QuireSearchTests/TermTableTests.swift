import QuireCore
import QuireTestSupport
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

    /// Terms looked up in batches (their slots read first, the table growing within a batch)
    /// get the ids they get one at a time, new terms numbered in the order they come.
    @Test func batchedLookupsGiveTheIDsOfSingleOnes() {
        var random = SeededGenerator(seed: 16)
        var (batched, single, prefetched) = (TermTable(), TermTable(), TermTable())
        batched.makeExclusive()
        prefetched.makeExclusive()
        for _ in 0..<2_000 {
            let terms = (0..<Int.random(in: 1...SegmentSlice.batchSize, using: &random)).map { _ in
                (0..<Int.random(in: 0...20, using: &random)).map { _ in UInt8.random(in: 0x61...0x64, using: &random) }
            }
            var bytes: [UInt8] = []
            var ends: [Int] = []
            for term in terms {
                bytes += term
                ends.append(bytes.count)
            }
            var ids = [UInt32](repeating: .max, count: terms.count)
            ids.withUnsafeMutableBufferPointer { ids in
                bytes.withUnsafeBufferPointer { bytes in
                    ends.withUnsafeBufferPointer { batched.exclusiveIDs(of: bytes, ends: $0, into: ids) }
                }
            }
            // The same batch with each term's key made (and its slot asked for) as it is read.
            let keys = terms.map { term in term.withUnsafeBufferPointer { prefetched.prefetchKey($0) } }
            var prefetchedIDs = [UInt32](repeating: .max, count: terms.count)
            prefetchedIDs.withUnsafeMutableBufferPointer { ids in
                bytes.withUnsafeBufferPointer { bytes in
                    ends.withUnsafeBufferPointer { ends in
                        keys.withUnsafeBufferPointer { prefetched.exclusiveIDs(of: bytes, ends: ends, keys: $0, into: ids) }
                    }
                }
            }
            #expect(ids == terms.map { term in term.withUnsafeBufferPointer { single.id(for: $0) } })
            #expect(prefetchedIDs == ids)
        }
        #expect(batched.count == single.count && prefetched.count == single.count && batched.count > 4_096)
    }

    /// A slice counts each term's documents and occurrences from its forward index once it is
    /// sealed — with ids of two bytes, and of four past 65,535 terms — and its table, its slots
    /// given up, still knows every term by its id.
    @Test func aSealedSliceCountsItsTermsAndItsTableStillKnowsThem() {
        for distinct in [5_000, 70_000] {
            var slice = SegmentSlice()
            let words = (0..<distinct).map { "word\($0)" }
            // Document d holds words d * step ..< d * step + window (every word, some in several
            // documents), each word w (w % 3 + 1) times.
            let step = distinct / 400
            let window = max(step + 10, distinct - 399 * step)
            var expected = [TermCount](repeating: TermCount(), count: words.count)
            for document in 0..<400 {
                var note = Note(path: "n\(document).md", folder: "")
                var body: [String] = []
                for word in document * step..<min(document * step + window, words.count) {
                    for _ in 0...(word % 3) {
                        body.append(words[word])
                        expected[word].occurrences += 1
                    }
                    expected[word].postings += 1
                }
                note.body = body.joined(separator: " ")
                slice.add(note)
            }
            #expect(slice.forward.isWide == (distinct > 65_535))
            slice.sealTerms()
            var table = slice.table
            let ids = words.map { word in Array(word.utf8).withUnsafeBufferPointer { table.id(for: $0) } }
            #expect(Set(ids).count == words.count)
            #expect(expected.allSatisfy { $0.postings > 0 })
            let counted = ids.map { Int($0) < slice.termCounts.count ? slice.termCounts[Int($0)] : TermCount() }
            #expect(counted.map(\.postings) == expected.map(\.postings), "\(distinct) words: postings")
            #expect(counted.map(\.occurrences) == expected.map(\.occurrences), "\(distinct) words: occurrences")
            #expect(Array("new".utf8).withUnsafeBufferPointer { table.id(for: $0) } == UInt32(table.count - 1))
        }
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

    /// Merged tables of random terms that share their first eight bytes or differ only after
    /// them, hold zero bytes or bytes above 0x7F, are empty or begin one another give the
    /// dictionary of a plain sort of every distinct term, each table's ids mapped to its terms,
    /// whatever the number of ranges.
    @Test func aMergeOfRandomTermsGivesThePlainSortsDictionary() {
        var generator = SeededGenerator(seed: 35)
        let alphabet: [UInt8] = [0x00, 0x01, 0x61, 0x62, 0x7F, 0x80, 0xFF]
        let prefixes: [[UInt8]] = [[], Array("abcdefgh".utf8), Array("abcdefg".utf8), [0, 0, 0, 0, 0, 0, 0, 0]]
        func term() -> [UInt8] {
            let prefix = prefixes[Int(generator.next() % UInt64(prefixes.count))]
            return prefix + (0..<Int(generator.next() % 12)).map { _ in alphabet[Int(generator.next() % UInt64(alphabet.count))] }
        }
        let shared = (0..<500).map { _ in term() }
        let lists: [[[UInt8]]] = (0..<5).map { table in
            (0..<(table == 2 ? 0 : 1_500 * table + 1)).map { _ in generator.next() % 2 == 0 ? shared[Int(generator.next() % 500)] : term() }
        }
        var distinctLists: [[[UInt8]]] = []
        let tables = lists.map { list in
            var table = TermTable()
            var distinct: [[UInt8]] = []
            for term in list where term.withUnsafeBufferPointer({ table.id(for: $0) }) == UInt32(distinct.count) {
                distinct.append(term)
            }
            distinctLists.append(distinct)
            return table
        }
        let all = Set(lists.joined()).sorted { $0.lexicographicallyPrecedes($1) }
        func bytes(_ terms: TermDictionary, _ id: Int) -> [UInt8] {
            let span = terms.offsets.span(id, limit: terms.bytes.count)
            return Array(UnsafeBufferPointer(start: terms.bytes.pointer + span.lowerBound, count: span.count))
        }
        for parts in [1, 2, 5] {
            let (terms, finalIDs, _) = TermTable.merged(tables, parts: parts)
            #expect((0..<terms.count).map { bytes(terms, $0) } == all, "\(parts) parts")
            for (index, distinct) in distinctLists.enumerated() {
                #expect(finalIDs[index].map { bytes(terms, Int($0)) } == distinct, "\(parts) parts")
            }
        }
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
