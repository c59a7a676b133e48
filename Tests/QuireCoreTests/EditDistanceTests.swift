import Foundation
import Testing
import QuireTestSupport
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

    /// NearNames (folded once, pairs indexed, distances cut short) answers what the plain
    /// comparison of every name answers, over random names: ASCII and not, cases, accents,
    /// outer blanks, CR LF, shared beginnings, empty names, queries no name is near.
    @Test func nearNamesAnswerWhatComparingEveryNameAnswers() {
        var random = SeededGenerator(seed: 35)
        let pieces = ["a", "b", "ab", "ba", "Ab", "é", "E\u{301}", "ø", "ß", "中", "🙂", " ", "\t", "\r\n", "-", "x", "yz", "Road", "map", "ñ"]
        func name() -> String {
            (0..<Int.random(in: 0...9, using: &random)).map { _ in pieces.randomElement(using: &random) ?? "" }.joined()
        }
        for round in 0..<60 {
            let names = (0..<Int.random(in: 0...80, using: &random)).map { _ in name() }
            let near = NearNames(names)
            let queries = (0..<12).map { index in index.isMultiple(of: 3) && !names.isEmpty ? names[index % names.count] + "z" : name() }
            let answers = near.closest(to: queries, limit: 4)
            for (query, answer) in zip(queries, answers) {
                #expect(answer == EditDistance.closest(to: query, among: names, limit: 4), "round \(round), query \(query.debugDescription)")
                #expect(near.closest(to: query, limit: 2) == Array(answer.prefix(2)))
                #expect(NearNames.closest(to: query, among: names, limit: 4) == answer, "one query, round \(round)")
            }
        }
    }

    /// Partial matching folds an ASCII title by lowercasing it: what Foundation's folding
    /// (case and accents) gives for every ASCII character, controls and symbols included.
    @Test func asciiTitlesFoldAsFoundationFoldsThem() {
        var random = SeededGenerator(seed: 37)
        let all = (0..<128).map { String(UnicodeScalar(UInt8($0))) }
        for _ in 0..<2_000 {
            let text = (0..<Int.random(in: 0...24, using: &random)).map { _ in all.randomElement(using: &random) ?? "" }.joined()
            #expect(NoteResolver.fold(text) == text.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil),
                    "\(text.debugDescription)")
        }
        #expect(NoteResolver.fold("Crème BRÛLÉE") == "creme brulee")
    }

    /// Long names over few letters share most of their pairs of characters, so the commonest
    /// pairs' names are left unread (`NearNames.candidates`): the answers are still those of
    /// comparing every name, for queries a few edits from a name (within the allowed distance
    /// and just past it), repeated pairs included.
    @Test func nearNamesLeaveTheCommonestPairsUnreadWithoutMissingAName() {
        var random = SeededGenerator(seed: 36)
        let letters = Array("abcaab é")
        func name(_ length: Int) -> String { String((0..<length).map { _ in letters.randomElement(using: &random) ?? "a" }) }
        func edited(_ name: String, _ edits: Int) -> String {
            var characters = Array(name)
            for _ in 0..<edits {
                let at = Int.random(in: 0...characters.count, using: &random)
                switch Int.random(in: 0..<3, using: &random) {
                case 0: characters.insert(letters.randomElement(using: &random) ?? "b", at: at)
                case 1 where at < characters.count: characters.remove(at: at)
                default: if at < characters.count { characters[at] = letters.randomElement(using: &random) ?? "c" }
                }
            }
            return String(characters)
        }
        for round in 0..<40 {
            let names = (0..<Int.random(in: 20...300, using: &random)).map { _ in name(Int.random(in: 6...24, using: &random)) }
            let near = NearNames(names)
            let queries = (0..<16).map { _ in
                edited(names.randomElement(using: &random) ?? "", Int.random(in: 0...9, using: &random))
            }
            for (query, answer) in zip(queries, near.closest(to: queries, limit: 5)) {
                #expect(answer == EditDistance.closest(to: query, among: names, limit: 5), "round \(round), query \(query.debugDescription)")
                #expect(NearNames.closest(to: query, among: names, limit: 5) == answer, "one query, round \(round)")
            }
        }
    }
}
