import Foundation
import QuireCore

extension TermTable {
    /// One dictionary of the terms of several tables, sorted bytewise (a shorter term before
    /// the longer ones it begins), with each table's ids mapped to the dictionary's: each
    /// table's ids are sorted on its own (`sortedIDs`, on every core), then the sorted lists are
    /// merged — no table of all the terms is built. `orders`: each table's ids in the
    /// dictionary's order.
    static func merged(_ tables: [TermTable]) -> (terms: TermDictionary, finalIDs: [[UInt32]], orders: [[UInt32]]) {
        var orders = [[UInt32]](repeating: [], count: tables.count)
        orders.withUnsafeMutableBufferPointer { buffer in
            let slots = buffer
            ParallelMap.perform(iterations: tables.count) { slots[$0] = tables[$0].sortedIDs() }
        }
        var finalIDs = tables.map { [UInt32](repeating: 0, count: $0.count) }
        var next = [Int](repeating: 0, count: tables.count)
        var bytes: [UInt8] = []
        bytes.reserveCapacity(tables.map(\.bytes.count).max() ?? 0)
        var offsets: [UInt32] = [0]
        var id: UInt32 = 0
        while true {
            // The smallest term at the head of any list, and every list whose head it is.
            var smallest = -1
            for table in tables.indices where next[table] < orders[table].count {
                if smallest < 0 || tables[table].precedes(orders[table][next[table]], tables[smallest],
                                                          orders[smallest][next[smallest]]) {
                    smallest = table
                }
            }
            guard smallest >= 0 else { break }
            let head = Int(orders[smallest][next[smallest]])
            tables[smallest].withTerm(head) { bytes.append(contentsOf: $0) }
            offsets.append(UInt32(bytes.count))
            for table in tables.indices where next[table] < orders[table].count {
                let local = orders[table][next[table]]
                if table == smallest || !tables[smallest].precedes(UInt32(head), tables[table], local) {
                    finalIDs[table][Int(local)] = id
                    next[table] += 1
                }
            }
            id += 1
        }
        return (TermDictionary(bytes: ByteColumn(bytes), offsets: Column(offsets)), finalIDs, orders)
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
