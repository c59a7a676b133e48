import Foundation
import QuireCore
import Testing

@Suite("quire import DIR --from TOOL")
struct FolderImportTests {
    static let corpora = FileManager.default.fileExists(
        atPath: Harness.packageRoot.appendingPathComponent("Tests/Corpora/dendron-site/vault").path)

    /// Imports a corpus folder and checks every note against its source: same path, same body,
    /// the same instants under the canonical date keys, the same tags (and more when other tag
    /// keys were merged), every other key unchanged. Importing again adds nothing.
    @discardableResult
    func checkCorpus(_ folder: String, tool: String, dateKeys: Set<String>, tagKeys: Set<String>,
                     mappedAtLeast: Int) throws -> TestVault {
        let source = Harness.packageRoot.appendingPathComponent("Tests/Corpora").appendingPathComponent(folder)
        let vault = try TestVault()
        let run = try vault.run(["import", source.path, "--from", tool, "--folder", "Imported"])
        #expect(run.code == 0, "\(run.stderr)")
        let sources = try TestVault.snapshot(source).filter { $0.key.hasSuffix(".md") }
        #expect(sources.count > 500)
        #expect(run.stdout.hasPrefix("imported \(sources.count) notes"))
        let utc = TimeZone(identifier: "UTC") ?? .current
        var mapped = 0
        for (path, data) in sources {
            let target = try vault.bytes("Imported/" + path)
            let before = NoteParser.parse(data, path: path, timeZone: utc)
            let after = NoteParser.parse(target, path: path, timeZone: utc)
            #expect(after.body == before.body, "\(path)")
            // ISO 8601 is written with seconds (Dendron keeps milliseconds): the same second.
            #expect(Self.sameSecond(after.createdAt, before.createdAt), "\(path)")
            #expect(Self.sameSecond(after.updatedAt, before.updatedAt), "\(path)")
            #expect(after.id == before.id && after.title == before.title, "\(path)")
            #expect(Set(before.tags.map { $0.lowercased() }).isSubset(of: Set(after.tags.map { $0.lowercased() })), "\(path)")
            let kept = before.frontMatter.filter { !dateKeys.contains($0.key) && !tagKeys.contains($0.key) && $0.key != "tags" }
            for entry in kept {
                #expect(after.frontMatter.first { $0.key == entry.key }?.value == entry.value, "\(path): \(entry.key)")
            }
            let mappedKeys = dateKeys.union(tagKeys)
            if before.frontMatter.contains(where: { mappedKeys.contains($0.key) }),
               !after.frontMatter.contains(where: { mappedKeys.contains($0.key) }) {
                mapped += 1
            }
        }
        #expect(mapped >= mappedAtLeast)
        let again = try vault.run(["import", source.path, "--from", tool, "--folder", "Imported"])
        #expect(again.stdout == "imported 0 notes, skipped \(sources.count) already in the vault, 0 failed\n")
        return vault
    }

    static func sameSecond(_ first: Date?, _ second: Date?) -> Bool {
        first.map { $0.timeIntervalSince1970.rounded(.down) } == second.map { $0.timeIntervalSince1970.rounded(.down) }
    }

