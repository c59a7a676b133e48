import Foundation
import Testing

/// `quire links`, `backlinks`, `graph`, the link filters and `check` through the built binary.
@Suite("links through the binary")
struct LinkCommandTests {
    static func vault() throws -> TestVault {
        let vault = try TestVault()
        try vault.write("---\ntitle: Home\nrelated: \"[[Deep]]\"\n---\n# Home\nSee [[Note]] and [[a/Note|the a note]] and [x](b/Note.md#Top) ![[pic.png]] [[Missing]] [[Deep#nope]]\n`[[Code]]`\n", to: "Home.md")
        try vault.write("# Top\nback to [[Home]]\n", to: "a/Note.md")
        try vault.write("# Top\nHome is here, not linked. home again\n```\nHome in code\n```\nA `Home` span, ![[pic.png|home]].\n", to: "b/Note.md")
        try vault.write("---\naliases: [Abyss]\n---\nDeep text [[Home#Home]]\n", to: "a/Deep.md")
        try vault.write("Alone with [[Deep|Abyss]].\n", to: "c/Alone.md")
        try FileManager.default.createDirectory(at: vault.url("img"), withIntermediateDirectories: true)
        try Data([0x89, 0x50]).write(to: vault.url("img/pic.png"))
        return vault
    }

    @Test func linksListsEachLinkResolved() throws {
        let vault = try Self.vault()
        let run = try vault.run(["links", "Home"])
        #expect(run.code == 0, "\(run.stderr)")
        #expect(run.stdout == """
            3: [[Deep]]  → a/Deep.md
            6: [[Note]]  ambiguous: a/Note.md, b/Note.md
            6: [[a/Note|the a note]]  → a/Note.md
            6: [x](b/Note.md#Top)  → b/Note.md
            6: ![[pic.png]]  → img/pic.png
            6: [[Missing]]  unresolved
            6: [[Deep#nope]]  → a/Deep.md (no such heading)

            """)
        let json = try vault.run(["links", "Home.md", "--json"])
        let entries = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: Any]])
        #expect(entries.map { $0["status"] as? String } == ["note", "ambiguous", "note", "note", "attachment", "unresolved", "note"])
        #expect(entries[0]["frontMatterKey"] as? String == "related")
        #expect(entries[1]["candidates"] as? [String] == ["a/Note.md", "b/Note.md"])
        #expect(entries[3]["heading"] as? String == "Top")
        #expect(entries[3]["anchor"] as? String == "found")
        #expect(entries[6]["anchor"] as? String == "missing")
        #expect(entries[4]["embed"] as? Bool == true)
    }

    @Test func backlinksWithLineAndContext() throws {
        let vault = try Self.vault()
        let run = try vault.run(["backlinks", "Home"])
        #expect(run.code == 0, "\(run.stderr)")
        #expect(run.stdout == "a/Deep.md:4: Deep text [[Home#Home]]\na/Note.md:2: back to [[Home]]\n")
        // Paths print relative to the current directory, as git does.
        let inside = try vault.run(["backlinks", "Home"], subfolder: "a")
        #expect(inside.stdout == "Deep.md:4: Deep text [[Home#Home]]\nNote.md:2: back to [[Home]]\n")
        let json = try vault.run(["backlinks", "a/Deep.md", "--json"])
        let entries = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: Any]])
        #expect(entries.map { $0["path"] as? String } == ["Home.md", "Home.md", "c/Alone.md"])
        #expect(entries.map { $0["line"] as? Int } == [3, 6, 1])
        #expect(entries[2]["context"] as? String == "Alone with [[Deep|Abyss]].")
        // A path from the current directory (found in the catalog) names the same note as its title.
        let byPath = try vault.run(["backlinks", "../a/Deep.md", "--json"], subfolder: "c")
        #expect(byPath.stdout == json.stdout)
        #expect(try vault.run(["backlinks", "Deep.md"], subfolder: "a").stdout
                == vault.run(["backlinks", "Abyss"], subfolder: "a").stdout)
        #expect(try vault.run(["backlinks", "c/Alone.md"]).stdout == "")
    }

    /// A note with CRLF line breaks shows its linking line too (each CRLF break is one
    /// `Character`: the whole file was one line, and the line shown was empty).
    @Test func backlinksFromACRLFNoteShowTheirLine() throws {
        let vault = try Self.vault()
        try vault.write("---\r\ntitle: Windows\r\n---\r\nfirst\r\nsee [[Home]] here\r\n", to: "win.md")
        let run = try vault.run(["backlinks", "Home"])
        #expect(run.stdout.contains("win.md:5: see [[Home]] here\n"), "\(run.stdout)")
    }

    @Test func unlinkedMentions() throws {
        let vault = try Self.vault()
        let run = try vault.run(["backlinks", "Home", "--unlinked"])
        #expect(run.code == 0, "\(run.stderr)")
        // b/Note names Home twice on one line (one mention a line), not in its code block, its
        // code span or a link to another note;
        // a/Note and a/Deep link to it; Home itself is not listed.
        #expect(run.stdout == "b/Note.md:2: Home is here, not linked. home again\n")
        // Every note that names Deep or its alias Abyss links to it.
        #expect(try vault.run(["backlinks", "Deep", "--unlinked", "--json"]).stdout == "[]\n")
        // Words inside URLs, a web link's text, code and links are no mentions.
        try vault.write("See https://home.example/home, www.home.org, [Home page](https://x.y) and `home`.\nHome!\n",
                        to: "c/Urls.md")
        let urls = try vault.run(["backlinks", "Home", "--unlinked"]).stdout
        #expect(urls == "b/Note.md:2: Home is here, not linked. home again\nc/Urls.md:2: Home!\n", "\(urls)")
    }

    /// Finding nothing is no error, alike for `links`, `backlinks`, `search` and `list`
    /// (Docs/links.md, Docs/search.md): nothing on standard output or error, exit 0; `[]` with --json.
    @Test func aNoteWithoutLinksPrintsNothingAndExitsZeroAsSearchAndListDo() throws {
        let vault = try Self.vault()
        // Link syntax in code is no link.
        try vault.write("# Quiet\nNo link here, only code: `[[Code]]`\n```\n[[Fenced]]\n```\n", to: "d/Quiet.md")
        let findingNothing: [[String]] = [
            ["links", "Quiet"], ["links", "d/Quiet.md"], ["backlinks", "Quiet"], ["backlinks", "Quiet", "--unlinked"],
            ["search", "zebra"], ["list", "tag:none"],
        ]
        for arguments in findingNothing {
            let text = try vault.run(arguments)
            #expect(text.code == 0, "\(arguments): \(text.stderr)")
            #expect(text.stdout == "", "\(arguments)")
            #expect(text.stderr == "", "\(arguments)")
            let json = try vault.run(arguments + ["--json"])
            #expect(json.code == 0, "\(arguments) --json: \(json.stderr)")
            #expect(json.stdout == "[]\n", "\(arguments) --json")
            #expect(json.stderr == "", "\(arguments) --json")
        }
        // Once the note links somewhere, the link is listed.
        try vault.write("# Quiet\nNow [[Home]].\n", to: "d/Quiet.md")
        let linked = try vault.run(["links", "Quiet"])
        #expect(linked.code == 0, "\(linked.stderr)")
        #expect(linked.stdout == "2: [[Home]]  → Home.md\n")
        // A NOTE that names nothing is still an error, not an empty list.
        let missing = try vault.run(["links", "Nowhere"])
        #expect(missing.code == 1)
        #expect(missing.stdout == "")
        #expect(missing.stderr.hasPrefix("quire: error: "))
    }

    @Test func filtersWorkInListAndSearch() throws {
        let vault = try Self.vault()
        #expect(try vault.run(["list", "links-to:Home", "--sort", "path", "--paths"]).stdout == "a/Deep.md\na/Note.md\n")
        #expect(try vault.run(["search", "links-to:Home", "text", "--paths"]).stdout == "a/Deep.md\n")
        #expect(try vault.run(["list", "linked-from:Home", "--sort", "path", "--paths"]).stdout == "a/Deep.md\na/Note.md\nb/Note.md\n")
        #expect(try vault.run(["list", "broken-links:true", "--paths"]).stdout == "Home.md\n")
        #expect(try vault.run(["list", "orphan:true", "--paths"]).stdout == "")
        #expect(try vault.run(["list", "-links-to:Home", "folder:c", "--paths"]).stdout == "c/Alone.md\n")
        let bad = try vault.run(["list", "orphan:perhaps"])
        #expect(bad.code == 2)
    }

    @Test func graphAsDotAndJSON() throws {
        let vault = try Self.vault()
        let dot = try vault.run(["graph", "folder:a"])
        #expect(dot.code == 0, "\(dot.stderr)")
        #expect(dot.stdout == """
            digraph vault {
              "a/Deep.md" [label="Deep"];
              "a/Note.md" [label="Note"];
            }

            """)
        let json = try vault.run(["graph", "--json"])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let edges = try #require(object["edges"] as? [[String: Any]])
        #expect(edges.map { "\($0["source"] ?? "")>\($0["target"] ?? "")x\($0["count"] ?? "")" } == [
            "Home.md>a/Deep.mdx2", "Home.md>a/Note.mdx1", "Home.md>b/Note.mdx1", "a/Deep.md>Home.mdx1",
            "a/Note.md>Home.mdx1", "c/Alone.md>a/Deep.mdx1",
        ])
        #expect((object["nodes"] as? [Any])?.count == 5)
        // Written element by element, byte for byte as one JSON value rendered.
        #expect(try vault.run(["graph", "folder:a", "--json"]).stdout == """
            {
              "nodes": [
                {
                  "path": "a/Deep.md",
                  "title": "Deep"
                },
                {
                  "path": "a/Note.md",
                  "title": "Note"
                }
              ],
              "edges": []
            }

            """)
        #expect(try vault.run(["graph", "folder:nowhere", "--json"]).stdout == "{\n  \"nodes\": [],\n  \"edges\": []\n}\n")
        #expect(try vault.run(["graph", "--dot", "--json"]).code == 2)
    }

    @Test func checkReportsLinkProblemsWithTheClosestCandidate() throws {
        let vault = try Self.vault()
        try vault.write("[[Hme]]\n", to: "d/Typo.md")
        let run = try vault.run(["check"])
        #expect(run.code == 1)
        #expect(run.stdout.contains("Home.md:6: ambiguous link [[Note]]: could be a/Note.md, b/Note.md\n"))
        #expect(run.stdout.contains("Home.md:6: broken link [[Missing]]: no note or file 'Missing'\n"))
        #expect(run.stdout.contains("Home.md:6: link [[Deep#nope]]: a/Deep.md has no heading 'nope'\n"))
        #expect(run.stdout.contains("d/Typo.md:1: broken link [[Hme]]: no note or file 'Hme'; closest: Home.md\n"))
        let json = try vault.run(["check", "--json"])
        #expect(json.stdout.contains("\"kind\": \"brokenLink\""))
        #expect(json.stdout.contains("\"kind\": \"ambiguousLink\""))
    }

    @Test func editsRenamesAndDeletesShowAtTheNextCommand() throws {
        let vault = try Self.vault()
        #expect(try vault.run(["backlinks", "Home"]).stdout.contains("a/Note.md:2"))
        try vault.write("# Top\nno more link\n", to: "a/Note.md")
        #expect(try vault.run(["backlinks", "Home"]).stdout == "a/Deep.md:4: Deep text [[Home#Home]]\n")
        try FileManager.default.moveItem(at: vault.url("a/Deep.md"), to: vault.url("c/Deep.md"))
        #expect(try vault.run(["backlinks", "Home"]).stdout == "c/Deep.md:4: Deep text [[Home#Home]]\n")
        #expect(try vault.run(["links", "Home"]).stdout.hasPrefix("3: [[Deep]]  → c/Deep.md\n"))
        try FileManager.default.removeItem(at: vault.url("c/Deep.md"))
        #expect(try vault.run(["backlinks", "Home"]).stdout == "")
        #expect(try vault.run(["links", "Home"]).stdout.hasPrefix("3: [[Deep]]  unresolved\n"))
    }

    /// A one-note command with no kept link table answers at query time and writes none (it
    /// resolves no other note's links); its answers are those of the table `graph` writes.
    @Test func oneNoteCommandsWithoutATableAnswerAtQueryTimeAndWriteNone() throws {
        let vault = try Self.vault()
        let table = vault.url(".quire/cache/links.bin")
        let commands = [["backlinks", "Home"], ["backlinks", "a/Deep.md", "--json"], ["links", "Home", "--json"],
                        ["list", "links-to:Home"], ["list", "linked-from:Home", "-l"]]
        let before = try commands.map { try vault.run($0) }
        #expect(before.allSatisfy { $0.code == 0 }, "\(before.map(\.stderr))")
        #expect(!FileManager.default.fileExists(atPath: table.path))
        #expect(try vault.run(["graph", "--json"]).code == 0)
        #expect(FileManager.default.fileExists(atPath: table.path))
        let after = try commands.map { try vault.run($0) }
        #expect(after.map(\.stdout) == before.map(\.stdout))
        #expect(!before[0].stdout.isEmpty && !before[3].stdout.isEmpty && !before[4].stdout.isEmpty)
        try FileManager.default.removeItem(at: table)
        #expect(try vault.run(["list", "orphan:true"]).code == 0)
        #expect(FileManager.default.fileExists(atPath: table.path))
    }

    /// Attachments come from the walk that proves the catalog fresh: one added, moved, ignored,
    /// put in a hidden folder or removed between commands shows at the next one.
    @Test func attachmentChangesShowAtTheNextCommand() throws {
        try Self.attachmentChanges(try Self.vault())
    }

    /// The same with a watcher running: the attachments come from the watcher, less what the
    /// ignore rules hide.
    @Test func attachmentChangesShowAtTheNextCommandWithTheWatcher() throws {
        let vault = try Self.vault()
        try vault.withWatcher {
            try Self.attachmentChanges(vault)
            try vault.write("png\n", to: "b/pic.png")
            let index = try vault.run(["index", "--json"]).stdout
            let report = try JSONSerialization.jsonObject(with: Data(index.utf8)) as? [String: Any]
            #expect((report?["freshness"] as? [String: Any])?["method"] as? String == "watcher", "\(index)")
            #expect(try vault.run(["links", "Home"]).stdout.contains("6: ![[pic.png]]  → b/pic.png\n"))
        }
    }

    private static func attachmentChanges(_ vault: TestVault) throws {
        func picture() throws -> String {
            let lines = try vault.run(["links", "Home"]).stdout.split(separator: "\n")
            return String(lines.first { $0.contains("![[pic.png]]") } ?? "")
        }
        #expect(try picture() == "6: ![[pic.png]]  → img/pic.png")
        try FileManager.default.moveItem(at: vault.url("img/pic.png"), to: vault.url("c/pic.png"))
        #expect(try picture() == "6: ![[pic.png]]  → c/pic.png")
        #expect(try vault.run(["list", "broken-links:true", "folder:b", "--paths"]).stdout == "")
        try vault.write(try vault.read(".gitignore") + "c/pic.png\n", to: ".gitignore")
        #expect(try picture() == "6: ![[pic.png]]  unresolved")
        #expect(try vault.run(["list", "broken-links:true", "folder:b", "--paths"]).stdout == "b/Note.md\n")
        try FileManager.default.createDirectory(at: vault.url(".hidden"), withIntermediateDirectories: true)
        try FileManager.default.moveItem(at: vault.url("c/pic.png"), to: vault.url(".hidden/pic.png"))
        #expect(try picture() == "6: ![[pic.png]]  unresolved")
        try FileManager.default.moveItem(at: vault.url(".hidden/pic.png"), to: vault.url("b/pic.png"))
        #expect(try picture() == "6: ![[pic.png]]  → b/pic.png")
        #expect(try vault.run(["graph", "--json"]).code == 0)
        try FileManager.default.removeItem(at: vault.url("b/pic.png"))
        #expect(try picture() == "6: ![[pic.png]]  unresolved")
    }

    /// On a real vault (Dendron's documentation, vendored in Tests/Corpora), `backlinks`
    /// agrees with a brute-force count: every `[[target…]]` outside code whose target names a
    /// note's file exactly (Dendron links by file name), found by a regular expression here.
    @Test func backlinksAgreeWithABruteForceCountOnARealVault() throws {
        let corpus = Harness.packageRoot.appendingPathComponent("Tests/Corpora/dendron-site/vault")
        guard FileManager.default.fileExists(atPath: corpus.path) else {
            Issue.record("Tests/Corpora/dendron-site is missing")
            return
        }
        let vault = try TestVault()
        let names = try FileManager.default.contentsOfDirectory(atPath: corpus.path).filter { $0.hasSuffix(".md") }.sorted()
        for name in names {
            try FileManager.default.copyItem(at: corpus.appendingPathComponent(name), to: vault.url(name))
        }
        let stems = Set(names.map { String($0.dropLast(3)).lowercased() })
        let pattern = try NSRegularExpression(pattern: "(?<!\\\\)\\[\\[([^\\[\\]|#\\n]+)(?:#[^\\[\\]|\\n]*)?(?:\\\\?\\|[^\\[\\]\\n]*)?\\]\\]")
        var expected: [String: Int] = [:]
        for name in names {
            // HTML comments starting a line are raw HTML blocks: no links there.
            let text = try String(contentsOf: corpus.appendingPathComponent(name), encoding: .utf8)
                .replacingOccurrences(of: "(?ms)^ {0,3}<!--.*?-->", with: "", options: .regularExpression)
            var inFence = false
            for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
                let trimmed = line.trimmingCharacters(in: .whitespaces)
                if trimmed.hasPrefix("```") || trimmed.hasPrefix("~~~") { inFence.toggle(); continue }
                if inFence { continue }
                // Code spans out, then every wikilink.
                let plain = String(line).replacingOccurrences(of: "`[^`]*`", with: "", options: .regularExpression)
                for match in pattern.matches(in: plain, range: NSRange(plain.startIndex..., in: plain)) {
                    guard let range = Range(match.range(at: 1), in: plain) else { continue }
                    let target = plain[range].trimmingCharacters(in: CharacterSet(charactersIn: "\\ ")).lowercased()
                    if stems.contains(target) { expected[target, default: 0] += 1 }
                }
            }
        }
        let busiest = expected.sorted { ($1.value, $0.key) < ($0.value, $1.key) }.prefix(12)
        try #require(busiest.count == 12 && (busiest.first?.value ?? 0) > 10, "too few links in the corpus")
        for (target, count) in busiest {
            let file = try #require(names.first { $0.lowercased() == target + ".md" })
            let run = try vault.run(["backlinks", file, "--json"])
            #expect(run.code == 0, "\(run.stderr)")
            let entries = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [[String: Any]])
            let wikilinks = entries.filter { $0["style"] as? String == "wiki" && ($0["target"] as? String)?.lowercased() == target }
            #expect(wikilinks.count == count, "\(file): \(wikilinks.count) backlinks, \(count) by count")
        }
    }
}
