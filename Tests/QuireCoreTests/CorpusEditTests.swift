import Foundation
import Testing
@testable import QuireCore

/// Edits over every real-world note in /work/shared/corpora (skipped when absent).
@Suite struct CorpusEditTests {
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