    @Test(.enabled(if: corpora, "needs the vendored corpora in Tests/Corpora"))
    func dendronCorpus() throws {
        let vault = try checkCorpus("dendron-site/vault", tool: "dendron", dateKeys: ["created", "updated"], tagKeys: [],
                                    mappedAtLeast: 1000)
        // Dotted hierarchy names stay; epoch milliseconds become ISO 8601 under canonical keys.
        let note = try vault.read("Imported/tags.feature.link-to-files.md")
        #expect(note.hasPrefix("""
        ---
        id: 8L4Qrg3PcSIFiYZBqCU6n
        title: Link to Files
        desc: ''
        updatedAt: 2022-01-19T03:47:42+00:00
        createdAt: 2022-01-19T03:47:42+00:00
        pods:
          airtable:
            dendron.features: recAuJ7JgBtNuPZ3n
        ---
        """))
    }

    @Test(.enabled(if: corpora, "needs the vendored corpora in Tests/Corpora"))
    func hugoCorpus() throws {
        try checkCorpus("hugo-docs/content", tool: "hugo", dateKeys: ["date", "lastmod"], tagKeys: ["categories", "keywords"],
                        mappedAtLeast: 500)
    }

    /// A note whose tags are only under another tool's key gets them under `tags`, the old key
    /// gone, as for a note that has both.
    @Test func tagsUnderAnotherToolsKeyAloneMoveToTags() throws {
        let source = try Harness.temporaryDirectory("quire-import-tag-keys")
        let vault = try TestVault()
        for (tool, key) in [("obsidian", "tag"), ("zk", "keywords"), ("hugo", "keywords"), ("jekyll", "tag")] {
            try Harness.write("---\ntitle: Z\n\(key): [alpha, beta]\n---\nbody\n",
                              to: source.appendingPathComponent("\(tool)/z.md"))
            let run = try vault.run(["import", source.appendingPathComponent(tool).path, "--from", tool, "--folder", tool])
            #expect(run.code == 0, "\(tool): \(run.stderr)")
            #expect(try vault.read("\(tool)/z.md") == "---\ntitle: Z\ntags: [alpha, beta]\n---\nbody\n", "\(tool)")
        }
    }

    /// A file whose name is not UTF-8 (a Latin-1 `café.md`) is listed as failed, its bad byte
    /// shown, and the import exits 1; it used to be left out without a word.
    @Test func aNameThatIsNotUTF8IsReportedAsFailed() throws {
        let source = try Harness.temporaryDirectory("quire-import-latin1")
        try Harness.write("fine\n", to: source.appendingPathComponent("a.md"))
        let path = Array(source.path.utf8) + [0x2F, 0x63, 0x61, 0x66, 0xE9, 0x2E, 0x6D, 0x64, 0]
        let made = path.withUnsafeBufferPointer { buffer -> Int32 in
            guard let base = buffer.baseAddress else { return -1 }
            return base.withMemoryRebound(to: CChar.self, capacity: buffer.count) { creat($0, 0o644) }
        }
        #expect(made >= 0)
        let vault = try TestVault()
        let run = try vault.run(["import", source.path, "--from", "plain"])
        #expect(run.code == 1)
        #expect(run.stdout == "imported 1 note, skipped 0 already in the vault, 1 failed\n", "\(run.stdout)")
        #expect(run.stderr.contains("(caf\\xE9.md) not imported: its name is not valid UTF-8"), "\(run.stderr)")
        #expect(try vault.read("a.md") == "fine\n")
    }

    @Test func obsidianJekyllZkNbAndPlainFolders() throws {
        let source = try Harness.temporaryDirectory("quire-import-source")
        func write(_ text: String, _ path: String) throws { try Harness.write(text, to: source.appendingPathComponent(path)) }
        try write("---\ncreated: 2024-01-15 09:30\nmodified: 2024-01-16 10:00\ntags: \"#idea, #Work\"\ntag: extra\nalias: Big plan\ncssclass: wide\n---\nSee [[Other]] and ![](assets/plan.png).\n", "obsidian/Plans/Plan.md")
        try write("No front matter.\n", "obsidian/Other.md")
        try write("{\"theme\": \"dark\"}", "obsidian/.obsidian/app.json")
        try write("", "obsidian/Plans/assets/plan.png")
        try Data([0x89, 0x50, 0x4E, 0x47]).write(to: source.appendingPathComponent("obsidian/Plans/assets/plan.png"))
        try write("---\nlayout: post\ntitle: Hello\ncategories: [travel]\ntags: [sea]\n---\nHi.\n", "jekyll/_posts/2024-01-05-hello.md")
        try write("generated\n", "jekyll/_site/index.md")
        try write("---\ntitle: Zettel\ndate: 2023-05-06 07:08:09\ntags: [a, a, ' b ']\n---\nText #inline\n", "zk/202305060708.md")
        try write("{}", "zk/.zk/config.toml")
        try write("# nb note\n\nBody #tag\n", "nb/home/20240101000000.md")
        try write("plain text\n", "plain/a/b.md")
        let old = Date(timeIntervalSince1970: 1_600_000_000)
        try FileManager.default.setAttributes([.modificationDate: old], ofItemAtPath: source.appendingPathComponent("plain/a/b.md").path)

        let vault = try TestVault()
        var run = try vault.run(["import", source.appendingPathComponent("obsidian").path, "--from", "obsidian", "--folder", "O"])
        #expect(run.code == 0, "\(run.stderr)")
        #expect(run.stdout == "imported 2 notes, copied 1 attachment, skipped 0 already in the vault, 0 failed\n")
        #expect(try vault.read("O/Plans/Plan.md") == "---\ncreatedAt: 2024-01-15 09:30\nupdatedAt: 2024-01-16 10:00\ntags: \"#idea, #Work, #extra\"\naliases: Big plan\ncssclass: wide\n---\nSee [[Other]] and ![](assets/plan.png).\n")
        #expect(try vault.bytes("O/Plans/assets/plan.png") == Data([0x89, 0x50, 0x4E, 0x47]))
        #expect(try vault.read("O/Other.md") == "No front matter.\n")
        #expect(!vault.exists("O/.obsidian/app.json"))

        run = try vault.run(["import", source.appendingPathComponent("jekyll").path, "--from", "jekyll", "--folder", "J"])
        #expect(run.stdout == "imported 1 note, skipped 0 already in the vault, 0 failed\n")
        #expect(try vault.read("J/_posts/2024-01-05-hello.md") == "---\nlayout: post\ntitle: Hello\ntags: [sea, travel]\ncreatedAt: 2024-01-05T00:00:00+00:00\n---\nHi.\n")
        #expect(!vault.exists("J/_site/index.md"))

        run = try vault.run(["import", source.appendingPathComponent("zk").path, "--from", "zk", "--folder", "Z"])
        #expect(try vault.read("Z/202305060708.md") == "---\ntitle: Zettel\ncreatedAt: 2023-05-06 07:08:09\ntags: [a, b]\n---\nText #inline\n")
        #expect(!vault.exists("Z/.zk/config.toml"))

        run = try vault.run(["import", source.appendingPathComponent("nb").path, "--from", "nb", "--folder", "N"])
        #expect(try vault.read("N/home/20240101000000.md") == "# nb note\n\nBody #tag\n")

        run = try vault.run(["import", source.appendingPathComponent("plain").path, "--from", "plain"])
        #expect(try vault.read("a/b.md") == "plain text\n")
        let modified = try FileManager.default.attributesOfItem(atPath: vault.url("a/b.md").path)[.modificationDate] as? Date
        #expect(modified == old)

        // A changed source file does not overwrite the vault's; an unknown tool is a usage error.
        try write("---\ncreated: 2024-01-15 09:30\n---\nChanged.\n", "obsidian/Plans/Plan.md")
        run = try vault.run(["import", source.appendingPathComponent("obsidian").path, "--from", "obsidian", "--folder", "O"])
        #expect(run.code == 1)
        #expect(run.stderr == "quire: warning: entry 1 (Plans/Plan.md) not imported: a different file is already at O/Plans/Plan.md\n")
        #expect(try vault.run(["import", source.path, "--from", "notion"]).code == 2)
        #expect(try vault.run(["import", vault.root.path, "--from", "plain"]).code == 1)
    }
}
