import Foundation
import Testing
@testable import QuireCore

@Suite("Edit distance and NOTE names")
struct EditDistanceTests {
    @Test func levenshtein() {
        #expect(EditDistance.between("kitten", "sitting") == 3)
        #expect(EditDistance.between("", "abc") == 3)
        #expect(EditDistance.between("serch", "search") == 1)
        #expect(EditDistance.between("café", "cafe") == 1)
    }

    @Test func closestNamesNearestFirst() {
        let names = ["search", "sync", "set", "show", "status", "stats"]
        #expect(EditDistance.closest(to: "serch", among: names) == ["search"])
        #expect(EditDistance.closest(to: "Stat", among: names) == ["stats", "set", "status"])
        #expect(EditDistance.closest(to: "zzzzzzzz", among: names) == [])
        #expect(EditDistance.closest(to: "  ", among: names) == [])
    }

    @Test func aliasesAndFileNamesNameNotes() throws {
        let temp = try TemporaryDirectory()
        try temp.mkdir("v/.quire")
        try temp.write("v/Areas/road-map.md", "---\ntitle: Plans for 2027\naliases: [Roadmap, The plan]\n---\n")
        try temp.write("v/Reading list.md", "# Books\n")
        let vault = try Vault(at: temp.url.appendingPathComponent("v"))
        let notes = try vault.notePaths().map { try vault.readNote(path: $0) }
        let resolver = NoteResolver(vault: vault, notes: notes, currentDirectory: vault.root)
        #expect(try resolver.resolve("roadmap").path == "Areas/road-map.md")
        #expect(try resolver.resolve("THE PLAN").path == "Areas/road-map.md")
        #expect(try resolver.resolve("road-map").path == "Areas/road-map.md")
        #expect(try resolver.resolve("road-map.md").path == "Areas/road-map.md")
        #expect(try resolver.resolve("reading list").path == "Reading list.md")
        #expect(throws: CoreError.noteNotFound(query: "roadmop")) { try resolver.resolve("roadmop") }
        #expect(resolver.suggestions(for: "roadmop") == ["Roadmap", "road-map"])
        #expect(resolver.suggestions(for: "readng lst") == ["Reading list"])
    }
}
