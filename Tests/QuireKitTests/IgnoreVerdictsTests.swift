import Foundation
import QuireCore
@testable import QuireKit
import QuireSearch
import Testing

/// The verdict cache of `GitIgnoreRules` (`IgnoreVerdicts`): a warm walk of a vault whose
/// `.gitignore` hides notes asks libgit2 nothing, and every change that decides a verdict — the
/// root rules, a folder's own `.gitignore`, a new path, a file tracked by force, a damaged cache
/// — is seen. Each listing is compared with the one libgit2 gives with no cache at all.
@Suite final class IgnoreVerdictsTests {
    private let kit: KitVault

    init() throws {
        kit = try KitVault()
        try kit.write(try kit.read(".gitignore") + "drafts/\n*.tmp.md\nArchive/private/\n", to: ".gitignore")
        for path in ["a.md", "drafts/d.md", "b.tmp.md", "sub/c.md", "Archive/private/p.md", "Archive/kept.md"] {
            try kit.write("---\ntitle: \(path)\n---\nbody\n", to: path)
        }
    }

    deinit {
        kit.remove()
    }

    /// One walk with fresh rules (as each command makes them): the notes, whether libgit2 was
    /// asked, and how many `.gitignore` files the rules looked at themselves. By default the
    /// rules' clock is past the racily-clean window (`KitVault.settledClock`: what the test wrote
    /// is trusted, with no wait); `atOnce` walks with the real clock, where what was just written
    /// is too fresh to trust.
    private func walk(atOnce: Bool = false) throws -> (notes: [String], askedLibgit2: Bool, rulesLookedAt: Int) {
        let rules = try settledRules(atOnce: atOnce)
        let listing = try FreshCatalog.noteListing(kit.vault, rules: rules, stamps: false)
        defer { if !atOnce { kit.waitForFileClockTick() } }
        return (listing.notes, rules.askedLibgit2, rules.rulesLookedAt)
    }

    /// Fresh rules whose clock is past the racily-clean window (unless `atOnce`).
    private func settledRules(atOnce: Bool = false) throws -> GitIgnoreRules {
        let rules = try #require(GitIgnoreRules.of(kit.vault, environment: kit.environment) as? GitIgnoreRules)
        if !atOnce { rules.clock = KitVault.settledClock }
        return rules
    }

    /// What libgit2 alone says, with the cache removed first (and removed again after).
    private func truth() throws -> [String] {
        let cache = kit.root.appendingPathComponent(".quire/cache/ignore-verdicts")
        try? FileManager.default.removeItem(at: cache)
        defer { try? FileManager.default.removeItem(at: cache) }
        return try walk().notes
    }

    @Test func aWarmWalkAsksLibgit2NothingAndAgreesWithIt() throws {
        let first = try walk()
        #expect(first.notes == ["Archive/kept.md", "a.md", "sub/c.md"])
        #expect(first.askedLibgit2, "the first walk has no verdicts to reuse")
        #expect(kit.exists(".quire/cache/ignore-verdicts"))
        let second = try walk()
        #expect(second.notes == first.notes)
        #expect(!second.askedLibgit2, "nothing changed: every verdict is reused")
    }

    @Test func aNewNoteIsAskedAndThenRemembered() throws {
        _ = try walk()
        try kit.write("new\n", to: "sub/e.md")
        try kit.write("new\n", to: "sub/e.tmp.md")
        let next = try walk()
        #expect(next.notes == ["Archive/kept.md", "a.md", "sub/c.md", "sub/e.md"])
        #expect(next.askedLibgit2, "new paths are asked")
        let again = try walk()
        #expect(again.notes == next.notes)
        #expect(!again.askedLibgit2)
    }

    @Test func aChangedRootGitignoreIsSeenAtOnce() throws {
        _ = try walk()
        // At once (its stamp is too fresh to trust) and once it has aged.
        try kit.write(try kit.read(".gitignore") + "sub/\n", to: ".gitignore")
        #expect(try walk(atOnce: true).notes == ["Archive/kept.md", "a.md"])
        #expect(try walk().notes == ["Archive/kept.md", "a.md"])
        #expect(try truth() == ["Archive/kept.md", "a.md"])
    }

