import Foundation
import QuireCore

/// Notes moving from one path to another (`quire mv`, `quire rename`, `quire folder rename`).
public struct MovePlan: Sendable {
    /// Old vault path → new vault path of every note that moves (by the old path's bytes: two
    /// names equal under Unicode normalization are two notes).
    public var notes: [ExactPath: String]
    /// A folder moved as a whole (its attachments and subfolders go with it), if the plan is one.
    public var folder: (from: String, to: String)?
    /// Old vault path → new title, for notes whose title changes (`quire rename`).
    public var titles: [ExactPath: String]

    /// Creates a plan.
    public init(notes: [ExactPath: String], folder: (from: String, to: String)? = nil, titles: [ExactPath: String] = [:]) {
        self.notes = notes
        self.folder = folder
        self.titles = titles
    }
}

/// Options of a move.
public struct MoveOptions: Sendable {
    /// Say what would change; change nothing.
    public var dryRun = false
    /// Rewrite the links to the moved notes (`--no-links` turns it off).
    public var rewritesLinks = true
    /// Change read-only notes too.
    public var force = false
    /// The time `updatedAt` is stamped with.
    public var now: Date
    /// With it (`linkingNotes(in:)`), a move or rename of notes (not of a whole folder) reads
    /// and rewrites only the notes it names and the moved ones; without it, every note.
    public var linkingNotes: LinkingNotes?

    /// Creates options.
    public init(now: Date, dryRun: Bool = false, rewritesLinks: Bool = true, force: Bool = false) {
        self.now = now
        self.dryRun = dryRun
        self.rewritesLinks = rewritesLinks
        self.force = force
    }
}

/// What a move did (or, in a dry run, would do).
public struct MoveReport: Sendable {
    /// Old path → new path of every note moved, sorted by old path.
    public var moves: [(from: String, to: String)] = []
    /// Each link rewritten, by file (new path) and line.
    public var edits: [LinkEdit] = []
    /// Links left as they were, with the reason.
    public var left: [LeftLink] = []
    /// Note files whose bytes changed (new paths), sorted.
    public var changed: [String] = []

    /// An empty report.
    public init() {}
}

/// Errors of the move workflow.
public enum MoveError: Error, Equatable, CustomStringConvertible {
    /// The destination exists: nothing is ever replaced.
    case destinationExists(from: String, to: String)
    /// The file system refused the move.
    case moveFailed(from: String, to: String, reason: String)
    /// A note is read-only (its owner protected it) and `force` was not given.
    case readOnly(path: String)

    /// A readable sentence.
    public var description: String {
        switch self {
        case let .destinationExists(from, to): return "cannot move \(from), the target already exists (\(to))"
        case let .moveFailed(from, to, reason): return "cannot move \(from) to \(to) (\(reason))"
        case let .readOnly(path): return "the note is read-only, it is left as it is (\(path))"
        }
    }
}

/// The outcome of `NoteMover.prepare`: what would change, nothing written yet.
public struct PreparedMove: Sendable {
    /// One note file's new bytes.
    public struct Write: Sendable {
        /// The note's path before the move.
        public var oldPath: String
        /// Its path after.
        public var newPath: String
        /// Its bytes before.
        public var original: Data
        /// Its bytes after (links retargeted, title set, stamped).
        public var data: Data
        /// The link edits the new bytes hold.
        public var edits: [LinkEdit]
    }

    /// The report `run` returns.
    public var report: MoveReport
    /// Every note file whose bytes change, by new path.
    public var writes: [Write]
}

/// Moves and renames notes, rewriting every link to them in the same change (see Docs/links.md,
/// "Renames"): the links' targets alone change, each in its style; a retitled note gets its new
/// title; the renamed note is stamped by `NoteStamp`'s rule, a note whose links alone changed
/// only when it already carries `updatedAt` (`NoteStamp.stampingEditIfCarried`).
public enum NoteMover {
    /// Runs `plan` over the vault's `notes` (path, title, aliases: the catalog's records).
    public static func run(vault: Vault, notes: [Note], plan: MovePlan, options: MoveOptions) throws -> MoveReport {
        let prepared = try prepare(vault: vault, notes: notes, plan: plan, options: options)
        guard !options.dryRun else { return prepared.report }
        var report = prepared.report
        try move(vault: vault, plan: plan)
        try write(prepared.writes, vault: vault, report: &report)
        return report
    }

