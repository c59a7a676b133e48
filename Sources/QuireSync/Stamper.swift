import Foundation
import QuireCore
import QuireGit
#if canImport(Glibc)
import Glibc
#endif

/// Step 2 of the cycle: notes edited outside quire get `updatedAt` = the file's modification
/// time, and notes the user edited while the last sync updated them are merged three ways
/// against the version the edit was based on.
struct Stamper {
    let repository: Repository
    let vault: Vault
    let headTree: OID?
    let headTime: Date

    /// One changed file the step looks at: its path now, its version in HEAD, and what was read
    /// and computed off the main thread (nil `current`: the file could not be read).
    private struct Candidate {
        var path: String
        var headData: Data
        var pendingBase: OID?
        var current: Data?
        var modified: Date?
        var stamped: Result<Data?, Error> = .success(nil)
    }

    /// Returns the stamped paths, and the decisions of the pending merges that dropped text of
    /// HEAD (to be recorded on the commit); merges and clears `state.pendingBases`.
    /// `changed` is false when the work tree matches HEAD (nothing to commit).
    func run(state: inout SyncState, selector: MergeStrategySelector) throws
        -> (stamped: [String], decisions: [MergeDecision], changed: Bool) {
        var stamped: [String] = []
        var decisions: [MergeDecision] = []
        var writes: [(path: String, data: Data)] = []
        var read: [String: Data] = [:]
        let entries = try repository.status()
        let movedFrom = try movedPendingEdits(entries, state: state)
        // Notes, and any other file (an attachment) the user edited while the last sync ran.
        var wanted: [(path: String, oldPath: String)] = []
        for entry in entries where entry.inWorkTree && (entry.path.hasSuffix(".md") || state.pendingBases[entry.path] != nil) {
            guard entry.kind == .modified || entry.kind == .renamed || movedFrom[entry.path] != nil, headTree != nil else { continue }
            wanted.append((entry.path, movedFrom[entry.path] ?? entry.oldPath ?? entry.path))
        }
        // HEAD's versions through libgit2 on this thread (one tree read per folder), then the
        // files read, parsed and stamped on every core.
        let committed = try headTree.map { try repository.entries(atPaths: wanted.map(\.oldPath), inTree: $0) } ?? [:]
        var candidates: [Candidate] = []
        for item in wanted {
            guard let entry = committed[item.oldPath] else { continue }
            let pending = (state.pendingBases[item.path] ?? state.pendingBases[item.oldPath]).flatMap(OID.init(hex:))
            candidates.append(Candidate(path: item.path, headData: try repository.blobData(entry.id), pendingBase: pending))
        }
        candidates = ParallelMap.map(candidates, chunkSize: 16) { candidate in
            var candidate = candidate
            candidate.current = try? Data(contentsOf: vault.url(for: candidate.path))
            candidate.modified = modificationTime(candidate.path)
            if candidate.pendingBase == nil, candidate.path.hasSuffix(".md"), let current = candidate.current {
                candidate.stamped = Result { try stamp(current, committed: candidate.headData, path: candidate.path,
                                                       modified: candidate.modified) }
            }
            return candidate
        }
        for candidate in candidates {
            guard let current = candidate.current else { continue }
            var data = current
            var stampedData = try candidate.stamped.get()
            if let baseID = candidate.pendingBase, let base = try? repository.blobData(baseID) {
                // The user's edit wins every collision: it exists nowhere else, while HEAD's
                // losing text stays in history and is recorded as a conflict on the commit.
                let merged = try MergeResolver(strategy: .ours)
                    .merge(path: candidate.path, base: base,
                           ours: MergeSide(data: current, commitTime: candidate.modified ?? headTime),
                           theirs: MergeSide(data: candidate.headData, commitTime: headTime))
                data = merged.merged
                decisions += merged.decisions
                if candidate.path.hasSuffix(".md") {
                    stampedData = try stamp(data, committed: candidate.headData, path: candidate.path,
                                            modified: candidate.modified)
                }
            } else if candidate.pendingBase != nil, candidate.path.hasSuffix(".md") {
                stampedData = try stamp(data, committed: candidate.headData, path: candidate.path,
                                        modified: candidate.modified)
            }
            if let stampedData {
                data = stampedData
                stamped.append(candidate.path)
            }
            if data != current {
                writes.append((candidate.path, data))
                read[candidate.path] = current
            }
        }
        // A file saved again while the others were written is left alone (its stamp and any
        // pending merge wait for the next sync): it is compared right before its rename.
        // A kept deletion (removed while the sync updated the file) of a note the other side
        // really changed since its base: the change wins, as modify beats delete in a merge.
        var revived: Set<String> = []
        for entry in entries where entry.kind == .deleted && entry.inWorkTree && !movedFrom.values.contains(entry.path) {
            guard let headTree, let baseHex = state.pendingBases[entry.path], let baseID = OID(hex: baseHex),
                  let committed = try repository.entry(atPath: entry.path, inTree: headTree) else { continue }
            let headData = try repository.blobData(committed.id)
            if MergeResolver.isRealChange(base: try repository.blobData(baseID), changed: headData) {
                writes.append((entry.path, headData))
                revived.insert(entry.path)
            }
        }
        let edited = Set(try vault.writeAll(writes) { path in
            if revived.contains(path) { return !FileManager.default.fileExists(atPath: vault.url(for: path).path) }
            return read[path].map { (try? Data(contentsOf: vault.url(for: path))) == $0 } ?? false
        })
        state.pendingBases = state.pendingBases.filter { edited.contains($0.key) }
        stamped.removeAll { edited.contains($0) }
        return (stamped, decisions.filter { !edited.contains($0.path) }, !entries.isEmpty)
    }