    @Test func aFolderGitignoreChangedLaterIsSeen() throws {
        try kit.write("secret.md\n", to: "keep/.gitignore")
        try kit.write("s\n", to: "keep/secret.md")
        try kit.write("x\n", to: "keep/x.md")
        #expect(try walk().notes == ["Archive/kept.md", "a.md", "keep/x.md", "sub/c.md"])
        #expect(try !walk().askedLibgit2)
        // Only the folder's own rules change: the root's, the index and the outside rules stay.
        try kit.write("# nothing hidden\n", to: "keep/.gitignore")
        let after = try walk()
        #expect(after.notes == ["Archive/kept.md", "a.md", "keep/secret.md", "keep/x.md", "sub/c.md"])
        #expect(try after.notes == truth())
        // A new .gitignore in a folder that had none.
        try kit.write("c.md\n", to: "sub/.gitignore")
        #expect(try walk().notes == ["Archive/kept.md", "a.md", "keep/secret.md", "keep/x.md"])
    }

    /// A rule removed above a folder whose own rules may still hide: the verdicts below it that
    /// the removed rule decided are asked again.
    @Test func aRuleRemovedAboveAFolderWithRulesOfItsOwnIsSeen() throws {
        try kit.write(try kit.read(".gitignore") + "sub/x.md\n", to: ".gitignore")
        try kit.write("*.tmp.md\n", to: "sub/.gitignore")
        try kit.write("x\n", to: "sub/x.md")
        #expect(try walk().notes == ["Archive/kept.md", "a.md", "sub/c.md"])
        let rules = try kit.read(".gitignore").replacingOccurrences(of: "sub/x.md\n", with: "")
        try kit.write(rules, to: ".gitignore")
        let after = try walk()
        #expect(after.notes == ["Archive/kept.md", "a.md", "sub/c.md", "sub/x.md"])
        #expect(try after.notes == truth())
    }

    @Test func aFileTrackedByForceIsShown() throws {
        _ = try walk()
        try kit.git(["add", "-f", "drafts/d.md"])
        let after = try walk()
        #expect(after.notes == ["Archive/kept.md", "a.md", "drafts/d.md", "sub/c.md"], "a tracked file is never ignored")
        #expect(try after.notes == truth())
    }

    /// A walk that lists attachments too (`quire links`) and one that does not share the file:
    /// each kind, once asked, is answered from it after the other kind wrote it.
    @Test func walksWithAndWithoutAttachmentsKeepEachOthersVerdicts() throws {
        try kit.write("png", to: "sub/image.png")
        try kit.write("png", to: "Archive/private/secret.png")
        try kit.write("tmp", to: "sub/scratch.tmp")
        try kit.write(try kit.read(".gitignore") + "*.tmp\n", to: ".gitignore")
        func attachments() throws -> (paths: [String], askedLibgit2: Bool) {
            let rules = try settledRules()
            let paths = try kit.vault.attachmentPaths(ignore: try rules.ignoreMatcher())
            rules.walkFinished()
            kit.waitForFileClockTick()
            return (paths, rules.askedLibgit2)
        }
        #expect(try walk().askedLibgit2)
        let first = try attachments()
        #expect(first.paths == ["sub/image.png"], "ignored attachments are left out")
        #expect(first.askedLibgit2, "attachments were not asked before")
        #expect(try !walk().askedLibgit2, "the notes' verdicts were kept beside the attachments'")
        let second = try attachments()
        #expect(second.paths == first.paths)
        #expect(!second.askedLibgit2, "the attachments' verdicts were kept beside the notes'")
        // A rule changed: the other kind's verdicts are dropped, and asked again.
        try kit.write(try kit.read(".gitignore") + "*.png\n", to: ".gitignore")
        #expect(try walk().notes == ["Archive/kept.md", "a.md", "sub/c.md"])
        let third = try attachments()
        #expect(third.paths == [])
        #expect(third.askedLibgit2)
    }

