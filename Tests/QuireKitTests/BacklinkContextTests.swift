import Foundation
import QuireCore
@testable import QuireKit
import Testing

/// A backlink's line and context cut by bytes (`NoteLines`, `LineContext`) are the text the
/// character-by-character way (Foundation's, `VaultLinks.unicodeContext`) gives.
@Suite struct BacklinkContextTests {
    /// A random generator the tests can repeat.
    struct Lines {
        var state: UInt64
        mutating func random(_ bound: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int(state >> 33) % bound
        }
        mutating func line(_ pieces: [String]) -> String {
            (0..<random(81)).map { _ in pieces[random(pieces.count)] }.joined()
        }
    }

    @Test func asciiLinesGiveTheSameContextAsFoundation() {
        var lines = Lines(state: 35)
        let pieces = ["word", "Target", "TARGET", "target", " ", "  ", "\t", "[[Target|label]]", "x", "\u{0B}", "!", "tar", "\r"]
        for _ in 0..<2_000 {
            let line = lines.line(pieces)
            let focus = ["target", "Target", "", "label", "nowhere", "T"][lines.random(6)]
            #expect(VaultLinks.context(line, around: focus) == VaultLinks.unicodeContext(line, around: focus),
                    "\(line.debugDescription) around \(focus)")
        }
    }

    /// Lines with accents, combining marks, CJK, emoji (with joiners and modifiers), Unicode
    /// spaces and line breaks at either end or around the link, case-folding letters (ß, ﬁ,
    /// the Kelvin sign), a focus that is not ASCII, and invalid UTF-8.
    @Test func anyLineGivesTheSameContextAsFoundation() {
        var lines = Lines(state: 135)
        let pieces = ["word", "Target", "target", " ", "\t", "[[Target|label]]", "café", "cafe\u{301}", "\u{301}", "naïve",
                      "学习", "한국어", "メモ", "👍🏽", "👩‍👩‍👧", "🇫🇷", "\u{A0}", "\u{3000}", "\u{2028}", "\u{85}", "\u{200B}",
                      "\u{AD}", "ß", "ﬁ", "\u{212A}", "İ", "\r", "\r\n", "Ω", "TARGET", "é", "x", "ǰ", "\u{200D}", "\u{1680}", "\u{2009}", "\u{202F}", "\u{205F}", "\u{2029}"]
        let foci = ["target", "Target", "", "label", "nowhere", "T", "café", "学习", "k", "ss", "fi", "e", "i"]
        // Half the lines hold no letter that folds to ASCII: the context is cut without Foundation.
        let folding: Set<String> = ["ß", "ﬁ", "\u{212A}", "İ", "ǰ"]
        for round in 0..<6_000 {
            var line = lines.line(round % 2 == 0 ? pieces.filter { !folding.contains($0) } : pieces)
            if round % 10 == 0 { line = "\u{3000} " + line + "\u{2029}\u{A0}" }
            let focus = foci[lines.random(foci.count)]
            #expect(VaultLinks.context(line, around: focus) == VaultLinks.unicodeContext(line, around: focus),
                    "\(line.debugDescription) around \(focus)")
        }
        for bytes: [UInt8] in [[0x61, 0xE2, 0x80], Array(String(repeating: "é ", count: 70).utf8) + [0xFF, 0x20],
                               [0xC3] + Array(String(repeating: "target ", count: 30).utf8) + [0xE2, 0x80, 0x80]] {
            let decoded = String(decoding: bytes, as: UTF8.self)
            let cut = bytes.withUnsafeBytes { LineContext.cut($0, around: "target") }
            #expect(cut == VaultLinks.unicodeContext(decoded, around: "target"), "\(bytes)")
        }
    }

    @Test func otherLinesAreTrimmedAsFoundationTrimsThem() {
        #expect(VaultLinks.context("\u{A0}café [[x]]\u{3000}", around: "x") == "café [[x]]")
    }

    @Test func linesAreCutFromTheBytesAsAStringSplitNumbersThem() {
        let texts = ["", "one", "one\n", "a\nb\r\nc\r\r\nd\re\n\n", "\r\n", "ÿ\n", "\n\n\nlast"].map { Data($0.utf8) }
        // Invalid UTF-8 on both sides of a line break.
        for data in texts + [Data([0x61, 0xE2, 0x0A, 0xC3, 0x0D, 0x0A, 0x80])] {
            let expected = String(decoding: data, as: UTF8.self)
                .split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" }).map(String.init)
            var lines = NoteLines(data)
            for number in [3, 1, 2, 4, 5, 6, 7, 8].shuffled() {
                #expect(lines.line(number) == (number <= expected.count ? expected[number - 1] : nil), "\(Array(data)) line \(number)")
            }
            #expect(lines.line(0) == nil)
        }
    }
}
