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
    /// each table's term, ids counted from 0.
    private static func mergePart(_ tables: [TermTable], _ orders: [[UInt32]], range: (Int) -> Range<Int>,
                                  assign: (Int, UInt32, UInt32) -> Void) -> (bytes: [UInt8], offsets: [UInt32]) {
        var next = tables.indices.map { range($0).lowerBound }
        let ends = tables.indices.map { range($0).upperBound }
        var bytes: [UInt8] = []
        var offsets: [UInt32] = []
        var id: UInt32 = 0
        while true {
            // The smallest term at the head of any list, and every list whose head it is.
            var smallest = -1
            for table in tables.indices where next[table] < ends[table] {
                if smallest < 0 || tables[table].precedes(orders[table][next[table]], tables[smallest],
                                                          orders[smallest][next[smallest]]) {
                    smallest = table
                }
            }
            guard smallest >= 0 else { break }
            let head = orders[smallest][next[smallest]]
            tables[smallest].withTerm(Int(head)) { bytes.append(contentsOf: $0) }
            offsets.append(UInt32(bytes.count))
            for table in tables.indices where next[table] < ends[table] {
                let local = orders[table][next[table]]
                if table == smallest || !tables[smallest].precedes(head, tables[table], local) {
                    assign(table, local, id)
                    next[table] += 1
                }
            }
            id += 1
        }
        return (bytes, offsets)
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