    @Test func aDamagedCacheIsIgnored() throws {
        let expected = try walk().notes
        let cache = kit.root.appendingPathComponent(".quire/cache/ignore-verdicts")
        let bytes = try Data(contentsOf: cache)
        for damaged in [Data(), bytes.prefix(bytes.count - 5), Data(repeating: 0xFF, count: bytes.count),
                        bytes.prefix(24) + Data(repeating: 7, count: bytes.count - 24)] {
            try damaged.write(to: cache)
            let walked = try walk()
            #expect(walked.notes == expected)
            #expect(walked.askedLibgit2, "a damaged cache answers nothing")
        }
    }
    /// The walk tells the rules which folders hold a `.gitignore` (from the folder listings it
    /// read or kept): a warm walk looks only at the ones there are, and every way of adding,
    /// editing or removing one is still seen, at once and once it has aged.
    @Test func aWarmWalkLooksOnlyAtTheGitignoresThereAre() throws {
        try kit.write("secret.md\n", to: "keep/.gitignore")
        try kit.write("s\n", to: "keep/secret.md")
        try kit.write("x\n", to: "keep/x.md")
        _ = try walk()
        let warm = try walk()
        #expect(warm.notes == ["Archive/kept.md", "a.md", "keep/x.md", "sub/c.md"])
        #expect(!warm.askedLibgit2)
        #expect(warm.rulesLookedAt == 2, "the root's and keep's: the other folders hold none")
        #expect(try warm.notes == truth())
    }

    @Test func aGitignoreCreatedInAFolderIsSeenAtOnceAndLater() throws {
        _ = try walk()
        #expect(try !walk().askedLibgit2)
        try kit.write("c.md\n", to: "sub/.gitignore")
        #expect(try walk(atOnce: true).notes == ["Archive/kept.md", "a.md"], "at once")
        #expect(try walk().notes == ["Archive/kept.md", "a.md"])
        #expect(try truth() == ["Archive/kept.md", "a.md"])
    }

    /// Created, then the folder's modification time set back: its change time still moves.
    @Test func aGitignoreCreatedWithTheFolderTimeSetBackIsSeen() throws {
        _ = try walk()
        let folder = kit.root.appendingPathComponent("sub").path
        let modified = try #require(try FileManager.default.attributesOfItem(atPath: folder)[.modificationDate] as? Date)
        try kit.write("c.md\n", to: "sub/.gitignore")
        try FileManager.default.setAttributes([.modificationDate: modified], ofItemAtPath: folder)
        #expect(try walk().notes == ["Archive/kept.md", "a.md"])
    }

    /// An edit in place changes no folder: a folder that holds a `.gitignore` is still looked
    /// at, and an edit of the same size with its modification time set back is seen.
    @Test func aGitignoreEditedInPlaceWithTheSameSizeAndTimeIsSeen() throws {
        try kit.write("secret.md\n", to: "keep/.gitignore")
        try kit.write("s\n", to: "keep/secret.md")
        try kit.write("x\n", to: "keep/x.md")
        _ = try walk()
        #expect(try walk().notes == ["Archive/kept.md", "a.md", "keep/x.md", "sub/c.md"])
        let rules = kit.root.appendingPathComponent("keep/.gitignore").path
        let folder = kit.root.appendingPathComponent("keep").path
        let folderBefore = try FileManager.default.attributesOfItem(atPath: folder)[.modificationDate] as? Date
        let modified = try #require(try FileManager.default.attributesOfItem(atPath: rules)[.modificationDate] as? Date)
        let handle = try #require(FileHandle(forWritingAtPath: rules))
        try handle.write(contentsOf: Data("x.md\n####\n".utf8))  // the same ten bytes' length
        try handle.close()
        try FileManager.default.setAttributes([.modificationDate: modified], ofItemAtPath: rules)
        #expect(try (FileManager.default.attributesOfItem(atPath: folder)[.modificationDate] as? Date) == folderBefore, "the folder did not change")
        #expect(try walk(atOnce: true).notes == ["Archive/kept.md", "a.md", "keep/secret.md", "sub/c.md"], "at once")
        let later = try walk()
        #expect(later.notes == ["Archive/kept.md", "a.md", "keep/secret.md", "sub/c.md"])
        #expect(try later.notes == truth())
    }

