import Foundation
import QuireGit
@testable import QuireSync
import Testing

/// How `SideChanges` pairs a side's files with the merge base and `TreeMerger` places them,
/// on trees built in memory: identity is the note's `id`, and no two files share a name.
@Suite struct MergePairingTests {
    /// A repository in a temporary folder, removed when the value is released.
    final class Scratch {
        let root: URL
        let repository: Repository

        init() throws {
            root = FileManager.default.temporaryDirectory.appendingPathComponent("quire-pairing-\(UUID().uuidString)")
            repository = try Repository.create(at: root)
        }

        deinit { try? FileManager.default.removeItem(at: root) }

        /// A tree holding exactly `files` (path, text): a list, as two names equal under Unicode
        /// normalization are one dictionary key.
        func tree(_ files: [(path: String, text: String)]) throws -> OID {
            try repository.writeTree(entries: try files.map { TreeEntry(path: $0.path, id: try repository.writeBlob(Data($0.text.utf8))) })
        }

        func tree(_ files: [String: String]) throws -> OID { try tree(files.map { ($0.key, $0.value) }) }

        /// The merged tree of `ours` and `theirs` against `base`: path → text, and the decisions' paths.
        func merge(base: [String: String], ours: [String: String], theirs: [String: String]) throws
            -> (files: [String: String], recorded: [String]) {
            let merger = TreeMerger(repository: repository, selector: MergeStrategySelector(rules: []), theirsDevice: "b",
                                    oursDevice: "a", now: Date(timeIntervalSince1970: 0))
            let time = Date(timeIntervalSince1970: 0)
            let output = try merger.merge(base: try tree(base), ours: .init(tree: try tree(ours), time: time),
                                          theirs: .init(tree: try tree(theirs), time: time))
            var files: [String: String] = [:]
            for entry in output.entries { files[entry.path] = String(decoding: try repository.blobData(entry.id), as: UTF8.self) }
            return (files, output.decisions.map(\.path))
        }

        /// What `side` did to each base path.
        func changes(base: [String: String], side: [String: String]) throws -> SideChanges {
            let (baseTree, sideTree) = (try tree(base), try tree(side))
            return try SideChanges(base: SideChanges.entriesByPath(baseTree, repository: repository),
                                   side: SideChanges.entriesByPath(sideTree, repository: repository),
                                   baseTree: baseTree, sideTree: sideTree, repository: repository)
        }
    }

    static func text(_ id: String, _ body: String) -> String { "---\nid: \(id)\n---\n\(body)\n" }

    /// Where a base path went (nil: unchanged or deleted).
    static func newPath(_ fate: SideChanges.Fate) -> String? {
        if case let .changed(path, _) = fate { return path }
        return nil
    }

    static let longBody = (1...12).map { "Line \($0) of a template that new notes start from." }.joined(separator: "\n")

    @Test func aNoteIsPairedByIDAcrossARename() throws {
        let scratch = try Scratch()
        let changes = try scratch.changes(base: ["a.md": Self.text("x", "A")], side: ["moved/b.md": Self.text("x", "A edited")])
        #expect(Self.newPath(changes.fate(of: "a.md")) == "moved/b.md")
        #expect(changes.added.isEmpty)
    }

    @Test func oneGitRenameAcrossTwoIDsIsADeletionAndAnAddition() throws {
        let scratch = try Scratch()
        let changes = try scratch.changes(base: ["old.md": Self.text("x", Self.longBody)],
                                          side: ["new.md": Self.text("y", Self.longBody)])
        #expect(changes.fate(of: "old.md") == .deleted)
        #expect(Array(changes.added.keys) == ["new.md"])
    }

    @Test func filesWithoutIDsStillPairByGitsRenameDetection() throws {
        let scratch = try Scratch()
        let changes = try scratch.changes(base: ["old.md": Self.longBody], side: ["new.md": Self.longBody + "\nOne more."])
        #expect(Self.newPath(changes.fate(of: "old.md")) == "new.md")
    }

    /// A renamed onto the path B left for `c.md`: two moves, not an edit of B.
    @Test func onePathHoldingAnotherIDIsAnotherNote() throws {
        let scratch = try Scratch()
        let changes = try scratch.changes(base: ["a.md": Self.text("x", "A"), "b.md": Self.text("y", "B")],
                                          side: ["b.md": Self.text("x", "A"), "c.md": Self.text("y", "B")])
        #expect(Self.newPath(changes.fate(of: "a.md")) == "b.md")
        #expect(Self.newPath(changes.fate(of: "b.md")) == "c.md")
        #expect(changes.added.isEmpty)
    }

