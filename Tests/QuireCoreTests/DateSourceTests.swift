import Foundation
import Testing
@testable import QuireCore

/// Where a note's dates come from: a front-matter key, else the file's modification time.
@Suite struct DateSourceTests {
    @Test func frontMatterKeysNameTheirSource() {
        let note = TestSupport.parse("---\nModified: 2026-01-10\ndate: 2025-12-01\n---\nBody\n", path: "a.md")
        #expect(note.updatedAt == TestSupport.date(2026, 1, 10))
        #expect(note.updatedAtSource == .frontMatter("modified"))
        #expect(note.createdAtSource == .frontMatter("date"))
        #expect(note.updatedAtSource?.name == "frontMatter:modified")
        let canonical = TestSupport.parse("---\nupdatedAt: 2026-01-03T00:00:00Z\nupdated: 2020-01-01\n---\n", path: "b.md")
        #expect(canonical.updatedAtSource == .frontMatter("updatedAt"))
        #expect(canonical.createdAtSource == nil)
    }

    @Test func badOrMissingDatesHaveNoSource() {
        let note = TestSupport.parse("---\nupdated: soon\n---\nBody\n", path: "a.md")
        #expect(note.updatedAt == nil)
        #expect(note.updatedAtSource == nil)
        #expect(TestSupport.parse("Just a body\n", path: "b.md").createdAtSource == nil)
    }

    @Test func missingDatesFallBackToTheFileTime() {
        let modified = TestSupport.date(2026, 2, 1)
        var bare = TestSupport.parse("Just a body\n", path: "a.md")
        bare.fillMissingDates(modified: modified)
        #expect(bare.updatedAt == modified && bare.updatedAtSource == .fileModified)
        #expect(bare.createdAt == modified && bare.createdAtSource == .fileModified)
        #expect(DateSource.fileModified.name == "fileModified")

        // A note is never created after it was last updated: createdAt takes the earlier date.
        var updatedOnly = TestSupport.parse("---\nlastmod: 2026-01-10\n---\n", path: "b.md")
        updatedOnly.fillMissingDates(modified: modified)
        #expect(updatedOnly.updatedAt == TestSupport.date(2026, 1, 10))
        #expect(updatedOnly.createdAt == TestSupport.date(2026, 1, 10))
        #expect(updatedOnly.createdAtSource == .frontMatter("lastmod"))

        // Dates the front matter has are kept.
        var both = TestSupport.parse("---\ncreated: 2027-01-01\nupdated: 2027-02-01\n---\n", path: "c.md")
        both.fillMissingDates(modified: modified)
        #expect(both.createdAt == TestSupport.date(2027, 1, 1) && both.createdAtSource == .frontMatter("created"))
        #expect(both.updatedAt == TestSupport.date(2027, 2, 1) && both.updatedAtSource == .frontMatter("updated"))
    }
}
