import Foundation
import Testing
@testable import QuireSearch

/// `FreedMemory.giveBack` returns the pages of freed blocks that glibc keeps in the middle of its
/// heap (what a sync daemon held after every cycle).
@Suite struct FreedMemoryTests {
    /// The process's anonymous resident memory in kB (/proc/self/smaps_rollup).
    func anonymousKilobytes() throws -> Int {
        let text = try String(contentsOfFile: "/proc/self/smaps_rollup", encoding: .utf8)
        let line = try #require(text.split(separator: "\n").first { $0.hasPrefix("Anonymous:") })
        return try #require(Int(line.split(separator: " ", omittingEmptySubsequences: true)[1]))
    }

    /// Other tests run beside this one and allocate too, so the drop is looked for in up to three
    /// attempts; without `giveBack` no attempt shows it (glibc keeps blocks between kept ones).
    @Test func freedBlocksBetweenKeptOnesGoBackToTheSystem() throws {
        var drops: [Int] = []
        for _ in 0..<3 {
            drops.append(try dropAfterGivingBack())
            if drops.last ?? 0 > 48_000 { break }
        }
        #expect(drops.contains { $0 > 48_000 }, "anonymous memory given back per attempt (kB): \(drops)")
    }

    /// Frees 96 MB of 1 KB blocks but every 64th (so the heap cannot shrink from its top), gives
    /// the freed pages back; the drop of anonymous memory in kB.
    func dropAfterGivingBack() throws -> Int {
        var blocks: [UnsafeMutableRawPointer] = []
        for _ in 0..<98_304 {
            let block = UnsafeMutableRawPointer.allocate(byteCount: 1_000, alignment: 8)
            block.initializeMemory(as: UInt8.self, repeating: 1, count: 1_000)
            blocks.append(block)
        }
        var kept: [UnsafeMutableRawPointer] = []
        for (index, block) in blocks.enumerated() {
            if index % 64 == 0 { kept.append(block) } else { block.deallocate() }
        }
        blocks = []
        defer { for block in kept { block.deallocate() } }
        let before = try anonymousKilobytes()
        FreedMemory.giveBack()
        return try before - anonymousKilobytes()
    }
}
