import Foundation
import Testing

@Suite("quire folders, folder, stats, check")
struct FolderStatsCheckTests {
    /// A vault with two configured folders (Pitches ordered before Drafts) and notes in three.
    static func folderVault() throws -> TestVault {
        let vault = try TestVault()
        try vault.write("version: 4\nfolders:\n  Drafts:\n    emoji: \"📝\"\n    order: 2\n  Pitches:\n    emoji: \"💡\"\n    order: 1\n",
                        to: ".quire/config.yml")
        try vault.write(noteText("title: One"), to: "Drafts/one.md")
        try vault.write(noteText("title: Two"), to: "Drafts/two.md")
        try vault.write(noteText("title: Pitch"), to: "Pitches/pitch.md")
        try vault.write(noteText("title: Loose"), to: "loose.md")
        try vault.write(noteText("title: Deep"), to: "Zeta/deep.md")
        return vault
    }

    @Test func foldersJSONCountsAndConfiguredOrder() throws {
        let vault = try Self.folderVault()
        let run = try vault.run(["folders", "--json"])
        #expect(run.code == 0)
        let items = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [[String: Any]])
        #expect(items.compactMap { $0["path"] as? String } == ["", "Pitches", "Drafts", "Zeta"])
        #expect(items.compactMap { $0["notes"] as? Int } == [1, 1, 2, 1])
        #expect(items[1]["emoji"] as? String == "💡")
        #expect(items[1]["order"] as? Int == 1)
        #expect(items[3]["emoji"] is NSNull)
        let text = try vault.run(["folders"])
        #expect(text.code == 0)
        #expect(text.stdout.contains("💡 Pitches"))
    }

    /// `folders` and `stats` count the same notes: those the catalog holds, less what the
    /// `.gitignore` hides (a folder it hides whole is no folder of notes either).
    @Test func foldersAndStatsAgreeWhenGitignoreHidesNotes() throws {
        let vault = try Self.folderVault()
        try vault.write(try vault.read(".gitignore") + "Drafts/two.md\nZeta/\n", to: ".gitignore")
        let folders = try vault.run(["folders", "--json"])
        #expect(folders.code == 0)
        let rows = try #require(try JSONSerialization.jsonObject(with: Data(folders.stdout.utf8)) as? [[String: Any]])
        let listed = rows.compactMap { row in (row["path"] as? String).map { ($0, row["notes"] as? Int ?? -1) } }
        #expect(listed.map(\.0) == ["", "Pitches", "Drafts"])
        #expect(listed.map(\.1) == [1, 1, 1])
        let stats = try vault.run(["stats", "--json"])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(stats.stdout.utf8)) as? [String: Any])
        let counted = try #require(object["folders"] as? [[String: Any]])
        let byFolder = Dictionary(uniqueKeysWithValues: counted.compactMap { row in
            (row["name"] as? String).map { ($0, row["notes"] as? Int ?? -1) }
        })
        #expect(object["notes"] as? Int == 3)
        #expect(byFolder == Dictionary(uniqueKeysWithValues: listed.filter { $0.1 > 0 }))
    }

    @Test func folderAddRecordsEmojiAndCreatesTheFolder() throws {
        let vault = try TestVault()
        let run = try vault.run(["folder", "add", "Ideas", "--emoji", "✨"])
        #expect(run.code == 0)
        #expect(run.stdout == "Ideas\n")
        var isDirectory: ObjCBool = false
        #expect(FileManager.default.fileExists(atPath: vault.url("Ideas").path, isDirectory: &isDirectory) && isDirectory.boolValue)
        let folders = try vault.run(["folders", "--json"]).stdout
        #expect(folders.contains("\"emoji\": \"✨\""))
        #expect(try vault.run(["folder", "add", "../x"]).code == 1)
        #expect(try vault.run(["folder", "add"]).code == 2)
    }

    @Test func folderRenameMovesNotesAndSettings() throws {
        let vault = try Self.folderVault()
        let note = try vault.bytes("Drafts/one.md")
        let run = try vault.run(["folder", "rename", "Drafts", "Scripts"])
        #expect(run.code == 0)
        #expect(try vault.bytes("Scripts/one.md") == note)
        #expect(!vault.exists("Drafts"))
        #expect(try vault.read(".quire/config.yml").contains("Scripts:"))
        let sample = try Harness.copySampleVault()
        #expect(try Harness.run(["init"], in: sample).code == 0)
        #expect(try Harness.run(["folder", "rename", "Journal", "Diary"], in: sample).stdout == "Diary\n")
        #expect(try Harness.read(sample.appendingPathComponent(".quire/config.yml")).contains("Diary/**: newest"))
        let missing = try vault.run(["folder", "rename", "Nope", "X"])
        #expect(missing.code == 1)
        #expect(missing.stderr == "quire: error: no such folder (Nope)\nhint: 'quire folders' lists the folders\n")
        let taken = try vault.run(["folder", "rename", "Scripts", "Pitches"])
        #expect(taken.code == 1)
        #expect(taken.stderr.hasPrefix("quire: error: the folder already exists (Pitches)\nhint: "))
    }

    @Test func folderRmMovesNotesToTheRootAndNeverDeletesOne() throws {
        let vault = try Self.folderVault()
        try vault.write(noteText("title: Root one"), to: "one.md")
        let one = try vault.bytes("Drafts/one.md")
        let two = try vault.bytes("Drafts/two.md")
        let run = try vault.run(["folder", "rm", "Drafts"])
        #expect(run.code == 0)
        #expect(run.stdout == "moved Drafts/one.md → one-2.md\nmoved Drafts/two.md → two.md\nremoved Drafts\n")
        #expect(try vault.bytes("one-2.md") == one)
        #expect(try vault.bytes("two.md") == two)
        #expect(try vault.read("one.md") == noteText("title: Root one"))
        #expect(!vault.exists("Drafts"))
        #expect(!(try vault.read(".quire/config.yml").contains("Drafts")))
        #expect(try vault.run(["folder", "rm", "Drafts"]).code == 1)
    }

    @Test func statsJSONFigures() throws {
        let vault = try TestVault()
        let words250 = Array(repeating: "word", count: 250).joined(separator: " ") + "\n"
        try vault.write(noteText("title: A\nproject: P1\ntags: [x, y]\ndraft: true", body: words250), to: "Drafts/a.md")
        try vault.write(noteText("title: B\nproject: P1\ntags: [X]", body: "one two three\n"), to: "Drafts/b.md")
        try vault.write(noteText("title: C\nproject: P2\ndraft: false", body: "東京 tower 42\n"), to: "c.md")
        let run = try vault.run(["stats", "--json"])
        #expect(run.code == 0)
        let stats = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
        #expect(stats["notes"] as? Int == 3)
        #expect(stats["words"] as? Int == 257)
        #expect(stats["readingMinutes"] as? Int == 1)  // 257 / 200 rounded, at least 1 for any text
        #expect(stats["drafts"] as? Int == 1)
        #expect(stats["final"] as? Int == 2)
        func counts(_ key: String) -> [String: Int] {
            let rows = stats[key] as? [[String: Any]] ?? []
            return Dictionary(uniqueKeysWithValues: rows.compactMap { row in
                (row["name"] as? String).flatMap { name in (row["notes"] as? Int).map { (name, $0) } }
            })
        }
        #expect(counts("folders") == ["Drafts": 2, "": 1])
        #expect(counts("projects") == ["P1": 2, "P2": 1])
        #expect(counts("tags") == ["X": 2, "y": 1])  // as `quire tags` spells it: a tie, the smallest
        #expect(try vault.run(["stats"]).stdout.hasPrefix("3 notes, 257 words, 1 min read\n1 draft, 2 final\n"))
        let one = try vault.run(["stats", "c.md", "--json"])
        #expect(one.code == 0)
        #expect(one.stdout.contains("\"words\": 4"))
        #expect(one.stdout.contains("\"readingMinutes\": 1"))
    }

    @Test func checkListsEveryProblemAndExitsOne() throws {
        let vault = try TestVault()
        try vault.write(noteText("id: 11111111-1111-4111-8111-111111111111\ntitle: A"), to: "a.md")
        try vault.write(noteText("id: 11111111-1111-4111-8111-111111111111\ntitle: B"), to: "b.md")
        try vault.write("---\ntitle: [unclosed\n---\nbody\n", to: "bad.md")
        try vault.write(noteText("id: 22222222-2222-4222-8222-222222222222"), to: "untitled.md")
        let run = try vault.run(["check"])
        #expect(run.code == 1)
        #expect(run.stdout == """
            a.md: id 11111111-1111-4111-8111-111111111111 is also used by b.md
            b.md: id 11111111-1111-4111-8111-111111111111 is also used by a.md
            bad.md:3: invalid yaml: did not find expected ',' or ']' while parsing a flow sequence
            3 problems in 3 of 4 notes; 1 note has problems in its front matter or text

            """)
        let json = try vault.run(["check", "--json"])
        #expect(json.code == 1)
        let items = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: Any]])
        #expect(items.compactMap { $0["kind"] as? String } == ["duplicateId", "duplicateId", "invalidYAML"])
    }

    @Test func checkReportsAnLFSPointerOnce() throws {
        let vault = try TestVault()
        try vault.write(noteText("title: Fine"), to: "fine.md")
        try vault.write("version https://git-lfs.github.com/spec/v1\noid sha256:4d7a\nsize 12345\n", to: "big.md")
        let run = try vault.run(["check"])
        #expect(run.code == 1)
        #expect(run.stdout == "big.md:1: file is a Git LFS pointer; its content is not in the work tree\n1 problem in 1 of 2 notes\n")
    }

    @Test func checkOnACleanVaultExitsZero() throws {
        let vault = try Self.folderVault()
        let run = try vault.run(["check"])
        #expect(run.code == 0)
        #expect(run.stdout == "no problems in 5 notes\n")
        let json = try vault.run(["check", "--json"])
        #expect(json.code == 0)
        #expect(json.stdout == "[]\n")
    }
}
