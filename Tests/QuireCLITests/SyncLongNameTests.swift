import Foundation
import Testing

/// File names near the 255-byte limit (issue 13, item 17): a collision's `-2` or a keep-both
/// copy's `.conflict-<device>-<time>` would pass it, and a name made on macOS (counted in
/// UTF-16 there) can pass it already. Such a name is shortened at a character boundary with a
/// short hash; the sync completes and leaves no journal behind.
@Suite(.serialized) struct SyncLongNameTests {
    /// 252 bytes of name + `.md` = 255 bytes: the longest name Linux allows.
    static let longName = String(repeating: "ü", count: 100) + String(repeating: "a", count: 52) + ".md"

    static func names(_ device: Device) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: device.root.path).filter { $0.hasSuffix(".md") }.sorted()
    }

    static func journalIsGone(_ device: Device) -> Bool {
        !FileManager.default.fileExists(atPath: device.root.appendingPathComponent(".quire/local/sync-journal.json").path)
    }

    @Test func aCollisionSuffixPastTheLimitShortensTheName() throws {
        #expect(Self.longName.utf8.count == 255)
        let world = try SyncWorld()
        let (a, b) = try world.pair(["ok.md": note("ok", title: "OK", updated: "2026-11-29T10:00:00Z")])
        try a.write(note("one", title: "One", updated: "2026-11-29T11:00:00Z"), to: Self.longName)
        try a.sync()
        try b.write(note("two", title: "Two", updated: "2026-11-29T11:30:00Z"), to: Self.longName)
        try b.sync()
        try a.sync()
        for device in [a, b] {
            #expect(Self.journalIsGone(device))
            let names = try Self.names(device)
            #expect(names.count == 3, "\(names)")
            #expect(names.allSatisfy { $0.utf8.count <= 255 })
            let copy = try #require(names.first { $0 != Self.longName && $0 != "ok.md" })
            #expect(copy.contains("~") && copy.hasSuffix("-2.md") && copy.hasPrefix("üüü"), "\(copy)")
            let texts = try [Self.longName, copy].map { try device.read($0) }
            #expect(texts.contains { $0.contains("title: One") } && texts.contains { $0.contains("title: Two") })
        }
        #expect(try a.files() == b.files())
    }

    @Test func aKeepBothCopyPastTheLimitShortensTheName() throws {
        let world = try SyncWorld()
        let name = String(repeating: "é", count: 100) + String(repeating: "b", count: 30) + ".md"
        let (a, b) = try world.pair([name: note("long", title: "Long", updated: "2026-11-29T10:00:00Z", body: "Line.\n")])
        try a.write(note("long", title: "Long", updated: "2026-11-29T11:00:00Z", body: "Line from a.\n"), to: name)
        try a.sync()
        try b.write(note("long", title: "Long", updated: "2026-11-29T11:30:00Z", body: "Line from b.\n"), to: name)
        let synced = try b.sync(["--strategy", "keep-both"])
        #expect(Self.journalIsGone(b))
        let copy = try #require(try Self.names(b).first { $0.contains(".conflict-") || $0.contains("~") }, "\(synced.stdout)")
        #expect(copy.utf8.count <= 255 && copy.hasSuffix(".md"))
        #expect(try b.read(copy).contains("Line from a."))
        try a.sync()
        #expect(try a.files() == b.files())
    }

    @Test func anIncomingNamePastTheLimitIsMergedUnderAShortenedName() throws {
        let world = try SyncWorld()
        let (a, b) = try world.pair(["ok.md": note("ok", title: "OK", updated: "2026-11-29T10:00:00Z")])
        // 150 three-byte characters: 150 UTF-16 units on macOS, 453 bytes here.
        let macName = String(repeating: "日", count: 150) + ".md"
        try HostileTree(bare: world.bare).commit([
            "Inbox/" + macName: .init(mode: "100644", content: note("mac", title: "From a Mac", updated: "2026-11-29T11:00:00Z")),
            "incoming.md": .init(mode: "100644", content: note("in", title: "Incoming", updated: "2026-11-29T11:00:00Z")),
        ])
        for (device, options) in [(a, ["--no-push"]), (b, [])] {
            let synced = try device.sync(options)
            #expect(synced.stdout.contains("warning: skipped Inbox/\(macName): merged as Inbox/"), "\(synced.stdout)")
            #expect(Self.journalIsGone(device))
            let inbox = try FileManager.default.contentsOfDirectory(atPath: device.root.appendingPathComponent("Inbox").path)
            #expect(inbox.count == 1 && inbox.allSatisfy { $0.utf8.count <= 255 && $0.hasSuffix(".md") }, "\(inbox)")
            #expect(try device.read("Inbox/" + inbox[0]).contains("From a Mac"))
            #expect(try device.read("incoming.md").contains("Incoming"))
        }
        try a.sync()
        try b.sync()
        #expect(try a.files() == b.files())
    }

    @Test func aJournalLeftByAnOlderVersionWithATooLongNameIsFinished() throws {
        let world = try SyncWorld()
        let (_, b) = try world.pair(["ok.md": note("ok", title: "OK", updated: "2026-11-29T10:00:00Z")])
        // What an older quire left: a commit whose tree has a name past the limit, the journal
        // pointing at it, the branch still at the commit before.
        let previous = try b.git(["rev-parse", "HEAD"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        let longName = String(repeating: "ü", count: 100) + String(repeating: "a", count: 52) + "-2.md"
        let target = try HostileTree(bare: b.root.appendingPathComponent(".git")).commit([
            longName: .init(mode: "100644", content: note("two", title: "Two", updated: "2026-11-29T11:00:00Z")),
        ])
        try #require(try b.git(["update-ref", "refs/heads/main", previous]).code == 0)
        try b.write("{\"target\":\"\(target)\",\"previous\":\"\(previous)\"}", to: ".quire/local/sync-journal.json")
        try b.sync()
        #expect(Self.journalIsGone(b))
        let copy = try #require(try Self.names(b).first { $0.hasPrefix("üüü") })
        let text = try b.read(copy)
        #expect(copy.utf8.count <= 255 && copy.contains("~") && text.contains("title: Two"), "\(copy)")
        #expect(try b.git(["status", "--porcelain"]).stdout.isEmpty)
        #expect(try b.sync().code == 0)
    }
}
