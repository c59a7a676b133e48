import Foundation
import QuireCore
import QuireTestSupport
import Testing
@testable import QuireSearch

/// A slice takes a note's tokens straight from the tokenizer (ASCII words copied into its
/// batch, lowercased on the way when they have capitals); the segment must be the one built
/// from the same notes' `TokenStream`s, which fold every token with `Tokenizer.appendFolded`.
struct SliceTokenTests {
    /// Random text of ASCII words in every case, digits, `C++`/`.NET` shapes, accented and
    /// other non-Latin letters, CJK, symbols, punctuation and, now and then, a word longer
    /// than a batch's first room.
    static func text(_ random: inout SeededGenerator) -> String {
        let pieces = ["Alpha", "beta", "GAMMA", "dElTa", "x", "Q", "42", "7b", "C++", "c#", ".NET", "~/.Config",
                      "Café", "ÉCOLE", "straße", "ǅemal", "Ωμέγα", "МОСКВА", "東京", "カタカナ", "한국", "€", "→",
                      "❤️", "ภาษาไทย", ",", ".", " - ", "(", ")", "\n", "  ", "**Bold**", "`code`", "a_b", "Mixed123Case"]
        var text = ""
        for _ in 0..<Int.random(in: 5...60, using: &random) {
            if Int.random(in: 0..<200, using: &random) == 0 {
                let letters = (0..<Int.random(in: 900...3000, using: &random)).map { _ in
                    Character(Unicode.Scalar(UInt8.random(in: 0x41...0x5A, using: &random) | (Bool.random(using: &random) ? 0x20 : 0)))
                }
                text += String(letters)
            } else {
                text += pieces[Int.random(in: 0..<pieces.count, using: &random)]
            }
            text += Bool.random(using: &random) ? " " : ""
        }
        return text
    }

    @Test func aSliceFoldsTokensAsATokenStreamDoes() {
        var random = SeededGenerator(seed: 35)
        let notes = (0..<400).map { index in
            Note(path: String(format: "n%04d.md", index), title: Self.text(&random), tags: ["Tag\(index % 7)"],
                 body: Self.text(&random))
        }
        var slices = SegmentBuilderTests.slices(of: notes, size: 150)
        let direct = SegmentBuilder.build(slices: &slices)
        let streamed = SegmentBuilder.build(notes: notes.map(AnalyzedNote.init(note:)), slices: 3)
        #expect(direct.terms.count > 500)
        SegmentBuilderTests.expectSame(direct, streamed)
    }
}
