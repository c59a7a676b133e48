import Foundation
import Testing

/// The query language's edge cases, through the built binary: one-argument queries, symbols and
/// emoji, queries with nothing to search for, list order with words, exact titles first.
@Suite("quire list and search: query edge cases")
struct QueryEdgeTests {
    func paths(_ vault: TestVault, _ arguments: [String]) throws -> [String] {
        let run = try vault.run(arguments + ["--paths"])
        #expect(run.code == 0, "\(arguments): \(run.stderr)")
        return run.stdout.split(separator: "\n").map(String.init)
    }

    @Test func oneArgumentQueryEqualsSeparateArguments() throws {
        let vault = try TestVault()
        try vault.write(noteText("title: Idea\ntags: [idea]"), to: "idea.md")
        try vault.write(noteText("title: Draft idea\ntags: [idea]\ndraft: true"), to: "draft.md")
        try vault.write(noteText("title: Other\ntags: [other]"), to: "other.md")
        try vault.write(noteText("title: Road trip\nproject: Toy Story 5", body: "Road map ahead.\n"), to: "road.md")
        try vault.write(noteText("title: Map only", body: "A map and a road.\n"), to: "map.md")
        #expect(try paths(vault, ["list", "tag:idea draft:false"]) == ["idea.md"])
        #expect(try paths(vault, ["list", "draft:false tag:idea"]) == ["idea.md"])
        #expect(try paths(vault, ["list", "tag:idea", "draft:false"]) == ["idea.md"])
        #expect(try paths(vault, ["list", "tag:idea -draft:true", "--sort", "path"]) == ["idea.md"])
        // A quoted value keeps its spaces; the shell's leftovers of one are quoted again.
        #expect(try paths(vault, ["list", "project:\"Toy Story 5\" road"]) == ["road.md"])
        #expect(try paths(vault, ["list", "project:Toy Story 5"]) == ["road.md"])
        #expect(try paths(vault, ["list", "title:road map", "--sort", "path"]) == [])
        #expect(try paths(vault, ["list", "title:road", "map", "--sort", "path"]) == ["road.md"])
    }
}

extension QueryEdgeTests {
    @Test func listWithWordsKeepsTheListOrderAndReverses() throws {
        let vault = try TestVault()
        try vault.write(noteText("title: Woody\nupdatedAt: 2026-01-01T00:00:00Z", body: "woody woody woody\n"), to: "a.md")
        try vault.write(noteText("title: Pinned\nupdatedAt: 2025-01-01T00:00:00Z\npinned: true", body: "woody\n"), to: "b.md")
        try vault.write(noteText("title: Newest\nupdatedAt: 2026-03-01T00:00:00Z", body: "woody\n"), to: "c.md")
        try vault.write(noteText("title: Other\nupdatedAt: 2026-02-01T00:00:00Z", body: "buzz\n"), to: "d.md")
        #expect(try paths(vault, ["list", "woody"]) == ["b.md", "c.md", "a.md"])
        #expect(try paths(vault, ["list", "woody", "--reverse"]) == ["a.md", "c.md", "b.md"])
        #expect(try paths(vault, ["list", "woody", "--reverse", "--limit", "1"]) == ["a.md"])
        #expect(try paths(vault, ["list", "--reverse"]) == ["a.md", "d.md", "c.md", "b.md"])
        #expect(try paths(vault, ["list", "woody", "--sort", "title", "--reverse"]) == ["a.md", "b.md", "c.md"])
    }

    /// Titles sort without case and diacritics: `écrire` comes between `Banana` and `Zebra`
    /// (it came after `Zebra`).
    @Test func titlesSortWithoutDiacritics() throws {
        let vault = try TestVault()
        for (file, title) in [("a.md", "apple"), ("e.md", "\u{E9}crire"), ("z.md", "Zebra"), ("b.md", "Banana"), ("o.md", "\u{D6}l")] {
            try vault.write(noteText("title: \(title)"), to: file)
        }
        #expect(try paths(vault, ["list", "--sort", "title"]) == ["a.md", "b.md", "e.md", "o.md", "z.md"])
    }
}