    /// Theirs moves Y from q to s and X from p onto q; ours edits Y. The paths are vacated
    /// before anything is placed: X takes q although q comes later in the loop (placed at once,
    /// it found our Y still there and went to `q-2.md`), and our edit follows Y to s.
    @Test func aNoteMovesOntoAPathAnotherNoteLeavesLaterInTheLoop() throws {
        let scratch = try Scratch()
        let merged = try scratch.merge(base: ["p.md": Self.text("x", "X"), "q.md": Self.text("y", "Y")],
                                       ours: ["p.md": Self.text("x", "X"), "q.md": Self.text("y", "Y edited")],
                                       theirs: ["q.md": Self.text("x", "X"), "s.md": Self.text("y", "Y")])
        #expect(merged.files == ["q.md": Self.text("x", "X"), "s.md": Self.text("y", "Y edited")])
        #expect(merged.recorded.isEmpty)
    }

    @Test func aFileWhereTheOtherSideHasAFolderMovesAside() throws {
        let scratch = try Scratch()
        let merged = try scratch.merge(base: [:], ours: ["Projects/plan.md": "plan"], theirs: ["Projects": "file"])
        #expect(merged.files == ["Projects/plan.md": "plan", "Projects-2": "file"])
        #expect(merged.recorded == ["Projects-2"])
    }

    /// `Plan.md` made on one device and `plan.md` on the other are one file on macOS and
    /// Windows: the one that arrives is kept beside ours as `Plan-2.md`, recorded.
    @Test func namesTwoDevicesMadeThatDifferOnlyInCaseAreKeptApart() throws {
        let scratch = try Scratch()
        let merged = try scratch.merge(base: [:], ours: ["plan.md": Self.text("x", "Ours")], theirs: ["Plan.md": Self.text("y", "Theirs")])
        #expect(merged.files == ["plan.md": Self.text("x", "Ours"), "Plan-2.md": Self.text("y", "Theirs")])
        #expect(merged.recorded == ["Plan-2.md"])
        // The free name avoids every case of a taken one too.
        let crowded = try scratch.merge(base: [:], ours: ["plan.md": "ours", "PLAN-2.md": "mine"], theirs: ["Plan.md": "theirs"])
        #expect(crowded.files == ["plan.md": "ours", "PLAN-2.md": "mine", "Plan-3.md": "theirs"])
        // In a folder of another case, and an attachment.
        let nested = try scratch.merge(base: [:], ours: ["Notes/a.md": "ours", "img/Photo.png": "one"],
                                       theirs: ["notes/A.md": "theirs", "img/photo.png": "two"])
        #expect(nested.files == ["Notes/a.md": "ours", "notes/A-2.md": "theirs", "img/Photo.png": "one", "img/photo.b.png": "two"])
    }

    /// The same bytes under two cases are one file (it keeps the name it had here); a pair of
    /// names made on one device, ours or theirs, is the user's and stays as it is.
    @Test func samePairsAndPairsMadeOnOneDeviceStay() throws {
        let scratch = try Scratch()
        let same = try scratch.merge(base: [:], ours: ["plan.md": Self.text("x", "Same")], theirs: ["Plan.md": Self.text("x", "Same")])
        #expect(same.files == ["plan.md": Self.text("x", "Same")])
        #expect(same.recorded.isEmpty)
        let theirs = try scratch.merge(base: [:], ours: ["keep.md": "k"], theirs: ["keep.md": "k", "Plan.md": "upper", "plan.md": "lower"])
        #expect(theirs.files == ["keep.md": "k", "Plan.md": "upper", "plan.md": "lower"])
        #expect(theirs.recorded.isEmpty)
        // Ours holds both (one of them new here); theirs edits the other.
        let ours = try scratch.merge(base: ["Plan.md": Self.text("y", "Old")],
                                     ours: ["Plan.md": Self.text("y", "Old"), "plan.md": Self.text("x", "Lower")],
                                     theirs: ["Plan.md": Self.text("y", "Edited")])
        #expect(ours.files == ["Plan.md": Self.text("y", "Edited"), "plan.md": Self.text("x", "Lower")])
        #expect(ours.recorded.isEmpty)
    }

    @Test func bothUnicodeFormsOfOneNameInOneTreeAreBothListed() throws {
        let scratch = try Scratch()
        let tree = try scratch.tree([("caf\u{E9}.md", "precomposed"), ("cafe\u{301}.md", "decomposed")])
        let entries = try SideChanges.entriesByPath(tree, repository: scratch.repository)
        #expect(entries.count == 2)
        #expect(entries["caf\u{E9}-2.md"] != nil)
    }
}
