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
}
