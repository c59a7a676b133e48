import Foundation
import QuireCore

extension TermTable {
    /// One dictionary of the terms of several tables, sorted bytewise (a shorter term before
    /// the longer ones it begins), with each table's ids mapped to the dictionary's: each
    /// table's ids are sorted on its own (`sortedIDs`, on every core), then the sorted lists are
    /// merged — no table of all the terms is built. `orders`: each table's ids in the
    /// dictionary's order.
    ///
    /// The merge is cut by key into `parts` ranges (by default one per core, each of 4,096 terms
    /// at least), merged on every core at once: the terms of the largest table at even steps
    /// of its order split every list, so that a term lies in the same range in every table.
    static func merged(_ tables: [TermTable], parts wanted: Int? = nil)
        -> (terms: TermDictionary, finalIDs: [[UInt32]], orders: [[UInt32]]) {
        var orders = [[UInt32]](repeating: [], count: tables.count)
        orders.withUnsafeMutableBufferPointer { buffer in
            let slots = buffer
            ParallelMap.perform(iterations: tables.count) { slots[$0] = tables[$0].sortedIDs() }
        }
        let largest = tables.indices.max { tables[$0].count < tables[$1].count }
        let termCount = tables.reduce(0) { $0 + $1.count }
        let parts = max(min(wanted ?? min(ProcessInfo.processInfo.activeProcessorCount, termCount / 4096),
                            largest.map { tables[$0].count } ?? 0), 1)
        // Where each part begins in each table's order: at the first term not before the split
        // key, the largest table's term at the part's share of its order.
        var bounds = [[Int]](repeating: [], count: tables.count)  // per table: parts + 1 indices
        for table in tables.indices {
            bounds[table].append(0)
            for part in 1..<parts {
                guard let largest else { break }
                let key = orders[largest][tables[largest].count * part / parts]
                var low = 0
                var high = orders[table].count
                while low < high {
                    let middle = (low + high) / 2
                    if tables[table].precedes(orders[table][middle], tables[largest], key) { low = middle + 1 } else { high = middle }
                }
                bounds[table].append(low)
            }
            bounds[table].append(orders[table].count)
        }
        // Every table's final ids in one array (a table's at its start), written by the parts.
        var starts = [0]
        for table in tables { starts.append(starts[starts.count - 1] + table.count) }
        var flat = [UInt32](repeating: 0, count: termCount)
        var pieces = [(bytes: [UInt8], offsets: [UInt32])](repeating: ([], []), count: parts)
        flat.withUnsafeMutableBufferPointer { flatBuffer in
            pieces.withUnsafeMutableBufferPointer { pieceBuffer in
                let (ids, results) = (flatBuffer, pieceBuffer)
                ParallelMap.perform(iterations: parts) { part in
                    results[part] = mergePart(tables, orders, range: { bounds[$0][part]..<bounds[$0][part + 1] }) { table, local, id in
                        ids[starts[table] + Int(local)] = id
                    }
                }
            }
        }
        // The parts one after the other: each part's ids and offsets moved past the ones before.
        var bytes: [UInt8] = []
        bytes.reserveCapacity(pieces.reduce(0) { $0 + $1.bytes.count })
        var offsets: [UInt32] = [0]
        offsets.reserveCapacity(pieces.reduce(1) { $0 + $1.offsets.count })
        var partStarts = [UInt32](repeating: 0, count: parts)
        for part in 0..<parts {
            partStarts[part] = UInt32(offsets.count - 1)
            let base = UInt32(bytes.count)
            bytes += pieces[part].bytes
            offsets += pieces[part].offsets.lazy.map { $0 + base }
        }
        let finalIDs = tables.indices.map { table -> [UInt32] in
            var ids = Array(flat[starts[table]..<starts[table + 1]])
            for part in 1..<parts where partStarts[part] > 0 {
                for position in bounds[table][part]..<bounds[table][part + 1] {
                    ids[Int(orders[table][position])] += partStarts[part]
                }
            }
            return ids
        }
        return (TermDictionary(bytes: ByteColumn(bytes), offsets: Column(offsets)), finalIDs, orders)
    }

