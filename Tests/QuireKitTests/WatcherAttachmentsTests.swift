import Foundation
import QuireCore
import QuireKit
import QuireSearch
import Synchronization
import Testing

/// The attachments a watcher keeps (`FolderWatch.attachmentPaths()`, answered by `WatchServer`)
/// are what a walk lists: through files added, removed and renamed, folders moved in and out, a
/// folder and a file of one name, hidden folders, symlinks, a nested repository and names that
/// are not UTF-8; and a session proven by a watcher takes them from it, less what the ignore
/// rules hide, as the walk would.
@Suite("attachments the watcher keeps", .serialized)
struct WatcherAttachmentsTests {
    /// What a walk of the vault lists (no ignore rules).
    private static func walked(_ root: String) throws -> [String] {
        try Vault(at: URL(fileURLWithPath: root)).attachmentPaths()
    }

    @Test func theWatchListsWhatTheWalkListsThroughEveryChange() throws {
        let kit = try KitVault()
        defer { kit.remove() }
        let root = kit.root.path
        let manager = FileManager.default
        try kit.write("png\n", to: "img/pic.png")
        try kit.write("# a\n", to: "a.md")
        try kit.write("{}\n", to: ".obsidian/app.json")
        try kit.write("sub\n", to: "nested/inner.png")
        try kit.git(["init", "-q"], in: kit.root.appendingPathComponent("nested"))
        let watch = try FolderWatch(realRoot: root)
        func agrees(_ step: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
            _ = try watch.drain()
            let expected = try Self.walked(root)
            #expect(watch.attachmentPaths() == expected, "\(step)", sourceLocation: sourceLocation)
        }
        try agrees("at the start")
        #expect(watch.attachmentPaths() == ["img/pic.png", "nested/inner.png"])

        try kit.write("new\n", to: "img/new.png")
        try kit.write("pdf\n", to: "img/deep/doc.pdf")
        try agrees("added, one in a new folder")
        try manager.moveItem(atPath: root + "/img/new.png", toPath: root + "/renamed.png")
        try manager.removeItem(atPath: root + "/img/pic.png")
        try agrees("renamed and removed")
        try manager.moveItem(atPath: root + "/img", toPath: root + "/.hidden")
        try agrees("a folder moved into a hidden one")
        try manager.moveItem(atPath: root + "/.hidden", toPath: root + "/back")
        try agrees("and back under another name")
        let outside = manager.temporaryDirectory.appendingPathComponent("quire-outside-\(UUID().uuidString)").path
        defer { try? manager.removeItem(atPath: outside) }
        try manager.moveItem(atPath: root + "/back", toPath: outside)
        try agrees("a folder moved out of the vault")
        try manager.moveItem(atPath: outside, toPath: root + "/in")
        try agrees("and into it again")

        // A file and a folder of one name, each replacing the other.
        try manager.removeItem(atPath: root + "/renamed.png")
        try kit.write("png\n", to: "renamed.png/inside.png")
        try agrees("a folder where a file was")
        try manager.removeItem(atPath: root + "/renamed.png")
        try kit.write("png\n", to: "renamed.png")
        try agrees("a file where a folder was")

        try kit.write("x\n", to: ".quire/stray.png")
        try kit.write("x\n", to: "nested/.git/stray.png")
        try kit.write("x\n", to: ".dotfile")
        try kit.write("# b\n", to: "in/b.md")
        try agrees("hidden files and a note are no attachments")
        #expect(!(watch.attachmentPaths() ?? []).contains { $0.hasSuffix(".md") || $0.contains("stray") || $0.contains(".dot") })

        let name: [UInt8] = Array((root + "/bad-").utf8) + [0xE9] + Array(".png".utf8) + [0]
        let made = name.withUnsafeBufferPointer { bytes in
            bytes.baseAddress.map { $0.withMemoryRebound(to: CChar.self, capacity: bytes.count) { creat($0, 0o644) } } ?? -1
        }
        #expect(made >= 0)
        if made >= 0 { close(made) }
        try agrees("a name that is not UTF-8")

        // A symlink to a file is no attachment; one to a folder blocks (the walk follows it).
        try manager.createSymbolicLink(atPath: root + "/alias.png", withDestinationPath: root + "/renamed.png")
        try agrees("a symlink to a file")
        try manager.removeItem(atPath: root + "/renamed.png")
        try kit.write("png\n", to: "renamed.png")
        #expect(rename(root + "/alias.png", root + "/renamed.png") == 0)
        try agrees("a symlink renamed over a file")
        try manager.createSymbolicLink(atPath: root + "/linked", withDestinationPath: root + "/in")
        _ = try watch.drain()
        #expect(watch.attachmentPaths() == nil)
        try manager.removeItem(atPath: root + "/linked")
        try agrees("the folder symlink gone")
    }

    /// A session whose catalog a watcher proved asks the watcher, and hides what the rules
    /// hide as the walk does: ignored files, ignored folders, and nothing below them.
    @Test func aSessionTakesThemFromTheWatcherLessWhatTheRulesHide() throws {
        let kit = try KitVault()
        defer { kit.remove() }
        try kit.write("# a\n![[pic.png]]\n", to: "a.md")
        for path in ["img/pic.png", "debug.log", "Private/x.png", "Private/deep/y.png", "Open/kept.png", "Open/build/out.png"] {
            try kit.write("file\n", to: path)
        }
        try kit.write(try kit.read(".gitignore") + "Private/\n*.log\nbuild/\n!Private/deep/y.png\n", to: ".gitignore")
        let running = Running(try WatchServer(realRoot: kit.root.path))
        Thread { running.run() }.start()
        defer { running.stop(kit.root.path) }
        var watched: [String]?
        for _ in 0..<500 where watched == nil {
            watched = WatchClient.attachments(realRoot: kit.root.path)
            if watched == nil { usleep(10_000) }
        }
        #expect(watched?.contains("Private/x.png") == true, "the watcher lists ignored files too")
        let rules = GitIgnoreRules.of(kit.vault, environment: kit.environment)
        let expected = try kit.vault.attachmentPaths(ignore: try rules?.ignoreMatcher())
        #expect(expected == ["Open/kept.png", "img/pic.png"])
        // The first session walks (its catalog holds no token of this watcher yet).
        let first = try VaultSession(vault: kit.vault, environment: kit.environment, attachments: true)
        #expect(try first.attachmentPaths() == expected)

        try kit.write("png\n", to: "img/new.png")
        try FileManager.default.removeItem(at: kit.root.appendingPathComponent("Open/kept.png"))
        let again = try VaultSession(vault: kit.vault, environment: kit.environment, attachments: true)
        #expect(again.freshness == .watcher(checked: 0))
        #expect(try again.attachmentPaths() == ["img/new.png", "img/pic.png"])
    }

    /// The server, handed to the thread that runs it.
    final class Running: @unchecked Sendable {
        let server: WatchServer
        private let ended = Mutex(false)
        init(_ server: WatchServer) { self.server = server }

        func run() {
            _ = try? server.run()
            ended.withLock { $0 = true }
        }

        /// Asks it to stop and waits (without a timing assertion) until its run ended.
        func stop(_ root: String) {
            _ = WatchClient.stop(realRoot: root)
            for _ in 0..<6_000 where !ended.withLock({ $0 }) { usleep(10_000) }
        }
    }
}
