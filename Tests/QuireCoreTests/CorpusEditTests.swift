import Foundation
import Testing
@testable import QuireCore

/// Edits over every real-world note in Tests/Corpora.
@Suite(.enabled(if: TestSupport.hasCorpora, TestSupport.corporaMissing)) struct CorpusEditTests {
    let files = TestSupport.markdownFiles(under: TestSupport.corpora)

    @Test func addThenRemoveIsIdentity() throws {
        for file in files {
            let data = try Data(contentsOf: file)
            var document = NoteDocument(data: data)
            guard document.isEditable else { continue }
            try document.set("quireCheck", .string("value: with colon"))
            #expect(document.value(forKey: "quireCheck") == .string("value: with colon"), "\(file.path)")
            try document.remove("quireCheck")
            // A note without front matter keeps the (now empty) front matter it was given.
            let expected = NoteDocument(data: data).format == .none ? Data("---\n---\n".utf8) + data : data
            #expect(document.serialized() == expected, "\(file.path)")
        }
    }

    @Test func removingAKeyKeepsEveryOtherValue() throws {
        for (original, entry) in try editableEntries() {
            var document = original
            try document.remove(entry.key)
            let expected = original.frontMatter.filter { $0.key != entry.key }
            #expect(document.frontMatter == expected, "\(entry.key)")
            #expect(document.body == original.body)
        }
    }

    @Test func settingEachKeyChangesOnlyThatKey() throws {
        for (original, entry) in try editableEntries() {
            var document = original
            try document.set(entry.key, .list([.string("x"), .int(1)]))
            let expected = original.frontMatter.map {
                $0.key == entry.key ? FrontMatterEntry(key: $0.key, value: .list([.string("x"), .int(1)])) : $0
            }
            #expect(document.frontMatter == expected, "\(entry.key)")
            #expect(document.body == original.body)
        }
    }

    /// Each top-level entry of every third editable YAML note, with its document.
    private func editableEntries() throws -> [(NoteDocument, FrontMatterEntry)] {
        try files.enumerated().filter { $0.offset % 3 == 0 }.map(\.element).flatMap { file -> [(NoteDocument, FrontMatterEntry)] in
            let document = NoteDocument(data: try Data(contentsOf: file))
            guard document.isEditable, document.format == .yaml else { return [] }
            return document.frontMatter.map { (document, $0) }
        }
    }

    @Test func dendronUpdatedStaysEpochMilliseconds() throws {
        let dendron = files.filter { $0.path.contains("dendron-site") }
        let when = TestSupport.date(2026, 7, 1, 12, 30, 45)
        for file in dendron.prefix(200) {
            var document = NoteDocument(data: try Data(contentsOf: file))
            guard case .int? = document.value(forKey: "updated") else { continue }
            try document.setUpdatedAt(when)
            #expect(document.value(forKey: "updated") == .int(1_782_909_045_000), "\(file.path)")
            #expect(document.value(forKey: "updatedAt") == nil)
        }
    }
}

/// Known values from specific real-world notes.
@Suite(.enabled(if: TestSupport.hasCorpora, TestSupport.corporaMissing)) struct CorpusValueTests {
    private func note(_ path: String) throws -> Note {
        let url = TestSupport.corpora.appendingPathComponent(path)
        return NoteParser.parse(try Data(contentsOf: url), path: path, timeZone: TestSupport.utc)
    }

    @Test func hugoMultiLineFlowListAndComments() throws {
        let types = try note("hugo-docs/content/en/templates/types.md")
        #expect(types.aliases.count == 9)
        #expect(types.aliases.first == "/templates/base/")
        #expect(types.value(forKey: "weight") == .int(30))
        let scratch = try note("hugo-docs/content/en/methods/page/Scratch.md")
        #expect(scratch.value(forKey: "expiryDate") == .date(TestSupport.date(2026, 11, 18), text: "2026-11-18"))
        #expect(scratch.value(forKey: "params") == .map([FrontMatterEntry(key: "functions_and_methods", value: .map([
            FrontMatterEntry(key: "returnType", value: .string("maps.Scratch")),
            FrontMatterEntry(key: "signatures", value: .list([.string("PAGE.Scratch")])),
        ]))]))
        var document = NoteDocument(data: try Data(contentsOf: TestSupport.corpora
            .appendingPathComponent("hugo-docs/content/en/methods/page/Scratch.md")), timeZone: TestSupport.utc)
        try document.set("expiryDate", .date(TestSupport.date(2027, 1, 2), text: "2027-01-02"))
        #expect(document.lines(forKey: "expiryDate") == "expiryDate: 2027-01-02 # deprecated 2024-11-18 (soft)\n")
    }

    @Test func dendronNote() throws {
        let careers = try note("dendron-site/vault/careers.md")
        #expect(careers.id == "c378b702-7d49-4e91-be6e-b2078103c86e")
        #expect(careers.title == "Careers")
        #expect(careers.updatedAt == Date(timeIntervalSince1970: 1636510026.672))
        #expect(careers.createdAt == Date(timeIntervalSince1970: 1616983302.480))
        #expect(careers.problems.isEmpty)
    }
}
