import Foundation
import QuireCore
import QuireKit
import QuireSearch
import Testing

/// The one way the command line, the language server and the daemon open a vault: the catalog,
/// the folders and the attachments leave out what the ignore rules hide, and a refresh drops a
/// note the rules hide now.
@Suite("VaultSession")
struct VaultSessionTests {
    @Test func theIgnoreRulesHideNotesFoldersAndAttachmentsAlike() throws {
        let kit = try KitVault()
        defer { kit.remove() }
        try kit.write("# a\n", to: "a.md")
        try kit.write("# p\n", to: "Private/p.md")
        try kit.write("png\n", to: "Private/x.png")
        try kit.write("png\n", to: "y.png")
        try kit.write(try kit.read(".gitignore") + "Private/\n", to: ".gitignore")
        let session = try VaultSession(vault: kit.vault, environment: kit.environment)
        #expect(session.catalog.records.map(\.path) == ["a.md"])
        #expect(try !session.folders().contains("Private"))
        #expect(try session.attachmentPaths() == ["y.png"])
        #expect(session.isIgnored("Private/p.md"))
        #expect(!session.isIgnored("a.md"))
    }

    @Test func aRefreshLooksOnlyAtTheNamedNotesTheRulesShowAndAWalkSeesNewRules() throws {
        let kit = try KitVault()
        defer { kit.remove() }
        try kit.write("# a\n", to: "a.md")
        try kit.write("# b\n", to: "b.md")
        try kit.write(try kit.read(".gitignore") + "*.tmp.md\n", to: ".gitignore")
        var session = try VaultSession(vault: kit.vault, environment: kit.environment)
        #expect(session.catalog.records.map(\.path) == ["a.md", "b.md"])
        try kit.write("# a, again\n", to: "a.md")
        try kit.write("# c\n", to: "c.tmp.md")
        let changed = session.refresh(notes: ["a.md", "c.tmp.md"])
        #expect(changed.shown == ["a.md"])
        #expect(changed.hidden.isEmpty)
        #expect(session.catalog.records.map(\.path) == ["a.md", "b.md"])
        // A rule added later: the walk leaves the note out.
        try kit.write(try kit.read(".gitignore") + "b.md\n", to: ".gitignore")
        try session.refreshAll()
        #expect(session.catalog.records.map(\.path) == ["a.md"])
    }

    /// A note the rules hide now (untracked while a `.gitignore` line covers it), named to a
    /// refresh, leaves the catalog and its snapshot unread, though its file stays.
    @Test func aRefreshDropsANamedNoteTheRulesHideNow() throws {
        let kit = try KitVault()
        defer { kit.remove() }
        try kit.write("# a\n", to: "a.md")
        try kit.write("# b\n", to: "b.md")
        try kit.write(try kit.read(".gitignore") + "b.md\n", to: ".gitignore")
        try kit.git(["add", "-f", "b.md"])
        try kit.commitAll()
        var session = try VaultSession(vault: kit.vault, environment: kit.environment)
        #expect(session.catalog.records.map(\.path) == ["a.md", "b.md"])
        try kit.git(["rm", "-q", "--cached", "b.md"])
        try kit.write("# b, ignored\n", to: "b.md")
        let changed = session.refresh(notes: ["b.md"])
        #expect(changed.shown.isEmpty)
        #expect(changed.hidden == ["b.md"])
        #expect(session.catalog.records.map(\.path) == ["a.md"])
        #expect(CatalogStore(loading: kit.root.path).catalog.records.map(\.path) == ["a.md"])
        #expect(session.refresh(notes: ["b.md"]).hidden.isEmpty)
        #expect(kit.exists("b.md"))
    }

    /// `quire folders` (VaultFolders) counts the notes the catalog holds, as `quire stats` does.
    @Test func foldersCountTheCatalogsNotes() throws {
        let kit = try KitVault()
        defer { kit.remove() }
        try kit.write("# a\n", to: "Drafts/a.md")
        try kit.write("# b\n", to: "Drafts/b.tmp.md")
        try kit.write("# c\n", to: "c.md")
        try kit.write(try kit.read(".gitignore") + "*.tmp.md\n", to: ".gitignore")
        let session = try VaultSession(vault: kit.vault, environment: kit.environment)
        let rows = try VaultFolders.list(session)
        #expect(rows.map(\.path) == ["", "Drafts"])
        #expect(rows.map(\.notes) == [1, 1])
        #expect(rows.map(\.notes).reduce(0, +) == session.catalog.records.count)
    }

    /// `quire new` and the language server's new note for a link write the same bytes.
    @Test func newNotesHaveOnePath() throws {
        let kit = try KitVault()
        defer { kit.remove() }
        let now = Date(timeIntervalSince1970: 1_790_000_000)
        let made = try NewNotePlan.make(title: "Plan", folder: "", in: kit.vault, options: NewNoteOptions(), now: now,
                                        newID: { "0b7c2f1e-0000-4000-8000-000000000001" })
        let linked = try NewNotePlan.forLink(target: "Plan", vault: kit.vault, now: now,
                                             newID: { "0b7c2f1e-0000-4000-8000-000000000001" })
        #expect(made.plan == linked)
        #expect(made.unknown.isEmpty)
    }

    /// `set`'s values and `new --mood` share one rule per canonical key.
    @Test func typedValuesFollowOneRulePerKey() throws {
        #expect(try FrontMatterInput.value(key: "mood", text: "4") == .int(4))
        #expect(try FrontMatterInput.mood("4") == 4)
        #expect(throws: KitError.invalidValue(key: "mood", text: "6", expected: NoteFields.moodRule)) {
            try FrontMatterInput.mood("6")
        }
        #expect(throws: KitError.invalidValue(key: "draft", text: "yes", expected: "true or false")) {
            try FrontMatterInput.value(key: "draft", text: "yes")
        }
        #expect(try FrontMatterInput.value(key: "tags", text: "[a, 2]") == .list([.string("a"), .string("2")]))
        #expect(try FrontMatterInput.value(key: "title", text: "2024") == .string("2024"))
        #expect(try FrontMatterInput.value(key: "note", text: "#hash") == .string("#hash"))
    }
}