    /// `data` with `updatedAt` set to the file's mtime (`modified`, else HEAD's commit time), when
    /// the content really changed against the committed version, `updatedAt` did not change
    /// with it, and the front matter is readable YAML; nil otherwise. Safe to call from several
    /// threads (no libgit2).
    private func stamp(_ data: Data, committed: Data, path: String, modified: Date?) throws -> Data? {
        guard data != committed else { return nil }
        let now = NoteParser.parseFrontMatter(data, path: path)
        // Equal updatedAt with different bytes: a real change made outside quire. Identical
        // front matter (the usual edit: the body only) holds the same updatedAt without parsing.
        guard now.format == .yaml, now.problems.isEmpty,
              NoteParser.haveSameFrontMatter(data, committed)
                || now.updatedAt == NoteParser.parseFrontMatter(committed, path: path).updatedAt else { return nil }
        var document = NoteDocument(data: data)
        guard document.isEditable else { return nil }
        try document.setUpdatedAt(modified ?? headTime)
        return document.serialized()
    }

    /// New path → pending path, for kept edits moved or renamed since (`quire mv`, `quire rename`;
    /// status detects no renames): the note at the pending path in HEAD, gone from the work
    /// tree, and a new file holding the same note id (a note without an id: the same file name).
    private func movedPendingEdits(_ entries: [StatusEntry], state: SyncState) throws -> [String: String] {
        guard let headTree else { return [:] }
        let gone = Set(entries.filter { $0.kind == .deleted && $0.inWorkTree }.map(\.path))
        let added = entries.filter { $0.kind == .added && $0.inWorkTree && $0.path.hasSuffix(".md") }
        var result: [String: String] = [:]
        for path in state.pendingBases.keys.sorted() where gone.contains(path) {
            guard let committed = try repository.entry(atPath: path, inTree: headTree) else { continue }
            let id = NoteParser.parse(try repository.blobData(committed.id), path: path).id
            let name = (path as NSString).lastPathComponent
            for entry in added where result[entry.path] == nil {
                if let id {
                    guard let data = try? Data(contentsOf: vault.url(for: entry.path)) else { continue }
                    if NoteParser.parse(data, path: entry.path).id == id { result[entry.path] = path }
                } else if (entry.path as NSString).lastPathComponent == name {
                    result[entry.path] = path
                }
            }
        }
        return result
    }

    /// The file's modification time (one `stat`; what `FileManager` reports, without its
    /// extended-attribute and owner look-ups).
    private func modificationTime(_ path: String) -> Date? {
        var status = stat()
        guard stat(vault.url(for: path).path, &status) == 0 else { return nil }
        // The same arithmetic as Foundation's, so the stamped second is the same.
        return Date(timeIntervalSinceReferenceDate: TimeInterval(status.st_mtim.tv_sec) - Date.timeIntervalBetween1970AndReferenceDate
                    + TimeInterval(status.st_mtim.tv_nsec) / 1_000_000_000.0)
    }
}
