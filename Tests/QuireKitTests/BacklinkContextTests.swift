import Foundation
import QuireCore
@testable import QuireKit
import Testing

/// A backlink's line and context cut by bytes (`NoteLines`, `VaultLinks.asciiContext`) are the
/// text the character-by-character way gives.
@Suite struct BacklinkContextTests {
    @Test func asciiLinesGiveTheSameContextAsFoundation() {
        var state: UInt64 = 35
        func random(_ bound: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int(state >> 33) % bound
        }
        let pieces = ["word", "Target", "TARGET", "target", " ", "  ", "\t", "[[Target|label]]", "x", "\u{0B}", "!", "tar"]
        for _ in 0..<2_000 {
            let count = random(81)
            let line = (0..<count).map { _ in pieces[random(pieces.count)] }.joined()
            let focus = ["target", "Target", "", "label", "nowhere", "T"][random(6)]
            #expect(VaultLinks.asciiContext(line, around: focus) == VaultLinks.unicodeContext(line, around: focus),
                    "\(line.debugDescription) around \(focus)")
        }
    }

    @Test func otherLinesAreLeftToFoundation() {
        #expect(VaultLinks.asciiContext("café [[x]]", around: "x") == nil)
        #expect(VaultLinks.asciiContext("a\r\nb", around: "x") == nil)
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
