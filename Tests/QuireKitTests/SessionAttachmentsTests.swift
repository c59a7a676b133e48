import Foundation
import QuireCore
import QuireKit
import QuireSearch
import Testing

/// The attachments `backlinks`, `links`, `graph` and the link filters resolve against come from
/// the walk that proved the catalog fresh (`VaultSession(attachments: true)`), not from a second
/// walk: the same list as that walk (`Vault.attachmentPaths` with the same ignore rules) through
/// ignored files, hidden folders, symlinks, a nested repository, and attachments added, removed
/// and renamed between sessions.
@Suite("attachments from the opening walk")
struct SessionAttachmentsTests {
    /// What the separate walk lists: the answer the opening walk's list must equal.
    private static func walked(_ kit: KitVault) throws -> [String] {
        let rules = GitIgnoreRules.of(kit.vault, environment: kit.environment)
        let paths = try kit.vault.attachmentPaths(ignore: try rules?.ignoreMatcher())
        rules?.walkFinished()
        return paths
    }

    /// The opening walk's list, checked to come from that walk and to equal the separate walk's.
    private static func listed(_ kit: KitVault, sourceLocation: SourceLocation = #_sourceLocation) throws -> [String] {
        let opened = try HistoryDates.openCatalog(vault: kit.vault, rules: GitIgnoreRules.of(kit.vault, environment: kit.environment),
                                                  environment: kit.environment, walk: true, attachments: true)
        let fromWalk = try #require(opened.attachments, sourceLocation: sourceLocation)
        #expect(fromWalk == (try walked(kit)), sourceLocation: sourceLocation)
        let session = try VaultSession(vault: kit.vault, environment: kit.environment, walk: true, attachments: true)
        #expect(try session.attachmentPaths() == fromWalk, sourceLocation: sourceLocation)
        return fromWalk
    }

    @Test func theOpeningWalkListsWhatASecondWalkWould() throws {
        let kit = try KitVault()
        defer { kit.remove() }
        try kit.write("# a\n![[pic.png]]\n", to: "a.md")
        try kit.write("png\n", to: "img/pic.png")
        try kit.write("pdf\n", to: "img/deep/doc.pdf")
        try kit.write("log\n", to: "debug.log")
        try kit.write("png\n", to: "Private/x.png")
        try kit.write("{}\n", to: ".obsidian/app.json")
        try kit.write("png\n", to: ".quire/stray.png")
        try kit.write("sub\n", to: "nested/inner.png")
        try kit.git(["init", "-q"], in: kit.root.appendingPathComponent("nested"))
        try kit.write(try kit.read(".gitignore") + "Private/\n*.log\n", to: ".gitignore")
        let manager = FileManager.default
        try manager.createSymbolicLink(atPath: kit.root.appendingPathComponent("linked").path, withDestinationPath: "img")
        try manager.createSymbolicLink(atPath: kit.root.appendingPathComponent("alias.png").path,
                                       withDestinationPath: "img/pic.png")
        try manager.createSymbolicLink(atPath: kit.root.appendingPathComponent("outside").path,
                                       withDestinationPath: manager.temporaryDirectory.path)
        let first = try Self.listed(kit)
        #expect(first.contains("img/pic.png"))
        #expect(first.contains("img/deep/doc.pdf"))
        #expect(first.contains("nested/inner.png"))
        #expect(!first.contains { $0.hasPrefix("Private/") || $0.hasSuffix(".log") || $0.hasPrefix(".") })

        // Added, removed and renamed between sessions (the second walk reuses unchanged folders'
        // listings from `.quire/cache/folder-listings`).
        try kit.write("new\n", to: "img/new.png")
        try manager.removeItem(at: kit.root.appendingPathComponent("img/deep/doc.pdf"))
        try manager.moveItem(at: kit.root.appendingPathComponent("nested/inner.png"),
                             to: kit.root.appendingPathComponent("nested/renamed.png"))
        try kit.write("png\n", to: "Private/y.png")
        let second = try Self.listed(kit)
        #expect(second.contains("img/new.png"))
        #expect(!second.contains("img/deep/doc.pdf"))
        #expect(second.contains("nested/renamed.png"))
        #expect(!second.contains("nested/inner.png"))
        #expect(!second.contains("Private/y.png"))
        #expect(try Self.listed(kit) == second)
    }

    /// A session that keeps running forgets the opening walk's list at its first refresh.
    @Test func aRefreshForgetsTheOpeningList() throws {
        let kit = try KitVault()
        defer { kit.remove() }
        try kit.write("# a\n", to: "a.md")
        try kit.write("png\n", to: "one.png")
        var session = try VaultSession(vault: kit.vault, environment: kit.environment, walk: true, attachments: true)
        #expect(try session.attachmentPaths() == ["one.png"])
        try kit.write("png\n", to: "two.png")
        try session.refreshAll()
        #expect(try session.attachmentPaths() == ["one.png", "two.png"])
        try kit.write("png\n", to: "three.png")
        session.refresh(notes: ["a.md"])
        #expect(try session.attachmentPaths() == ["one.png", "three.png", "two.png"])
    }

    /// Not asked for, or no walk: no list (the caller walks for it).
    @Test func noListWithoutTheAsking() throws {
        let kit = try KitVault()
        defer { kit.remove() }
        try kit.write("png\n", to: "one.png")
        let rules = GitIgnoreRules.of(kit.vault, environment: kit.environment)
        #expect(try FreshCatalog.open(vault: kit.vault, rules: rules, environment: kit.environment).attachments == nil)
        let changed = try FreshCatalog.refresh(vault: kit.vault, rules: rules, environment: kit.environment,
                                               changedPaths: ["one.png"])
        #expect(changed.attachments == nil)
    }
}
