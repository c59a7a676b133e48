import Foundation
import Testing
@testable import QuireCore

/// Counting eight ASCII bytes at a time must give the count of the byte-by-byte definition.
struct WordCounterTests {
    static func bothWays(_ bytes: [UInt8]) -> (eight: Int, single: Int) {
        bytes.withUnsafeBufferPointer {
            (WordCounter.count(utf8: $0, eightAtATime: true), WordCounter.count(utf8: $0, eightAtATime: false))
        }
    }

    /// Every ASCII byte, between letters, at every offset of an eight-byte chunk.
    @Test func everyASCIIByteSeparatesOrJoinsAsBefore() {
        for byte in UInt8(0)..<0x80 {
            for offset in 0..<9 {
                let bytes = Array(repeating: UInt8(ascii: "a"), count: offset) + [byte] + Array("bc de".utf8)
                    + Array(repeating: byte, count: 9) + Array("Xy".utf8)
                let (eight, single) = Self.bothWays(bytes)
                #expect(eight == single, "byte \(byte) at \(offset)")
            }
        }
        #expect(Self.bothWays(Array("abcdefgh ijklmnop qr".utf8)) == (3, 3))
        #expect(Self.bothWays(Array("a1 B2 c3 D4 @[`{ /:z".utf8)) == (5, 5))
    }

    /// Random mixes of ASCII, Latin, CJK, Hangul, combining marks and invalid bytes, where
    /// words cross chunk borders and chunks fall back to scalars.
    @Test func mixedTextCountsTheSameBothWays() {
        let pieces: [[UInt8]] = ["a", "Z", "7", "word", "Longer", " ", "\n", ",", "-", "_", "@", "[", "`", "{",
                                 "é", "Ü", "naïve", "e\u{301}", "日本", "テキスト", "한국", "—", "\u{3000}",
                                 "ß", "Ω", "٣", "x\u{200B}y"].map { Array($0.utf8) }
            + [[0xFF], [0xC3], [0xE6, 0x97], [0x12], [0x19], [0x7F]]
        var random = SystemRandomNumberGenerator()
        for _ in 0..<3000 {
            var bytes: [UInt8] = []
            for _ in 0..<Int.random(in: 0...40, using: &random) {
                bytes += pieces.randomElement(using: &random) ?? []
            }
            let (eight, single) = Self.bothWays(bytes)
            #expect(eight == single, "\(bytes)")
        }
    }
}

/// Words a person reads: no code blocks, link targets, autolinks or data URLs.
@Suite struct ReadableWordTests {
    static func readable(_ text: String) -> Int {
        var text = text
        return text.withUTF8 { WordCounter.countReadable(utf8: $0) }
    }

    @Test func skipsWhatNoOneReads() {
        #expect(Self.readable("one two three\n") == 3)
        #expect(Self.readable("Intro words.\n```swift\nlet x = compute(a, b)\n```\nAfter.\n") == 3)
        #expect(Self.readable("See [the docs](https://example.com/a/b-c/d?e=f(g)) now.\n") == 4)
        #expect(Self.readable("![A cat](data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAAB) done\n") == 3)
        #expect(Self.readable("<img src=\"data:image/png;base64,QUJDREVGR0hJSktMTU5PUA==\"> pic\n") == 3)
        #expect(Self.readable("Mail <mailto:a@b.c> or <https://x.y/z>, bye\n") == 3)
        #expect(Self.readable("metadata: stays words\n") == 3)
        #expect(Self.readable("~~~\nunclosed fence hides the rest\n") == 0)
    }

    /// The runs no one reads are found at every offset of an eight-byte chunk (the search for
    /// their first byte goes eight at a time), in capitals too, and near a line's end.
    @Test func skippedRunsAreFoundAtEveryOffset() {
        for padding in 0..<17 {
            let lead = String(repeating: "a", count: padding)
            let extra = padding > 0 ? 1 : 0  // the lead is a word
            #expect(Self.readable("\(lead) See [the docs](https://example.com/a) now.\n") == 4 + extra, "\(padding)")
            #expect(Self.readable("\(lead) mail <MAILTO:a@b.c> or <HTTPS://x.y/z>, bye\n") == 3 + extra, "\(padding)")
            #expect(Self.readable("\(lead) pic DATA:image/png;base64,QUJD done\n") == 2 + extra, "\(padding)")
            #expect(Self.readable("\(lead) tail [x](y\nnext line words\n") == 5 + extra, "\(padding)")
            #expect(Self.readable("\(lead)} {d] <d dd\n") == 3 + extra, "\(padding)")
        }
    }

    @Test func aNoteWithAnEmbeddedImageReadsInAMinute() {
        let image = String(repeating: "QUJDREVGR0hJSktMTU5PUFFSU1RVVldYWVo+/", count: 50_000)
        let note = NoteParser.parse(Data("---\ntitle: Pic\n---\nA photo:\n![x](data:image/png;base64,\(image))\n".utf8), path: "p.md")
        #expect(note.words == 3)
        let plain = NoteParser.parse(Data("A photo:\n<img src=\"data:image/png;base64,\(image)\">\n".utf8), path: "q.md")
        #expect(plain.words == 4)
    }

    /// A data URL looked for at each `:` (four bytes back) gives the count of looking for it at
    /// each `d`: random lines of `data:` in both cases and cut short, `metadata:`, colons,
    /// link targets, autolinks, brackets and words not in ASCII, at every offset of a chunk.
    @Test func dataURLsFoundByTheirColonCountAsByTheirD() {
        let pieces = ["data:", "DATA:", "Data:", "d", "D", "ata:", "ata", ":", "::", "metadata:", "xdata:", "1data:",
                      "](", ")", "(", "<http", "<mailto:", ">", "[", "]", " ", "\t", "a", "word", "é", "日本", "\"",
                      "'", "`", "/", ",", "\u{1A}", "}"]
        var random = SystemRandomNumberGenerator()
        for _ in 0..<20_000 {
            var text = ""
            for _ in 0..<Int.random(in: 0...24, using: &random) { text += pieces.randomElement(using: &random) ?? "" }
            let bytes = Array(text.utf8)
            let (byColon, byD) = bytes.withUnsafeBufferPointer { buffer in
                (WordCounter.countReadable(buffer, line: 0..<buffer.count, byColon: true),
                 WordCounter.countReadable(buffer, line: 0..<buffer.count, byColon: false))
            }
            #expect(byColon == byD, "\(text.debugDescription)")
        }
    }
}