    /// What `run` would do, without touching a file: the report and each note's new bytes.
    /// `unsaved` gives the bytes of a note an editor holds unsaved (nil: the file counts), so
    /// that the edits fit what the user sees.
    public static func prepare(vault: Vault, notes: [Note], plan: MovePlan, options: MoveOptions,
                               unsaved: @escaping @Sendable (String) -> Data? = { _ in nil }) throws -> PreparedMove {
        let read: @Sendable (String) throws -> Data = { path in try unsaved(path) ?? vault.readData(path) }
        var report = MoveReport()
        report.moves = plan.notes.sorted { $0.key < $1.key }.map { (from: $0.key.string, to: $0.value) }
        var rewritten: [RewrittenNote] = []
        if options.rewritesLinks {
            let planned = try planLinks(vault: vault, notes: notes, plan: plan, linkingNotes: options.linkingNotes, read: read)
            rewritten = planned.notes
            report.left = planned.left
        }
        // A retitled note changes even when no link in it does.
        for key in plan.titles.keys.sorted() where !rewritten.contains(where: { ExactPath($0.oldPath) == key }) {
            let oldPath = key.string
            let data = try read(oldPath)
            rewritten.append(RewrittenNote(oldPath: oldPath, newPath: plan.notes[key] ?? oldPath, data: data,
                                           original: data, edits: []))
        }
        let writes = try changes(of: rewritten, titles: plan.titles, vault: vault, options: options, report: &report)
        return PreparedMove(report: report, writes: writes)
    }

    /// Writes every pending note with one flush; a note changed by someone else since it was
    /// read (an editor saving meanwhile) is left as they wrote it and its links reported.
    static func write(_ writes: [PreparedMove.Write], vault: Vault, report: inout MoveReport) throws {
        let originals = Dictionary(writes.map { ($0.newPath, $0.original) }, uniquingKeysWith: { first, _ in first })
        let refused = Set(try vault.writeAll(writes.map { ($0.newPath, $0.data) }, replaceIf: { path in
            (try? vault.readData(path)) == originals[path]
        }))
        guard !refused.isEmpty else { return }
        let skipped = writes.filter { refused.contains($0.newPath) }
        report.edits.removeAll { refused.contains($0.path) }
        report.changed.removeAll { refused.contains($0) }
        report.left += skipped.flatMap { $0.edits }.map { LeftLink(path: $0.path, line: $0.line, text: $0.old, reason: .editedMeanwhile) }
        report.left.sort { ($0.path, $0.line) < ($1.path, $1.line) }
    }

    /// The bytes to write for each rewritten note (the title set where `titles` says, stamped by
    /// `NoteStamp`'s rule), recording its edits in `report`; read-only notes (without `force`)
    /// and notes whose front matter is unreadable are left, their links reported.
    static func changes(of rewritten: [RewrittenNote], titles: [ExactPath: String], vault: Vault, options: MoveOptions,
                        report: inout MoveReport) throws -> [PreparedMove.Write] {
        let style = try vault.config().fileNameStyle()
        var writes: [PreparedMove.Write] = []
        for note in rewritten.sorted(by: { $0.newPath < $1.newPath }) {
            var data = note.data
            if let title = titles[ExactPath(note.oldPath)] {
                var document = NoteDocument(data: data)
                // With title file names a note without a title key keeps none: its file name is its title.
                if document.value(forKey: "title") != nil || style != .title {
                    try document.set("title", .string(title))
                    data = document.serialized()
                }
            }
            guard data != note.original else { continue }
            if titles[ExactPath(note.oldPath)] == nil, !NoteParser.parseFrontMatter(note.original, path: note.oldPath).problems.isEmpty {
                // A note whose front matter cannot be read is never rewritten.
                report.left += note.edits.map { LeftLink(path: $0.path, line: $0.line, text: $0.old, reason: .unreadable) }
                continue
            }
            if !options.force, try vault.isWriteProtected(note.oldPath) {
                if titles[ExactPath(note.oldPath)] != nil { throw MoveError.readOnly(path: note.oldPath) }
                report.left += note.edits.map { LeftLink(path: $0.path, line: $0.line, text: $0.old, reason: .readOnly) }
                continue
            }
            // A note whose title changed is edited; one whose links alone changed gains no key.
            let stamped = titles[ExactPath(note.oldPath)] != nil
                ? try NoteStamp.stampingEdit(data, original: note.original, path: note.newPath, at: options.now)
                : try NoteStamp.stampingEditIfCarried(data, original: note.original, path: note.newPath, at: options.now)
            data = stamped ?? data
            writes.append(PreparedMove.Write(oldPath: note.oldPath, newPath: note.newPath, original: note.original, data: data,
                                             edits: note.edits))
            report.edits += note.edits
            report.changed.append(note.newPath)
        }
        report.edits.sort { ($0.path, $0.line) < ($1.path, $1.line) }
        report.left.sort { ($0.path, $0.line) < ($1.path, $1.line) }
        return writes
    }

