import Foundation
import Testing
import QuireCore

/// The one stamping rule (`NoteStamp`), as `quire edit`, `quire restore` and the sync apply it.
@Suite("NoteStamp: when updatedAt is stamped")
struct NoteStampTests {
    let time = Date(timeIntervalSince1970: 1_795_000_000)  // 2026-11-18T11:06:40Z
    let original = Data("---\nid: a1\ntitle: T\nupdatedAt: 2026-01-01T00:00:00Z\n---\nBody.\n".utf8)

    func text(_ data: Data?) -> String? { data.map { String(decoding: $0, as: UTF8.self) } }

    @Test func aRealEditIsStampedInPlace() throws {
        let edited = Data("---\nid: a1\ntitle: T\nupdatedAt: 2026-01-01T00:00:00Z\n---\nBody, edited.\n".utf8)
        let stamped = try NoteStamp.stampingEdit(edited, original: original, path: "n.md", at: time)
        #expect(text(stamped) == "---\nid: a1\ntitle: T\nupdatedAt: 2026-11-18T11:06:40Z\n---\nBody, edited.\n")
    }

    @Test func noStampWhenNothingChangedOrTheUserSetUpdatedAt() throws {
        #expect(try NoteStamp.stampingEdit(original, original: original, path: "n.md", at: time) == nil)
        let own = Data("---\nid: a1\ntitle: T\nupdatedAt: 2026-05-05T00:00:00Z\n---\nBody, edited.\n".utf8)
        #expect(try NoteStamp.stampingEdit(own, original: original, path: "n.md", at: time) == nil)
    }

    @Test func noStampForAnotherNoteUnreadableOrNonYAMLFrontMatter() throws {
        let other = Data("---\nid: b2\ntitle: T\nupdatedAt: 2026-01-01T00:00:00Z\n---\nOther.\n".utf8)
        #expect(try NoteStamp.stampingEdit(other, original: original, path: "n.md", at: time) == nil)
        let broken = Data("---\ntitle: [unclosed\n---\nBody.\n".utf8)
        #expect(try NoteStamp.stampingEdit(broken, original: original, path: "n.md", at: time) == nil)
        let toml = Data("+++\ntitle = \"T\"\n+++\nBody, edited.\n".utf8)
        #expect(try NoteStamp.stampingEdit(toml, original: original, path: "n.md", at: time) == nil)
    }

    @Test func aReplacementIsAlwaysStampedWhenItsFrontMatterIsEditableYAML() throws {
        #expect(text(try NoteStamp.stampingReplacement(original, at: time))
                == "---\nid: a1\ntitle: T\nupdatedAt: 2026-11-18T11:06:40Z\n---\nBody.\n")
        let toml = Data("+++\ntitle = \"T\"\n+++\nBody.\n".utf8)
        #expect(try NoteStamp.stampingReplacement(toml, at: time) == toml)
    }
}
