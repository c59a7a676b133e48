import Foundation
import Testing
@testable import QuireCore

/// Inputs found by `Benchmarks/fuzz.sh` (front-matter target) that broke a property; each is
/// kept here with the property it broke.
@Suite struct FuzzRegressionTests {
    /// crash-2991c9d1 (a seed): removing a key whose value holds an anchor left an alias
    /// pointing at nothing, so the written front matter no longer read (`unknown alias`).
    @Test func removingAnAnchoredKeyIsRefused() {
        let yaml = "---\nbase: &b [x, y]\ncopy: *b\nm: &m {a: 1}\nn:\n  <<: *m\n---\n"
        var document = TestSupport.document(yaml)
        #expect(document.isEditable)
        #expect(throws: CoreError.self) { try document.remove("base") }
        #expect(TestSupport.text(document) == yaml)
        #expect(throws: CoreError.self) { try document.remove("m") }
        #expect(TestSupport.text(document) == yaml)
        try? document.remove("copy")
        #expect(TestSupport.text(document) == "---\nbase: &b [x, y]\nm: &m {a: 1}\nn:\n  <<: *m\n---\n")
        #expect(document.problems.isEmpty)
    }

    /// crash-58c05e6d: a block sequence whose item is empty (`-` alone) ended, for the writer,
    /// at its key's line, so removing the key left the `-` line behind, where it joined the
    /// previous plain scalar ("Cafe" became "Cafe -"); setting the key failed.
    @Test func emptySequenceItemBelongsToItsKey() throws {
        for yaml in ["---\ntitle: Cafe\ntags:\n -\n---\nx\n", "\u{FEFF}---\ntitle: Caf\u{E9}\ntags:\n - \nz: 1\n---\nx\n",
                     "---\ntitle: Cafe\ntags:\n- a\n-\n---\nx\n"] {
            var removed = TestSupport.document(yaml)
            try removed.remove("tags")
            #expect(removed.frontMatter.map(\.key) == TestSupport.document(yaml).frontMatter.map(\.key).filter { $0 != "tags" })
            #expect(removed.value(forKey: "title") == TestSupport.document(yaml).value(forKey: "title"))
            #expect(removed.problems.isEmpty)
            #expect(removed.body == "x\n")
            var replaced = TestSupport.document(yaml)
            try replaced.set("tags", .list([.string("b")]))
            #expect(replaced.value(forKey: "tags") == .list([.string("b")]))
            #expect(replaced.value(forKey: "title") == TestSupport.document(yaml).value(forKey: "title"))
        }
        var document = TestSupport.document("---\ntitle: Cafe\ntags:\n -\n---\nx\n")
        try document.remove("tags")
        #expect(TestSupport.text(document) == "---\ntitle: Cafe\n---\nx\n")
    }
}
