import Foundation
import QuireCore
import QuireTestSupport
import Testing
@testable import QuireSearch

@Suite("links.bin marked verified only once its parts fit together")
struct LinkTableMarkTests {
    /// A table read when its times are settled is marked verified (`links.bin.verified`) and
    /// read again as the same table; a table damaged and resealed so that every checksum passes
    /// is refused when its parts do not fit together, and refused again on the next read: a
    /// refused file is never marked, so the reads that skip the check of every offset and index
    /// (a marked file, not written since) only ever read a file that passed it. A damaged file
    /// that is read answers within bounds.
    @Test func aTableIsMarkedOnlyWhenItsPartsFitTogether() throws {
        let (vault, store) = try RandomLinkEdits.store(notes: 40, seed: 3503, bareEvery: 3)
        let path = store.linkTablePath
        #expect(path == vault.root + "/.quire/cache/links.bin")
        let written = store.linkTable(attachments: ["pic.png"])
        let settled = Date().addingTimeInterval(60)
        let marker = VerifiedStamp.markerPath(path)
        #expect(!FileManager.default.fileExists(atPath: marker))
        let first = try LinkTable.read(path, now: settled)
        #expect(FileManager.default.fileExists(atPath: marker))
        let again = try LinkTable.read(path, now: settled)
        #expect(first == again && again.paths == written.paths && again.targets == written.targets)
        let original = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
        var random = SeededGenerator(seed: 78)
        var refused = 0
        for _ in 0..<200 {
            try Data(RandomLinkEdits.resealedDamage(of: original, &random)).write(to: URL(fileURLWithPath: path), options: .atomic)
            do {
                let table = try LinkTable.read(path, now: settled)
                for note in 0..<table.count {
                    _ = table.edges(of: note).map(table.resolution)
                    _ = table.incomingEdges(of: note).map { table.source(ofEdge: Int($0)) }
                }
            } catch {
                refused += 1
                #expect(throws: CacheError.self) { try LinkTable.read(path, now: settled) }
            }
        }
        #expect(refused > 20, "\(refused) refused")
    }
}
