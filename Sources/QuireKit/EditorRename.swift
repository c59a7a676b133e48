import Foundation
import QuireCore
import QuireSync

/// A rename asked for in an editor (the language server's `textDocument/rename`), done as `quire
/// rename` does it, from the files as they are now: under the vault lock (no sync changes a file
/// between the plan and the writes), every note not open in the editor is rewritten (and moved)
/// here, and only the open ones' new text is left to the editor, whose buffers it was planned
/// from. An editor patching files it does not hold would patch them blind: a sync changing a
/// file between the plan and the edit cut words in half, and a note moved meanwhile came back.
public enum EditorRename {
    /// What is left for the editor to apply.
    public struct Outcome: Sendable {
        /// The new bytes of each note open in the editor (its `original` is the buffer's text).
        public var buffers: [PreparedMove.Write]
        /// Old path → new path of the open notes that move: the editor renames their documents.
        public var moves: [(from: String, to: String)]
        /// What the rename did, closed notes and open ones.
        public var report: MoveReport
    }

    /// Takes the vault lock (waiting up to `wait` seconds for a running sync to end), then asks
    /// `plan` for the notes and the move (so it reads what the last sync changed), writes every
    /// closed note that changes and moves the closed notes the plan moves. `open`: the editor's
    /// buffers by vault path. `plan` may also give the notes that may link to a name
    /// (`MoveOptions.linkingNotes`, from the catalog it brought up to date): then only those,
    /// the moved notes and the open buffers are read. Throws `SyncError.locked` when the lock
    /// does not come free.
    public static func run(vault: Vault, open: [String: Data], options: MoveOptions, wait: TimeInterval = 10,
                           plan: () throws -> (notes: [Note], plan: MovePlan,
                                               linkingNotes: LinkingNotes?)) throws -> Outcome {
        let lock = try lock(vault, waiting: wait)
        defer { withExtendedLifetime(lock) {} }
        let (notes, movePlan, linkingNotes) = try plan()
        var options = options
        if let linkingNotes {
            // An open buffer may hold links its file (and so the catalog) does not yet.
            let buffers = Set(open.keys)
            options.linkingNotes = { keys in linkingNotes(keys).map { $0.union(buffers) } }
        }
        let opened = Set(open.keys.map(ExactPath.init))
        let prepared = try NoteMover.prepare(vault: vault, notes: notes, plan: movePlan, options: options, unsaved: { open[$0] })
        var report = prepared.report
        for (from, to) in movePlan.notes.sorted(by: { $0.key < $1.key }) where !opened.contains(from) && from != ExactPath(to) {
            try NoteMover.moveItem(vault: vault, from: from.string, to: to)
        }
        let closed = prepared.writes.filter { !opened.contains(ExactPath($0.oldPath)) }
        let refused = Set(try vault.writeAll(closed.map { ($0.newPath, $0.data) }, replaceIf: { path in
            (try? vault.readData(path)) == closed.first(where: { $0.newPath == path })?.original
        }))
        if !refused.isEmpty {
            // Saved meanwhile by another program: planned again from its text now, every other
            // note as first read; changed once more, it is left and its links reported.
            let originals = Dictionary(prepared.writes.map { ($0.oldPath, $0.original) }, uniquingKeysWith: { first, _ in first })
            let again = try NoteMover.prepare(vault: vault, notes: notes, plan: movePlan, options: options, unsaved: { path in
                open[path] ?? (refused.contains(path) ? nil : originals[path])
            })
            let retried = again.writes.filter { refused.contains($0.newPath) && $0.oldPath == $0.newPath }
            let retriedPaths = Set(retried.map(\.newPath))
            report.edits.removeAll { retriedPaths.contains($0.path) }
            report.edits += retried.flatMap(\.edits)
            report.edits.sort { ($0.path, $0.line) < ($1.path, $1.line) }
            try NoteMover.write(retried + closed.filter { refused.contains($0.newPath) && !retriedPaths.contains($0.newPath) },
                                vault: vault, report: &report)
        }
        return Outcome(buffers: prepared.writes.filter { opened.contains(ExactPath($0.oldPath)) },
                       moves: report.moves.filter { opened.contains(ExactPath($0.from)) && $0.from != $0.to }, report: report)
    }

    /// The vault lock, waiting for a sync that holds it for up to `seconds`.
    private static func lock(_ vault: Vault, waiting seconds: TimeInterval) throws -> VaultLock {
        let deadline = Date().addingTimeInterval(seconds)
        while true {
            do {
                return try VaultLock(vaultRoot: vault.root)
            } catch SyncError.locked(_, _) where Date() < deadline {
                Thread.sleep(forTimeInterval: 0.05)
            }
        }
    }
}
