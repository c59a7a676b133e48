import Foundation
import Testing
@testable import QuireSearch

/// Found by the hostile vault test (Tests/QuireCLITests/HostileVaultTests.swift): `quire search`
/// on a vault holding a 50 MB note took about a minute, because every hit's snippet tokenised
/// the whole body. A snippet now looks at the first `Snippet.maxBodyBytes` only.
@Suite struct HugeNoteRegressionTests {
    static let query: NoteQuery = {
        (try? NoteQuery.parse("needle", now: Date(timeIntervalSince1970: 1_790_000_000))) ?? NoteQuery(root: .all)
    }()

    @Test func snippetOfAHugeBodyLooksAtItsBeginningOnly() {
        let filler = String(repeating: "filler words here\n", count: (8 << 20) / 18)
        let early = Snippet.make(body: "intro needle outro\n" + filler, query: Self.query)
        #expect(early.text.hasPrefix("intro needle outro filler"))
        #expect(early.highlights.map { String(early.text[$0]) } == ["needle"])
        let late = Snippet.make(body: filler + "needle\n", query: Self.query)
        #expect(late.text.hasPrefix("filler words here"))
        #expect(late.highlights.isEmpty)
    }

    @Test func snippetOfASmallBodyIsUnchanged() {
        let snippet = Snippet.make(body: "one two\nthree needle four", query: Self.query)
        #expect(snippet.text == "one two three needle four")
        #expect(snippet.highlights.map { String(snippet.text[$0]) } == ["needle"])
    }
}
