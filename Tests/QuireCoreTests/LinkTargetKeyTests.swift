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
}
