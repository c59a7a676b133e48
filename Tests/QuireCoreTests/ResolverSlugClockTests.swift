import Foundation
import Testing
@testable import QuireCore

@Suite struct ResolverSlugClockTests {
    @Test func slugs() {
        #expect(Slug.fileName(forTitle: "Woody's Last Ride!") == "woodys-last-ride.md")
        #expect(Slug.fileName(forTitle: "Café Crème / Déjà-vu") == "café-crème-déjà-vu.md")
        #expect(Slug.fileName(forTitle: "日本語 ノート") == "日本語-ノート.md")
        #expect(Slug.fileName(forTitle: "../../etc/passwd") == "etc-passwd.md")
        #expect(Slug.fileName(forTitle: ".hidden") == "hidden.md")
        #expect(Slug.fileName(forTitle: "!!!") == "untitled.md")
        #expect(Slug.fileName(forTitle: "") == "untitled.md")
        #expect(Slug.fileName(forTitle: "Cafe\u{301}") == "café.md")
        let long = Slug.slug(forTitle: String(repeating: "é", count: 100))
        #expect(long.utf8.count == 80)
        #expect(FreeFileName.first(stem: "a", ext: ".md", taken: ["a.md", "a-2.md"]) == "a-3.md")
        #expect(FreeFileName.first("photo.png", taken: ["photo.png"]) == "photo-2.png")
        #expect(FreeFileName.first(".hidden", taken: [".hidden"]) == ".hidden-2")
    }

    @Test func clock() throws {
        let fixed = try QuireClock.now(environment: ["QUIRE_NOW": "2026-03-04T05:06:07Z"])
        #expect(fixed == TestSupport.date(2026, 3, 4, 5, 6, 7))
        #expect(throws: CoreError.invalidTime(text: "soon")) { try QuireClock.now(environment: ["QUIRE_NOW": "soon"]) }
        #expect(abs(try QuireClock.now(environment: [:]).timeIntervalSinceNow) < 5)
        #expect(QuireClock.iso8601(fixed, timeZone: TestSupport.berlin) == "2026-03-04T06:06:07+01:00")
        #expect(QuireClock.iso8601UTC(fixed) == "2026-03-04T05:06:07Z")
        #expect(QuireClock.compactUTC(fixed) == "20260304T050607Z")
        #expect(QuireClock.day(fixed, timeZone: TestSupport.berlin) == "2026-03-04")
    }

    /// A value the user wrote is echoed in its own offset; without one, in the local zone.
    @Test func writtenOffsetsAreKept() throws {
        let fixed = TestSupport.date(2026, 3, 4, 5, 6, 7)
        #expect(QuireClock.iso8601(fixed, writtenAs: "2026-03-04T07:06:07+02:00", timeZone: TestSupport.berlin)
                == "2026-03-04T07:06:07+02:00")
        #expect(QuireClock.iso8601(fixed, writtenAs: "2026-03-04 00:06:07 -0500", timeZone: TestSupport.berlin)
                == "2026-03-04T00:06:07-05:00")
        #expect(QuireClock.iso8601(fixed, writtenAs: "2026-03-04T05:06:07.250Z", timeZone: TestSupport.berlin)
                == "2026-03-04T05:06:07Z")
        #expect(QuireClock.iso8601(fixed, writtenAs: "2026-03-04 06:06", timeZone: TestSupport.berlin)
                == "2026-03-04T06:06:07+01:00")
        #expect(QuireClock.iso8601(fixed, writtenAs: nil, timeZone: TestSupport.berlin) == "2026-03-04T06:06:07+01:00")
        #expect(QuireClock.iso8601(fixed, writtenAs: "1772600767", timeZone: TestSupport.berlin) == "2026-03-04T06:06:07+01:00")
    }

    private func fixture() throws -> (TemporaryDirectory, Vault, [Note]) {
        let temp = try TemporaryDirectory()
        try temp.mkdir("v/.quire")
        try temp.write("v/Drafts/woody.md", "---\nid: aaaa1111-0000\ntitle: Woody\n---\n")
        try temp.write("v/buzz.md", "---\nid: aaaa2222-0000\ntitle: Buzz\n---\n")
        try temp.write("v/jessie.md", "---\nid: bbbb3333-0000\ntitle: woody\n---\n")
        try temp.write("v/solo.md", "---\nid: cccc4444-0000\ntitle: aaaa2222-0000\n---\n")
        let vault = try Vault(at: temp.url.appendingPathComponent("v"))
        let notes = try vault.notePaths().map { try vault.readNote(path: $0) }
        return (temp, vault, notes)
    }

    @Test func resolverOrder() throws {
        let (temp, vault, notes) = try fixture()
        let atRoot = NoteResolver(vault: vault, notes: notes, currentDirectory: vault.root)
        let inDrafts = NoteResolver(vault: vault, notes: notes, currentDirectory: vault.url(for: "Drafts"))
        #expect(try inDrafts.resolve("woody.md").path == "Drafts/woody.md")
        #expect(try inDrafts.resolve("../buzz.md").path == "buzz.md")
        #expect(try inDrafts.resolve("Drafts/woody.md").path == "Drafts/woody.md")
        #expect(try atRoot.resolve(vault.root.path + "/buzz.md").path == "buzz.md")
        #expect(try atRoot.resolve("aaaa2222-0000").path == "buzz.md")
        #expect(try atRoot.resolve("BUZZ").path == "buzz.md")
        #expect(try atRoot.resolve("bbbb").path == "jessie.md")
        #expect(throws: CoreError.ambiguousNote(query: "woody", candidates: ["Drafts/woody.md", "jessie.md"])) {
            try atRoot.resolve("woody")
        }
        #expect(throws: CoreError.ambiguousNote(query: "aaaa", candidates: ["Drafts/woody.md", "buzz.md"])) {
            try atRoot.resolve("aaaa")
        }
        #expect(throws: CoreError.noteNotFound(query: "bbb")) { try atRoot.resolve("bbb") }
        #expect(throws: CoreError.noteNotFound(query: "nothing")) { try atRoot.resolve("nothing") }
        try temp.write("outside.md", "x")
        #expect(throws: CoreError.self) { try atRoot.resolve("../outside.md") }
    }
}

@Suite struct NoteIDTests {
    @Test func generatesLowercaseUUIDs() {
        let id = NoteID.generate()
        #expect(id == id.lowercased())
        #expect(NoteID.isUUID(id))
        #expect(NoteID.generate() != id)
        #expect(NoteID.isUUID("C378B702-7D49-4E91-BE6E-B2078103C86E"))
        #expect(!NoteID.isUUID("c378b702-7d49-4e91-be6e-b2078103c86"))
        #expect(!NoteID.isUUID("c378b702x7d49-4e91-be6e-b2078103c86e"))
        #expect(!NoteID.isUUID("g378b702-7d49-4e91-be6e-b2078103c86e"))
    }
}
