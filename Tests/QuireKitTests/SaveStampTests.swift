import Foundation
import Testing
import QuireCore
@testable import QuireKit

/// Stamping at save (the language server's willSaveWaitUntil): NoteStamp's rule for an edited
/// note, id and dates for a new one, nothing otherwise.
@Suite struct SaveStampTests {
    let now = Date(timeIntervalSince1970: 1_795_953_600)  // 2026-11-29T12:00:00Z
    let utc = TimeZone(identifier: "UTC") ?? .current

    @Test func anEditedNoteGetsUpdatedAtInItsOwnKeyAndForm() throws {
        let disk = Data("---\ntitle: A # c\nmodified: 2026-01-02 10:00\n---\nold\n".utf8)
        let buffer = Data("---\ntitle: A # c\nmodified: 2026-01-02 10:00\n---\nnew\n".utf8)
        let saved = try SaveStamp.stamped(buffer: buffer, onDisk: disk, path: "a.md", now: now, timeZone: utc)
        #expect(saved.map { String(decoding: $0, as: UTF8.self) } == "---\ntitle: A # c\nmodified: 2026-11-29 12:00\n---\nnew\n")
        // Saved unchanged, or with updatedAt changed by the user: nothing.
        #expect(try SaveStamp.stamped(buffer: disk, onDisk: disk, path: "a.md", now: now) == nil)
        let own = Data("---\ntitle: A # c\nmodified: 2026-05-05 10:00\n---\nnew\n".utf8)
        #expect(try SaveStamp.stamped(buffer: own, onDisk: disk, path: "a.md", now: now) == nil)
        // Unreadable front matter is never touched.
        let broken = Data("---\ntitle: [\n---\nnew\n".utf8)
        #expect(try SaveStamp.stamped(buffer: broken, onDisk: disk, path: "a.md", now: now) == nil)
    }

    @Test func aNewNoteGetsIdCreatedAtAndUpdatedAt() throws {
        let saved = try SaveStamp.stamped(buffer: Data("# Idea\n".utf8), onDisk: nil, path: "idea.md", now: now,
                                          timeZone: utc, newID: { "0b7f2a4e-1c2d-4e5f-8a9b-0c1d2e3f4a5b" })
        #expect(saved.map { String(decoding: $0, as: UTF8.self) }
            == "---\nid: 0b7f2a4e-1c2d-4e5f-8a9b-0c1d2e3f4a5b\ncreatedAt: 2026-11-29T12:00:00+00:00\nupdatedAt: 2026-11-29T12:00:00+00:00\n---\n# Idea\n")
        // Keys it already has are kept; TOML is never edited.
        let own = Data("---\nid: x\ncreated: 2020-01-01\nupdatedAt: 2021-01-01T00:00:00Z\n---\n".utf8)
        #expect(try SaveStamp.stamped(buffer: own, onDisk: Data(), path: "n.md", now: now) == nil)
        #expect(try SaveStamp.stamped(buffer: Data("+++\ntitle = \"t\"\n+++\n".utf8), onDisk: nil, path: "t.md", now: now) == nil)
    }
}
