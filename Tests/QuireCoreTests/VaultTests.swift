import Foundation
import Testing
@testable import QuireCore

/// A temporary directory removed when the test ends.
final class TemporaryDirectory {
    let url: URL

    init() throws {
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("quire-core-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: base, withIntermediateDirectories: true)
        url = URL(fileURLWithPath: Vault.realPath(base.path) ?? base.path)
    }

    deinit { try? FileManager.default.removeItem(at: url) }

    func write(_ path: String, _ text: String) throws {
        let file = url.appendingPathComponent(path)
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: file)
    }

    func mkdir(_ path: String) throws {
        try FileManager.default.createDirectory(at: url.appendingPathComponent(path), withIntermediateDirectories: true)
    }

    func symlink(_ path: String, to destination: String) throws {
        try FileManager.default.createSymbolicLink(atPath: url.appendingPathComponent(path).path,
                                                   withDestinationPath: destination)
    }
}

@Suite struct VaultTests {
    @Test func createWritesConfigAndIgnoreLines() throws {
        let temp = try TemporaryDirectory()
        try temp.write("v/.gitignore", "*.tmp")
        let vault = try Vault.create(at: temp.url.appendingPathComponent("v"))
        #expect(vault.root.path == temp.url.path + "/v")
        let ignore = String(decoding: try Data(contentsOf: vault.root.appendingPathComponent(".gitignore")), as: UTF8.self)
        #expect(ignore == "*.tmp\n.quire/local/\n.quire/cache/\n")
        let config = try vault.config()
        #expect(config.version == VaultConfig.currentVersion)
        #expect(config.folders.isEmpty)
        _ = try Vault.create(at: vault.root)
        let again = String(decoding: try Data(contentsOf: vault.root.appendingPathComponent(".gitignore")), as: UTF8.self)
        #expect(again == ignore)
    }

