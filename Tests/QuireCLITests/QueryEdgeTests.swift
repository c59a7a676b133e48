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
