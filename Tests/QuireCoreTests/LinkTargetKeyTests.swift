import Foundation
import QuireTestSupport
import Testing
@testable import QuireCore

/// `LinkTarget.nameKey` reads ASCII targets byte by byte; every key must be the one read
/// character by character (the last path part, `.md` dropped, as `LinkResolver.key` makes keys).
@Suite struct LinkTargetKeyTests {
    @Test func asciiTargetsKeyAsTheGeneralRuleKeysThem() {
        let pieces = ["a", "Note", "B", "/", "//", ".md", ".MD", ".Md", ".", "..", " ", "-", "%20", "#", "m", "d",
                      "Z9", "\t", "\r\n", "é", "日本", "Ä"]
        var random = SeededGenerator(seed: 35)
        for _ in 0..<20_000 {
            var target = ""
            for _ in 0..<Int.random(in: 0...6, using: &random) { target += pieces.randomElement(using: &random) ?? "" }
            #expect(LinkTarget.nameKey(of: target) == LinkTarget.characterNameKey(of: target), "\(target.debugDescription)")
        }
        #expect(LinkTarget.nameKey(of: "../a/My Note.md") == "my note")
        #expect(LinkTarget.nameKey(of: "a/.md") == nil)
        #expect(LinkTarget.nameKey(of: "Folder/X.MD/") == "x")
    }

    /// `LinkTargetTable` files each path under its name's key as `nameKey` makes it; for any
    /// path, the key of its last part without `.md` (split, lowercased, composed) finds it, and
    /// its whole path's key finds it.
    @Test func aTableFilesEachPathUnderTheKeyOfItsName() {
        let pieces = ["a", "Note", "B", "/", ".md", ".MD", ".", "..", " ", "-", "Z9", "é", "E\u{301}", "日本", "Ä", "K"]
        var random = SeededGenerator(seed: 36)
        for _ in 0..<300 {
            let paths = (0..<Int.random(in: 1...12, using: &random)).map { _ in
                (0..<Int.random(in: 1...6, using: &random)).map { _ in pieces.randomElement(using: &random) ?? "" }.joined()
            }
            let table = LinkTargetTable(notes: paths.map { LinkTargetTable.Entry(path: $0, title: "") })
            for path in paths {
                let name = path.split(separator: "/").last.map(String.init) ?? path
                let stem = name.lowercased().hasSuffix(".md") ? String(name.dropLast(3)) : name
                #expect(table.files(withNameKey: LinkResolver.key(stem)).contains(path), "\(path.debugDescription)")
                #expect(table.files(atPathKey: LinkResolver.key(path)).contains(path), "\(path.debugDescription)")
            }
        }
    }

    /// `LinkResolver.key` leaves text whose every scalar composition leaves alone as it is
    /// lowercased (`LinkResolver.isComposed`) and composes any other: each key is the one
    /// Foundation's composition makes, byte for byte — for every scalar of the ranges passed
    /// over, alone and after a letter, and for random text of accents in both forms, jamo,
    /// kana with voicing marks, compatibility ideographs and singletons (Ω, K, Å).
    @Test func keysAreComposedAsFoundationComposesThem() {
        func general(_ name: String) -> String { name.lowercased().precomposedStringWithCanonicalMapping }
        let ranges: [ClosedRange<UInt32>] = [0x80...0x2FF, 0x3041...0x3096, 0x30A1...0x30FA, 0x4E00...0x9FFF, 0xAC00...0xD7A3]
        for range in ranges {
            for value in range {
                guard let scalar = Unicode.Scalar(value) else { continue }
                for name in [String(Character(scalar)), "a" + String(Character(scalar)), "가" + String(Character(scalar))] {
                    #expect(Array(LinkResolver.key(name).utf8) == Array(general(name).utf8), "\(name.debugDescription)")
                }
            }
        }
        let pieces = ["a", "É", "e\u{301}", "E\u{301}", "\u{301}", "ö", "o\u{308}", "ß", "İ", "ǅ", "Ω", "\u{2126}", "\u{212A}",
                      "\u{212B}", "가", "\u{1100}", "\u{1161}", "\u{11A8}", "각", "か", "\u{3099}", "\u{309B}", "カ", "日本",
                      "\u{F900}", "\u{FA10}", "ﬁ", "Ⅻ", "ạ\u{302}", "a\u{323}\u{302}", " ", "/", ".md"]
        var random = SeededGenerator(seed: 6)
        for _ in 0..<20_000 {
            var name = ""
            for _ in 0..<Int.random(in: 1...6, using: &random) { name += pieces.randomElement(using: &random) ?? "" }
            #expect(Array(LinkResolver.key(name).utf8) == Array(general(name).utf8), "\(name.debugDescription)")
        }
        #expect(!LinkResolver.isComposed("e\u{301}") && !LinkResolver.isComposed("가\u{11A8}") && LinkResolver.isComposed("café 日本"))
    }
}
