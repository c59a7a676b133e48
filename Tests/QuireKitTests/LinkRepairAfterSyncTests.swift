import Foundation
import QuireCore
@testable import QuireKit
import QuireSearch
import QuireSync
import QuireTestSupport
import Testing

/// The repair after a sync opens the catalog only when the commits it brought renamed or
/// deleted a note (`LinkRepair.afterSync`): commits of edits alone ask nothing of it; a
/// `git mv` or a `git rm` asks once, however many times the repair then reads the notes.
@Suite struct LinkRepairAfterSyncTests {
    final class Asked: @unchecked Sendable {
        private let lock = NSLock()
        private var count = 0
        var times: Int { lock.lock(); defer { lock.unlock() }; return count }
        func add() { lock.lock(); count += 1; lock.unlock() }
    }

    static let now = Date(timeIntervalSince1970: 1_790_000_000)

    static func repair(_ kit: KitVault, since before: String, asked: Asked) throws -> MoveReport {
        try LinkRepair.afterSync(vault: kit.vault, before: before, now: now) {
            asked.add()
            let catalog = try VaultSession(vault: kit.vault, environment: kit.environment).catalog
            return (catalog.recordHeads.map { Note(record: $0, withFrontMatter: false) }, MoveOptions.linkingNotes(in: catalog))
        }
    }

    @Test func editsAloneOpenNoCatalogAndAMoveOpensItOnce() throws {
        let kit = try KitVault()
        defer { kit.remove() }
        try kit.write("---\ntitle: Alpha\n---\nA.\n", to: "a.md")
        try kit.write("---\ntitle: Beta\n---\nSee [alpha](a.md).\n", to: "b.md")
        let first = try kit.commitAll("notes")

        try kit.write("---\ntitle: Alpha\n---\nA, edited.\n", to: "a.md")
        let edited = try kit.commitAll("an edit")
        let asked = Asked()
        let afterEdits = try Self.repair(kit, since: first, asked: asked)
        #expect(asked.times == 0)
        #expect(afterEdits.edits.isEmpty)

        try kit.git(["mv", "a.md", "sub.md"])
        try kit.git(["commit", "-q", "-m", "a rename"])
        let afterMove = try Self.repair(kit, since: edited, asked: asked)
        #expect(asked.times == 1)
        #expect(afterMove.edits.map(\.path) == ["b.md"])
        #expect(try String(contentsOf: kit.root.appendingPathComponent("b.md"), encoding: .utf8).contains("[alpha](sub.md)"))

        let moved = try kit.commitAll("the repair")
        try kit.git(["rm", "-q", "b.md"])
        try kit.git(["commit", "-q", "-m", "a removal"])
        _ = try Self.repair(kit, since: moved, asked: asked)
        #expect(asked.times == 2)
    }
}