extension QueryEdgeTests {
    @Test func symbolsAndEmojiAreSearchable() throws {
        let vault = try TestVault()
        try vault.write(noteText("title: 🔥🔥🔥", body: "Hot.\n"), to: "fire.md")
        try vault.write(noteText("title: 🔥 takes\ntags: [🚀]", body: "C++ and C# and ❤️ at 5€.\n"), to: "takes.md")
        try vault.write(noteText("title: Plain", body: "The c language, the net and node js.\n"), to: "plain.md")
        try vault.write(noteText("title: Dotnet", body: "Uses .NET and node.js!\n"), to: "dotnet.md")
        let sorted = ["--sort", "path"]
        #expect(try paths(vault, ["list", "🔥"] + sorted) == ["fire.md", "takes.md"])
        #expect(try paths(vault, ["search", "🔥"] + sorted) == ["fire.md", "takes.md"])
        #expect(try paths(vault, ["list", "title:🔥"] + sorted) == ["fire.md", "takes.md"])
        #expect(try paths(vault, ["list", "title:\"🔥🔥🔥\""]) == ["fire.md"])
        #expect(try paths(vault, ["list", "❤️"]) == ["takes.md"])
        #expect(try paths(vault, ["list", "€"]) == ["takes.md"])
        #expect(try paths(vault, ["list", "#🚀"]) == ["takes.md"])
        #expect(try paths(vault, ["search", "C++"]) == ["takes.md"])
        #expect(try paths(vault, ["search", "C#"]) == ["takes.md"])
        #expect(try paths(vault, ["search", "c"]) == ["plain.md"])
        // `.NET` as written finds ".NET", not "the net"; the bare word finds both.
        #expect(try paths(vault, ["search", ".NET"] + sorted) == ["dotnet.md"])
        #expect(try paths(vault, ["search", "net"] + sorted) == ["dotnet.md", "plain.md"])
        #expect(try paths(vault, ["search", "node.js"] + sorted) == ["dotnet.md", "plain.md"])
        let json = try vault.run(["search", "🔥🔥🔥", "--json"])
        #expect(json.code == 0)
        #expect(json.stdout.contains("\"path\":\"fire.md\"") || json.stdout.contains("\"path\": \"fire.md\""))
    }

    @Test func aQueryWithNothingToSearchForIsAUsageError() throws {
        let vault = try TestVault()
        try vault.write(noteText("title: Anything", body: "Some text!!! ...\n"), to: "a.md")
        for command in ["list", "search"] {
            for query in ["*", "", "   ", "!!!", "—", "@", "...", "title:!!!", "title:\"...\""] {
                let run = try vault.run([command, query])
                #expect(run.code == 2, "\(command) \(query)")
                #expect(run.stdout == "", "\(command) \(query)")
                #expect(run.stderr.hasPrefix("quire: error: bad query: "), "\(command) \(query)")
                #expect(run.stderr.contains("\nhint: look for a word, a symbol such as an emoji, or a filter"))
            }
        }
        #expect(try paths(vault, ["list"]) == ["a.md"])
        #expect(try paths(vault, ["list", "text !!!"]) == ["a.md"])
    }
}

extension QueryEdgeTests {
    @Test func exactTitleAndAliasFirstThenTitlePrefix() throws {
        let vault = try TestVault()
        try vault.write(noteText("title: Weekly notes", body: "Vim vim vim, vim tricks and vim.\n"), to: "a-body.md")
        try vault.write(noteText("title: Vim tricks and more", body: "Macros. " + String(repeating: "filler ", count: 300) + "\n"),
                        to: "b-prefix.md")
        try vault.write(noteText("title: Vim", body: String(repeating: "filler ", count: 300) + "\n"), to: "c-exact.md")
        try vault.write(noteText("title: Editor\naliases: [Vim tricks]", body: "About an editor.\n"), to: "d-alias.md")
        // The alias "Vim tricks" starts with "vim" too: a prefix, as the title "Vim tricks and more".
        let vim = try paths(vault, ["search", "vim"])
        #expect(vim.first == "c-exact.md")
        #expect(Set(vim.dropFirst().prefix(2)) == ["b-prefix.md", "d-alias.md"])
        #expect(vim.last == "a-body.md")
        #expect(try paths(vault, ["search", "vim tricks"]) == ["d-alias.md", "b-prefix.md", "a-body.md"])
        #expect(try paths(vault, ["search", "vim", "--reverse"]) == vim.reversed())
        #expect(try paths(vault, ["search", "vim", "--limit", "1"]) == ["c-exact.md"])
    }
}