    @Test func locateWalksUpAndHonoursQuireVault() throws {
        let temp = try TemporaryDirectory()
        try temp.mkdir("vault/.quire")
        try temp.mkdir("vault/a/b")
        let found = try Vault.locate(startingAt: temp.url.appendingPathComponent("vault/a/b"), environment: [:])
        #expect(found.root.path == temp.url.path + "/vault")
        try temp.mkdir("other/.quire")
        let explicit = try Vault.locate(startingAt: temp.url.appendingPathComponent("vault/a"),
                                        environment: ["QUIRE_VAULT": "../../other"])
        #expect(explicit.root.path == temp.url.path + "/other")
        #expect(throws: CoreError.vaultNotFound(start: temp.url.path)) {
            try Vault.locate(startingAt: temp.url, environment: [:])
        }
        #expect(throws: CoreError.vaultNotFound(start: temp.url.path + "/vault/a")) {
            try Vault.locate(startingAt: temp.url, environment: ["QUIRE_VAULT": temp.url.path + "/vault/a"])
        }
    }

    @Test func vaultInsideAnotherWorkTreeIsRefused() throws {
        let temp = try TemporaryDirectory()
        try temp.mkdir("repo/.git")
        try temp.mkdir("repo/notes/.quire")
        #expect(throws: CoreError.vaultNotAtWorkTreeRoot(vault: temp.url.path + "/repo/notes",
                                                         workTreeRoot: temp.url.path + "/repo")) {
            try Vault.locate(startingAt: temp.url.appendingPathComponent("repo/notes"), environment: [:])
        }
        try temp.mkdir("repo/notes/.git")
        #expect(try Vault(at: temp.url.appendingPathComponent("repo/notes")).root.lastPathComponent == "notes")
    }

    @Test func notePathsSkipHiddenAndOutsideLinks() throws {
        let temp = try TemporaryDirectory()
        try temp.mkdir("v/.quire")
        try temp.write("v/b.md", "b")
        try temp.write("v/A/a.md", "a")
        try temp.write("v/A/image.png", "x")
        try temp.write("v/.hidden/h.md", "h")
        try temp.write("v/.git/g.md", "g")
        try temp.write("v/.quire/q.md", "q")
        try temp.write("v/Ignored/i.md", "i")
        try temp.write("outside/o.md", "o")
        try temp.symlink("v/out", to: temp.url.path + "/outside")
        try temp.symlink("v/out.md", to: temp.url.path + "/outside/o.md")
        try temp.symlink("v/A/loop", to: temp.url.path + "/v")
        try temp.symlink("v/link.md", to: "b.md")
        let vault = try Vault(at: temp.url.appendingPathComponent("v"))
        let paths = try vault.notePaths(ignore: { path, isFolder in isFolder && path == "Ignored" })
        #expect(paths == ["A/a.md", "b.md", "link.md"])
        #expect(try vault.folders() == ["A", "Ignored"])
    }

    @Test func safePaths() throws {
        let temp = try TemporaryDirectory()
        try temp.mkdir("v/.quire")
        try temp.mkdir("v/dir")
        try temp.mkdir("elsewhere")
        try temp.symlink("v/escape", to: temp.url.path + "/elsewhere")
        let vault = try Vault(at: temp.url.appendingPathComponent("v"))
        #expect(try vault.resolveSafePath("./dir//x.md") == "dir/x.md")
        #expect(throws: CoreError.pathOutsideVault(path: "../x.md")) { try vault.resolveSafePath("../x.md") }
        #expect(throws: CoreError.pathOutsideVault(path: "dir/../../x.md")) { try vault.resolveSafePath("dir/../../x.md") }
        #expect(throws: CoreError.pathOutsideVault(path: "/etc/passwd")) { try vault.resolveSafePath("/etc/passwd") }
        #expect(throws: CoreError.pathOutsideVault(path: "escape/x.md")) { try vault.resolveSafePath("escape/x.md") }
        #expect(throws: CoreError.invalidPath(path: "")) { try vault.resolveSafePath("") }
        #expect(throws: CoreError.self) { try vault.write(Data("x".utf8), to: "escape/new.md") }
        #expect(!FileManager.default.fileExists(atPath: temp.url.path + "/elsewhere/new.md"))
    }

    @Test func atomicWriteKeepsPermissions() throws {
        let temp = try TemporaryDirectory()
        try temp.mkdir("v/.quire")
        let vault = try Vault(at: temp.url.appendingPathComponent("v"))
        try vault.write(Data("one".utf8), to: "New/note.md")
        #expect(try vault.readData("New/note.md") == Data("one".utf8))
        let file = vault.url(for: "New/note.md").path
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: file)
        try vault.write(Data("two".utf8), to: "New/note.md")
        let mode = try FileManager.default.attributesOfItem(atPath: file)[.posixPermissions] as? Int
        #expect(mode == 0o600)
        #expect(try vault.readData("New/note.md") == Data("two".utf8))
        #expect(try FileManager.default.contentsOfDirectory(atPath: vault.url(for: "New").path) == ["note.md"])
        let long = String(repeating: "l", count: 250) + ".md"
        try vault.write(Data("long".utf8), to: long)
        #expect(try vault.readData(long) == Data("long".utf8))
        let note = try vault.readNote(path: "New/note.md")
        #expect(note.title == "note")
        #expect(note.folder == "New")
    }

    @Test func availablePathNumbersCollisions() throws {
        let temp = try TemporaryDirectory()
        try temp.mkdir("v/.quire")
        let vault = try Vault(at: temp.url.appendingPathComponent("v"))
        #expect(try vault.availablePath(folder: "Drafts", title: "Woody's Last Ride!") == "Drafts/woodys-last-ride.md")
        try temp.write("v/Drafts/woodys-last-ride.md", "x")
        try temp.write("v/Drafts/Woodys-Last-Ride-2.md", "x")
        #expect(try vault.availablePath(folder: "Drafts", title: "Woody's Last Ride!") == "Drafts/woodys-last-ride-3.md")
        #expect(try vault.availablePath(folder: "", title: "Top") == "top.md")
    }

    @Test func deviceName() throws {
        let temp = try TemporaryDirectory()
        try temp.mkdir("v/.quire")
        let vault = try Vault(at: temp.url.appendingPathComponent("v"))
        #expect(vault.deviceName(environment: ["QUIRE_DEVICE": "laptop"]) == "laptop")
        #expect(vault.deviceName(environment: [:]) == ProcessInfo.processInfo.hostName)
        try temp.write("v/.quire/local/config.yml", "# local\ndevice: desk\n")
        #expect(vault.deviceName(environment: [:]) == "desk")
        #expect(vault.deviceName(environment: ["QUIRE_DEVICE": "laptop"]) == "laptop")
    }

    @Test func configIsEditedSurgically() throws {
        var config = try VaultConfig(data: Data("# shared\nversion: 1\nfolders:\n  Drafts: {emoji: \"📝\", order: 2}\nmerge: {}\nunknown: keep # me\n".utf8))
        #expect(config.folders == [FolderSettings(path: "Drafts", emoji: "📝", order: 2)])
        try config.setMergeRule(MergeRule(pattern: "Journal/**", strategy: "keep-both"))
        try config.setDefault("draft", .bool(true))
        #expect(String(decoding: config.serialized(), as: UTF8.self) == """
        # shared
        version: 1
        folders:
          Drafts: {emoji: "📝", order: 2}
        merge:
          Journal/**: keep-both
        unknown: keep # me
        defaults:
          draft: true

        """)
        #expect(config.mergeRules == [MergeRule(pattern: "Journal/**", strategy: "keep-both")])
        #expect(config.defaults == [FrontMatterEntry(key: "draft", value: .bool(true))])
        #expect(throws: CoreError.self) { try config.setMergeRule(MergeRule(pattern: "x", strategy: "random")) }
        try config.setFolder(FolderSettings(path: "Ideas", emoji: "💡"))
        #expect(config.folders.map(\.path) == ["Drafts", "Ideas"])
        #expect(throws: CoreError.self) { try VaultConfig(data: Data("a: [".utf8)) }
    }

    /// `folder add`, `rename` and `rm` change only their folder's lines of `folders:`: the other
    /// entries keep their comments and quotes (writing the mapping anew dropped them).
    @Test func folderEntriesAreEditedLineByLine() throws {
        let text = """
        version: 4
        folders:
          # what I am writing now
          Drafts:
            emoji: "📝"   # my drafts
            order: 1
          'Old Stuff': {emoji: "🗄"}
        defaults: {}
        merge: {}

        """
        var config = try VaultConfig(data: Data(text.utf8))
        try config.setFolder(FolderSettings(path: "Ideas", emoji: "💭"))
        #expect(String(decoding: config.serialized(), as: UTF8.self) == text.replacingOccurrences(
            of: "  'Old Stuff': {emoji: \"🗄\"}\n", with: "  'Old Stuff': {emoji: \"🗄\"}\n  Ideas:\n    emoji: 💭\n"))
        try config.setFolder(FolderSettings(path: "Old Stuff", emoji: "📦", order: 3))
        #expect(config.folders == [FolderSettings(path: "Drafts", emoji: "📝", order: 1), FolderSettings(path: "Old Stuff", emoji: "📦", order: 3),
                                   FolderSettings(path: "Ideas", emoji: "💭")])
        #expect(String(decoding: config.serialized(), as: UTF8.self).contains("    emoji: \"📝\"   # my drafts\n"))
        try config.renameFolder("Drafts", to: "Work in progress")
        try config.removeFolder("Ideas")
        #expect(String(decoding: config.serialized(), as: UTF8.self) == """
        version: 4
        folders:
          # what I am writing now
          Work in progress:
            emoji: "📝"   # my drafts
            order: 1
          Old Stuff:
            emoji: 📦
            order: 3
        defaults: {}
        merge: {}

        """)
        // A name YAML must quote is quoted in place.
        try config.renameFolder("Old Stuff", to: "Old: stuff")
        #expect(String(decoding: config.serialized(), as: UTF8.self).contains("\n  \"Old: stuff\":\n    emoji: 📦\n"))
        #expect(config.folder("Old: stuff") == FolderSettings(path: "Old: stuff", emoji: "📦", order: 3))
        // A layout this editor does not read (a flow mapping) is written anew, as before.
        var flow = try VaultConfig(data: Data("folders: {A: {order: 1}}\n".utf8))
        try flow.setFolder(FolderSettings(path: "B", order: 2))
        #expect(flow.folders.map(\.path) == ["A", "B"])
    }
}