    /// Moves the files (or the folder) of `plan`, never replacing a file.
    static func move(vault: Vault, plan: MovePlan) throws {
        if let folder = plan.folder {
            try moveItem(vault: vault, from: folder.from, to: folder.to)
            return
        }
        for (from, to) in plan.notes.sorted(by: { $0.key < $1.key }) where from != ExactPath(to) {
            try moveItem(vault: vault, from: from.string, to: to)
        }
    }

    /// Renames `from` to `to` (vault-relative), creating folders; refuses to replace anything.
    public static func moveItem(vault: Vault, from: String, to: String) throws {
        do {
            try FileMover.move(in: vault, from: from, to: to)
        } catch KitError.moveTargetExists(let from, let to) {
            throw MoveError.destinationExists(from: from, to: to)
        } catch KitError.moveFailed(let from, let to, let reason) {
            throw MoveError.moveFailed(from: from, to: to, reason: reason)
        }
    }

    /// The link rewrites of a plan.
    private static func planLinks(vault: Vault, notes: [Note], plan: MovePlan,
                                  linkingNotes: LinkingNotes?,
                                  read: @escaping @Sendable (String) throws -> Data) throws -> (notes: [RewrittenNote], left: [LeftLink]) {
        var beforeEntries: [LinkTargetTable.Entry] = []
        // Afterwards the table is the same but for the notes whose entries change.
        var changedEntries: [LinkTargetTable.Entry] = []
        var changedPaths = Set<ExactPath>()
        var names: [ExactPath: LinkRetargeter.NoteNames] = [:]
        var movedNames = Set<String>()
        // Every name a link to a moved or retitled note can be written with, before or after.
        var movedNoteNames: [String] = []
        for note in notes {
            let key = ExactPath(note.path)
            let newPath = plan.notes[key] ?? note.path
            var title = plan.titles[key] ?? note.title
            if plan.titles[key] == nil, !note.hasTitle { title = stem(of: newPath) }
            let before = LinkTargetTable.Entry(path: note.path, title: note.title, aliases: note.aliases)
            let after = LinkTargetTable.Entry(path: newPath, title: title, aliases: note.aliases)
            beforeEntries.append(before)
            if after != before || !ExactPath.same(after.path, before.path) {
                changedEntries.append(after)
                changedPaths.insert(ExactPath(note.path))
            }
            names[ExactPath(newPath)] = LinkRetargeter.NoteNames(title: title, aliases: note.aliases)
            if plan.notes[key] != nil || plan.titles[key] != nil {
                movedNames.insert(LinkResolver.key(stem(of: note.path)))
                movedNames.insert(LinkResolver.key(note.title))
                movedNoteNames += [note.path, newPath, note.title, title] + note.aliases
            }
        }
        let beforeTable = LinkTargetTable(notes: beforeEntries)
        let afterIndex = LinkTargetOverlay(base: beforeTable, replacing: changedPaths, with: LinkTargetTable(notes: changedEntries))
        let retargeter = LinkRetargeter(before: LinkResolver(index: beforeTable), after: LinkResolver(index: afterIndex), names: names)
        var paths = notes.map(\.path)
        // A note that moves is read for its own links; another only when it may link to one that
        // moves (a folder moved whole moves attachments too: every note is read then).
        if plan.folder == nil, let linking = linkingNotes?(MoveOptions.linkKeys(naming: movedNoteNames)) {
            paths = paths.filter { linking.contains($0) || plan.notes[ExactPath($0)] != nil || plan.titles[ExactPath($0)] != nil }
        }
        let files = try LinkRewrite.read(paths, with: read)
        // Every path counts as moved for the retargeter, so that a retitled note's links follow its title.
        var moved = plan.notes
        for path in plan.titles.keys where moved[path] == nil { moved[path] = path.string }
        // An attachment stays where it is, unless it is in a folder moved as a whole.
        let folder = plan.folder
        let root = vault.root
        let attachment: @Sendable (String) -> String? = { path in
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: root.appendingPathComponent(path).path, isDirectory: &isFolder),
                  !isFolder.boolValue else { return nil }
            if let folder, path.hasPrefix(folder.from + "/") { return folder.to + path.dropFirst(folder.from.count) }
            return path
        }
        return LinkRewrite.plan(files: files, retargeter: retargeter, moved: moved, movedNames: movedNames,
                                attachment: attachment, attachmentsMove: folder != nil)
    }

    private static func stem(of path: String) -> String {
        LinkPathText.withoutExtension(LinkPathText.fileName(of: path))
    }
}