    @Test func aGitignoreRemovedIsSeen() throws {
        try kit.write("c.md\n", to: "sub/.gitignore")
        _ = try walk()
        #expect(try walk().notes == ["Archive/kept.md", "a.md"])
        try FileManager.default.removeItem(at: kit.root.appendingPathComponent("sub/.gitignore"))
        #expect(try walk(atOnce: true).notes == ["Archive/kept.md", "a.md", "sub/c.md"], "at once")
        #expect(try walk().notes == ["Archive/kept.md", "a.md", "sub/c.md"])
        #expect(try truth() == ["Archive/kept.md", "a.md", "sub/c.md"])
    }

    /// A folder without rules replaced by one of the same name that has them, and back.
    @Test func aFolderReplacedByOneWithRulesIsSeen() throws {
        _ = try walk()
        #expect(try !walk().askedLibgit2)
        let sub = kit.root.appendingPathComponent("sub")
        let old = kit.root.appendingPathComponent("old-sub")
        try FileManager.default.moveItem(at: sub, to: old)
        try kit.write("c.md\n", to: "sub/.gitignore")
        try kit.write("c\n", to: "sub/c.md")
        try kit.write("d\n", to: "sub/d.md")
        #expect(try walk().notes == ["Archive/kept.md", "a.md", "old-sub/c.md", "sub/d.md"])
        try FileManager.default.removeItem(at: sub)
        try FileManager.default.moveItem(at: old, to: sub)
        #expect(try walk().notes == ["Archive/kept.md", "a.md", "sub/c.md"])
        #expect(try truth() == ["Archive/kept.md", "a.md", "sub/c.md"])
    }
    /// Rules at several depths, and notes that come after a subfolder with rules of its own (the
    /// walk comes back to their folder): each is judged by its own folder's rules and those above,
    /// cold, warm, after a deep rule changed, and in a walk that does not tell which folders it
    /// entered (the attachments').
    @Test func rulesAtSeveralDepthsApplyOnlyBelowTheirFolder() throws {
        try kit.write("x.md\n", to: "sub/a/.gitignore")
        try kit.write("y.md\n", to: "sub/a/deep/.gitignore")
        for path in ["sub/a/x.md", "sub/a/y.md", "sub/a/deep/x.md", "sub/a/deep/y.md", "sub/a/deep/z.md",
                     "sub/b/x.md", "sub/x.md", "sub/y.md", "x.md", "y.md"] {
            try kit.write("n\n", to: path)
        }
        let expected = ["Archive/kept.md", "a.md", "sub/a/deep/z.md", "sub/a/y.md", "sub/b/x.md", "sub/c.md",
                        "sub/x.md", "sub/y.md", "x.md", "y.md"]
        #expect(try walk().notes == expected, "cold")
        let warm = try walk()
        #expect(warm.notes == expected, "warm")
        #expect(!warm.askedLibgit2)
        #expect(try truth() == expected)
        try kit.write("# none\n", to: "sub/a/deep/.gitignore")
        let changed = ["Archive/kept.md", "a.md", "sub/a/deep/y.md", "sub/a/deep/z.md", "sub/a/y.md", "sub/b/x.md",
                       "sub/c.md", "sub/x.md", "sub/y.md", "x.md", "y.md"]
        #expect(try walk().notes == changed)
        #expect(try walk().notes == changed)
        let rules = try settledRules()
        let listing = try kit.vault.listing(stamps: false, ignore: try rules.ignoreMatcher())
        rules.walkFinished()
        #expect(listing.notes == changed, "a walk that does not tell which folders it entered")
    }
}