    /// Merges the sorted ids of each table in `range(table)` (positions in `orders[table]`):
    /// the distinct terms' bytes and end offsets (from 0), and `assign(table, local id, id)` for
    /// each table's term, ids counted from 0. Each list's head term is kept with its first eight
    /// bytes as one number (`MergeHead`), so that most comparisons are of two numbers, and the
    /// tables' bytes are read where they lie: no term is looked up twice, and no array is
    /// retained per comparison (at 100,000 notes the merge took 175 ms of CPU, most of it
    /// retains and releases of the tables' arrays).
    private static func mergePart(_ tables: [TermTable], _ orders: [[UInt32]], range: (Int) -> Range<Int>,
                                  assign: (Int, UInt32, UInt32) -> Void) -> (bytes: [UInt8], offsets: [UInt32]) {
        var bytes: [UInt8] = []
        var offsets: [UInt32] = []
        withMergeSources(tables, orders) { sources in
            withUnsafeTemporaryAllocation(of: MergeHead.self, capacity: sources.count) { heads in
                for table in sources.indices {
                    let range = range(table)
                    heads.initializeElement(at: table, to: MergeHead(next: range.lowerBound, end: range.upperBound))
                    heads[table].load(sources[table])
                }
                var id: UInt32 = 0
                while true {
                    // The smallest term at the head of any list, and every list whose head it is.
                    var smallest = -1
                    for table in heads.indices where heads[table].next < heads[table].end {
                        if smallest < 0 || heads[table].precedes(heads[smallest], sources[table], sources[smallest]) {
                            smallest = table
                        }
                    }
                    guard smallest >= 0 else { break }
                    let (head, source) = (heads[smallest], sources[smallest])
                    bytes.append(contentsOf: head.term(source))
                    offsets.append(UInt32(bytes.count))
                    for table in heads.indices where heads[table].next < heads[table].end {
                        if table == smallest || !head.precedes(heads[table], source, sources[table]) {
                            assign(table, heads[table].id, id)
                            heads[table].next += 1
                            heads[table].load(sources[table])
                        }
                    }
                    id += 1
                }
            }
        }
        return (bytes, offsets)
    }

    /// Calls `body` with where each table's term bytes, term offsets and sorted ids
    /// (`orders`) lie, for as long as it runs.
    private static func withMergeSources<Result>(_ tables: [TermTable], _ orders: [[UInt32]],
                                                 _ body: (UnsafeBufferPointer<MergeSource>) -> Result) -> Result {
        withUnsafeTemporaryAllocation(of: MergeSource.self, capacity: tables.count) { sources in
            func nest(_ index: Int) -> Result {
                guard index < tables.count else { return body(UnsafeBufferPointer(sources)) }
                return tables[index].bytes.withUnsafeBufferPointer { bytes in
                    tables[index].offsets.withUnsafeBufferPointer { offsets in
                        orders[index].withUnsafeBufferPointer { order in
                            sources.initializeElement(at: index, to: MergeSource(
                                bytes: bytes.baseAddress, offsets: offsets.baseAddress, order: order.baseAddress))
                            return nest(index + 1)
                        }
                    }
                }
            }
            return nest(0)
        }
    }

    /// Whether this table's term `id` sorts before `other`'s term `otherID` (bytewise, a
    /// shorter term before the longer ones it begins).
    private func precedes(_ id: UInt32, _ other: TermTable, _ otherID: UInt32) -> Bool {
        withTerm(Int(id)) { left in
            other.withTerm(Int(otherID)) { right in
                let common = min(left.count, right.count)
                if common > 0, let leftBase = left.baseAddress, let rightBase = right.baseAddress {
                    let order = memcmp(leftBase, rightBase, common)
                    if order != 0 { return order < 0 }
                }
                return left.count < right.count
            }
        }
    }
}

/// A table's term bytes, term offsets and sorted ids, where they lie during a merge.
private struct MergeSource {
    let bytes: UnsafePointer<UInt8>?
    let offsets: UnsafePointer<UInt32>?
    let order: UnsafePointer<UInt32>?
}

/// One table's list in a merge: the positions `next..<end` of its sorted ids, and the term at
/// `next` — its id, where its bytes start, how many, and its first eight bytes as a big-endian
/// number (zero padded), whose order is the bytes' order whenever two terms' numbers differ.
private struct MergeHead {
    var next: Int
    var end: Int
    var key: UInt64 = 0
    var id: UInt32 = 0
    var start = 0
    var length = 0

    /// Reads the term at `next`, when the list has one.
    @inline(__always)
    mutating func load(_ source: MergeSource) {
        guard next < end, let order = source.order, let offsets = source.offsets else { return }
        id = order[next]
        start = Int(offsets[Int(id)])
        length = Int(offsets[Int(id) + 1]) - start
        key = source.bytes.map { ASCIIChunk.load(UnsafeRawPointer($0 + start), count: min(length, 8)).byteSwapped } ?? 0
    }

    /// The bytes of the term at `next`.
    func term(_ source: MergeSource) -> UnsafeBufferPointer<UInt8> {
        UnsafeBufferPointer(start: source.bytes.map { $0 + start }, count: length)
    }

    /// Whether this head's term sorts before `other`'s (bytewise, a shorter term before the
    /// longer ones it begins): by their first eight bytes, and only when those agree by the
    /// rest of their bytes and their lengths.
    @inline(__always)
    func precedes(_ other: MergeHead, _ source: MergeSource, _ otherSource: MergeSource) -> Bool {
        if key != other.key { return key < other.key }
        let common = min(length, other.length)
        if common > 8, let left = source.bytes, let right = otherSource.bytes {
            let order = memcmp(left + start + 8, right + other.start + 8, common - 8)
            if order != 0 { return order < 0 }
        }
        return length < other.length
    }
}
