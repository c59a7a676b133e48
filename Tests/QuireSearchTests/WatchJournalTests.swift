import Foundation
import QuireCore
import Testing
@testable import QuireSearch

/// The watcher's bookkeeping and its inotify watch, in process (the CLI tests run the real
/// background process).
@Suite struct WatchJournalTests {
    @Test func tokensFromElsewhereOrBeforeAStructureChangeGetAFullAnswer() {
        var journal = WatchJournal(instance: 7)
        guard case .full(_, let start) = journal.answer(since: nil) else {
            Issue.record("a caller without a token must walk")
            return
        }
        #expect(start == WatchToken(instance: 7, sequence: 1))
        #expect(journal.answer(since: start) == .notes([], start))
        #expect(journal.answer(since: WatchToken(instance: 8, sequence: 1)) == .full(
            reason: "the catalog was not brought up to date by this watcher", start))
        #expect(journal.answer(since: WatchToken(instance: 7, sequence: 9)).isFull)

        journal.record([.note("b.md"), .note("A/a.md")])
        journal.record([])
        let two = WatchToken(instance: 7, sequence: 2)
        #expect(journal.answer(since: start) == .notes(["A/a.md", "b.md"], two))
        journal.record([.note("b.md")])
        let three = WatchToken(instance: 7, sequence: 3)
        #expect(journal.answer(since: two) == .notes(["b.md"], three))
        #expect(journal.answer(since: three) == .notes([], three))

        journal.record([.structure("folder A changed")])
        #expect(journal.answer(since: three) == .full(reason: "folder A changed", WatchToken(instance: 7, sequence: 4)))
        let four = WatchToken(instance: 7, sequence: 4)
        #expect(journal.answer(since: four) == .notes([], four))
        journal.record([.note("c.md"), .overflow])
        #expect(journal.answer(since: four).isFull)
        journal.blocker = "symlink x in the vault"
        #expect(journal.answer(since: WatchToken(instance: 7, sequence: 5)) == .full(
            reason: "symlink x in the vault", WatchToken(instance: 7, sequence: 5)))
    }

    @Test func folderWatchSeesNotesFoldersRulesAndLinksButNotHiddenOrOtherFiles() throws {
        let root = try makeRoot()
        try FileManager.default.createDirectory(atPath: root + "/A/B", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: root + "/.git", withIntermediateDirectories: true)
        let watch = try FolderWatch(realRoot: root)
        #expect(watch.folderCount == 3)
        #expect(watch.blocker == nil)
        #expect(try watch.drain() == [])

        try "x".write(toFile: root + "/A/B/n.md", atomically: false, encoding: .utf8)
        try "x".write(toFile: root + "/A/picture.png", atomically: false, encoding: .utf8)
        try "x".write(toFile: root + "/.git/HEAD.md", atomically: false, encoding: .utf8)
        try "x".write(toFile: root + "/A/.n.md.swp", atomically: false, encoding: .utf8)
        #expect(Set(try watch.drain()) == [.note("A/B/n.md")])

        try FileManager.default.moveItem(atPath: root + "/A/B", toPath: root + "/C")
        let moved = try watch.drain()
        #expect(moved.contains(.structure("folder A/B changed")) && moved.contains(.structure("folder C changed")))
        try "y".write(toFile: root + "/C/m.md", atomically: false, encoding: .utf8)
        #expect(Set(try watch.drain()) == [.note("C/m.md")], "a moved folder is watched under its new path")

        try "*.tmp\n".write(toFile: root + "/C/.gitignore", atomically: false, encoding: .utf8)
        #expect(try watch.drain().contains(.structure("C/.gitignore changed")))

        try FileManager.default.createSymbolicLink(atPath: root + "/link", withDestinationPath: root + "/A")
        #expect(try watch.drain() == [.structure("symlink link appeared")])
        #expect(watch.blocker == "symlink link in the vault")
        try FileManager.default.removeItem(atPath: root + "/link")
        #expect(try watch.drain() == [.structure("symlink link removed")])
        #expect(watch.blocker == nil)
    }

    @Test func aSymlinkPresentAtTheStartBlocksAndARemovedRootThrows() throws {
        let root = try makeRoot()
        try "x".write(toFile: root + "/target.md", atomically: false, encoding: .utf8)
        try FileManager.default.createSymbolicLink(atPath: root + "/alias.md", withDestinationPath: root + "/target.md")
        try FileManager.default.createSymbolicLink(atPath: root + "/image.png", withDestinationPath: root + "/target.md")
        let watch = try FolderWatch(realRoot: root)
        #expect(watch.blocker == "symlink alias.md in the vault")
        try FileManager.default.removeItem(atPath: root)
        #expect(throws: FolderWatchError.rootGone) { _ = try watch.drain() }
    }

    /// Two folders whose names differ only in Unicode normalization are two folders: removing
    /// one leaves the other watched (it used to take the other's watch with it).
    @Test func foldersEqualUnderNormalizationAreWatchedApart() throws {
        let root = try makeRoot()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let composed = "R\u{E9}sum\u{E9}s"
        let decomposed = "Re\u{301}sume\u{301}s"
        // Each removed in turn (which one a table by `String` kept depends on the folder's order).
        for (removed, kept) in [(composed, decomposed), (decomposed, composed)] {
            for folder in [composed, decomposed] {
                try FileManager.default.createDirectory(atPath: root + "/" + folder + "/Old", withIntermediateDirectories: true)
            }
            let watch = try FolderWatch(realRoot: root)
            #expect(watch.folderCount == 5)
            try FileManager.default.removeItem(atPath: root + "/" + removed)
            _ = try watch.drain()
            #expect(watch.folderCount == 3)
            try "x".write(toFile: root + "/" + kept + "/Old/n.md", atomically: false, encoding: .utf8)
            let changes = try watch.drain()
            let notes = changes.compactMap { change -> [UInt8]? in
                if case .note(let path) = change { return Array(path.utf8) }
                return nil
            }
            #expect(Set(notes) == [Array((kept + "/Old/n.md").utf8)], "\(changes)")
            try FileManager.default.removeItem(atPath: root + "/" + kept)
        }
    }

    private func makeRoot() throws -> String {
        let url = URL(fileURLWithPath: NSTemporaryDirectory())
            .appendingPathComponent("quire-watch-\(UUID().uuidString.prefix(8))").resolvingSymlinksInPath()
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url.path
    }
}

extension WatchAnswer {
    var isFull: Bool {
        if case .full = self { return true }
        return false
    }
}
