import Foundation
import QuireCore
import QuireGit
import QuireSync

/// Repairs links whose target moved (`quire check --fix`, and the sync that brings a rename),
/// and writes `[[Alias]]` as Obsidian links an alias, `[[File|Alias]]`, where one note has it:
/// a link that leads nowhere now but led to a note at a path that note has since left — as
/// history knows (git's rename detection, else the note's `id` found in the catalog) — is
/// rewritten to the note's path now, in its own style, as `NoteMover` rewrites links. Links that
/// lead nowhere and history cannot explain are reported, never guessed.
public enum LinkRepair {
    /// Where the notes that left a path now are: from the whole history, or with `since`
    /// (a commit id, hex) only from the commits it does not reach — what a sync brought in.
    /// `notes` (the catalog's) are asked for only when history holds a note renamed or deleted.
    public static func movedNotes(vault: Vault, notes: () throws -> [Note], since: String? = nil) throws -> [MovedNote] {
        let repository = try Repository.open(at: vault.root)
        var known: (paths: Set<String>, byID: [String: String])?
        func index() throws -> (paths: Set<String>, byID: [String: String]) {
            if let known { return known }
            let all = try notes()
            var byID: [String: String] = [:]
            for note in all {
                guard let id = note.id?.lowercased() else { continue }
                // A shared id names no note.
                byID[id] = byID[id] == nil ? note.path : ""
            }
            let made = (Set(all.map(\.path)), byID)
            known = made
            return made
        }
        let base = try since.map { hex -> OID in
            guard let oid = OID(hex: hex) else { return try repository.resolveCommit(hex) }
            return oid
        }
        return try NoteHistory(repository: repository).movedNotes(
            excluding: base, exists: { try index().paths.contains($0) },
            pathOfID: { try index().byID[$0].flatMap { $0.isEmpty ? nil : $0 } })
    }

    /// The commit id (hex) the vault's branch points at; nil before the first commit.
    public static func head(of vault: Vault) throws -> String? {
        try Repository.open(at: vault.root).headCommitID()?.hex
    }

    /// Repairs the broken links that `moved` explains, in every note (`notes`: the catalog's
    /// records), and (with `aliases`) writes `[[Alias]]` as `[[File|Alias]]`. In a dry run
    /// nothing is written. Without `aliases`, `options.linkingNotes` (when set) names the notes
    /// that may hold a link to a moved note's old name: only those and the moved notes are read
    /// (the broken links of other notes, which no move explains, are then not reported).
    public static func run(vault: Vault, notes: [Note], moved: [MovedNote], options: MoveOptions,
                           aliases: Bool = true) throws -> MoveReport {
        var entries = notes.map { LinkTargetTable.Entry(path: $0.path, title: $0.title, aliases: $0.aliases) }
        let current = LinkResolver(index: LinkTargetTable(notes: entries))
        var ghosts: [ExactPath: String] = [:]
        for move in moved where ghosts[ExactPath(move.oldPath)] == nil {
            ghosts[ExactPath(move.oldPath)] = move.newPath
            let stem = LinkPathText.withoutExtension(LinkPathText.fileName(of: move.oldPath))
            entries.append(LinkTargetTable.Entry(path: move.oldPath, title: stem))
        }
        var names: [ExactPath: LinkRetargeter.NoteNames] = [:]
        for note in notes { names[ExactPath(note.path)] = LinkRetargeter.NoteNames(title: note.title, aliases: note.aliases) }
        let retargeter = LinkRetargeter(before: LinkResolver(index: LinkTargetTable(notes: entries)), after: current, names: names)
        var paths = notes.map(\.path)
        if !aliases, let lookup = options.linkingNotes {
            // A link a move broke names the note's old file name or path.
            if let linking = lookup(MoveOptions.linkKeys(naming: moved.map(\.oldPath))) {
                let movedTo = Set(moved.map(\.newPath))
                paths = paths.filter { linking.contains($0) || movedTo.contains($0) }
            }
        }
        let files = try LinkRewrite.read(paths, in: vault)
        // `[[Alias]]` becomes `[[File|Alias]]` where one note has the alias (Obsidian's form).
        let table = LinkTargetTable(notes: notes.map { LinkTargetTable.Entry(path: $0.path, title: $0.title, aliases: $0.aliases) })
        let planned = LinkRewrite.plan(files: files, retargeter: retargeter, moved: ghosts, movedNames: [], onlyBroken: true,
                                       aliasHolder: { link in
            let holders = aliases ? LinkResolver(index: table).aliasHolders(of: link.target) : []
            return holders.count == 1 ? holders[0] : nil
        })
        var report = MoveReport()
        report.left = planned.left
        let writes = try NoteMover.changes(of: planned.notes, titles: [:], vault: vault, options: options, report: &report)
        guard !options.dryRun else { return report }
        try NoteMover.write(writes, vault: vault, report: &report)
        return report
    }

    /// After a sync: repairs the links that lead nowhere because a note was moved in a commit
    /// the sync brought in (not reachable from `before`, the branch's commit before the sync),
    /// e.g. a link to a note's old name written on this device while another renamed it. The
    /// caller commits the repairs (a second sync cycle). Nothing happens when nothing moved.
    /// `catalog` gives the notes (the catalog's records) and, as `MoveOptions.linkingNotes`, the
    /// notes that may link to a moved one (only those are read); it is asked once, and only when
    /// the commits brought in renamed or deleted a note: a sync that brought edits alone opens no
    /// catalog here.
    public static func afterSync(vault: Vault, before: String?, now: Date,
                                 catalog: () throws -> (notes: [Note], linkingNotes: LinkingNotes?)) throws -> MoveReport {
        var loaded: (notes: [Note], linkingNotes: LinkingNotes?)?
        func load() throws -> (notes: [Note], linkingNotes: LinkingNotes?) {
            if let loaded { return loaded }
            let made = try catalog()
            loaded = made
            return made
        }
        let moved = try movedNotes(vault: vault, notes: { try load().notes }, since: before)
        guard !moved.isEmpty else { return MoveReport() }
        let (notes, linkingNotes) = try load()
        var options = MoveOptions(now: now)
        options.linkingNotes = linkingNotes
        var report = try run(vault: vault, notes: notes, moved: moved, options: options, aliases: false)
        // Links broken for reasons the sync did not bring are `check`'s business, not the sync's.
        report.left = report.left.filter { $0.reason != .unresolved }
        return report
    }
}
