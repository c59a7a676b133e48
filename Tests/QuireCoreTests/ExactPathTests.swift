import QuireCore
import Testing

/// `ExactPath`: a path as its UTF-8 bytes, where Swift's `String` sees canonical equivalence.
@Suite struct ExactPathTests {
    let composed = "caf\u{E9}.md"
    let decomposed = "cafe\u{301}.md"

    @Test func namesEqualUnderNormalizationAreTwoKeys() {
        #expect(composed == decomposed, "Swift's String: one key")
        #expect(ExactPath(composed) != ExactPath(decomposed))
        #expect(!ExactPath.same(composed, decomposed))
        #expect(ExactPath.same(composed, "caf\u{E9}" + ".md"))
        let table = [ExactPath(composed): 1, ExactPath(decomposed): 2]
        #expect(table.count == 2)
        #expect(table[ExactPath(decomposed)] == 2)
        #expect(Set([ExactPath(composed), ExactPath(decomposed), ExactPath(composed)]).count == 2)
    }

    @Test func theOrderIsTheBytesOrder() {
        // "e" (0x65) before "\u{E9}" (0xC3 0xA9); a prefix first; no tie between two forms.
        #expect(ExactPath(decomposed) < ExactPath(composed))
        #expect(!(ExactPath(composed) < ExactPath(decomposed)))
        #expect(ExactPath.precedes("a", "ab") && !ExactPath.precedes("ab", "a") && !ExactPath.precedes("a", "a"))
        #expect(ExactPath.precedes("", "a"))
        let names = ["b.md", composed, "a/b.md", decomposed, "a-b.md", "B.md"]
        #expect(names.sorted(by: ExactPath.precedes).map { Array($0.utf8) }
                == names.map { Array($0.utf8) }.sorted { $0.lexicographicallyPrecedes($1) })
    }

    @Test func withinAFolderByBytes() {
        let folder = "R\u{E9}sum\u{E9}s"
        let other = "Re\u{301}sume\u{301}s"
        #expect(ExactPath.isWithin(folder, folder))
        #expect(ExactPath.isWithin(folder + "/a.md", folder))
        #expect(ExactPath.isWithin(folder + "/x/a.md", folder))
        #expect(!ExactPath.isWithin(other + "/a.md", folder), "the other form is another folder")
        #expect(!ExactPath.isWithin(folder + "-old/a.md", folder), "a longer name is not below it")
        #expect(!ExactPath.isWithin("R", folder))
        #expect(!ExactPath.isWithin("a.md", ""))
        // A folder written with its trailing slash, and the root.
        #expect(ExactPath.isWithin("/v/a.md", "/v/") && !ExactPath.isWithin("/v", "/v/") && !ExactPath.isWithin("/w/a", "/v/"))
        #expect(ExactPath.isWithin("/etc", "/") && ExactPath.isWithin("/", "/"))
    }
}
