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
}
