import Foundation
import QuireCore
import QuireGit

/// Step 2 of the cycle: notes edited outside quire get `updatedAt` = the file's modification
/// time, and notes the user edited while the last sync updated them are merged three ways
/// against the version the edit was based on.
struct Stamper {
    let repository: Repository
    let vault: Vault
    let headTree: OID?
    let headTime: Date
    /// This device (names it in the record of a deletion undone) and the test hooks.
    let environment: SyncEnvironment
    /// Where replaced files go to be freed in the background (nil: freed as they are replaced).
    var retired: RetiredFiles?
    private var device: String { environment.device }

    /// What one run did.
    struct Outcome {
        /// Notes whose `updatedAt` was stamped.
        var stamped: [String]
        /// Decisions of the pending merges (to be recorded on the commit): text of HEAD dropped
        /// for the user's edit, and deletions undone by HEAD's change.
        var decisions: [MergeDecision]
        /// False when the work tree matches HEAD (nothing to commit).
        var changed: Bool
        /// Files whose pending merge waits for the next sync because they were saved again before
        /// the merge was written, sorted.
        var waiting: [String]
        /// Those files and the paths their bases are kept under (a kept edit moved since), sorted:
        /// not to be committed now — a saved file lacks HEAD's change, so committing it would
        /// revert that change.
        var uncommitted: [String]
        /// The commit whose versions the kept edits were merged with, when it is not HEAD (the
        /// git CLI committed since the update that kept them): the losing side of `decisions`.
        var incomingCommit: OID?
        /// The paths that can differ from HEAD now (those the stat scan named, and those this
        /// run wrote or removed), sorted; nil when the full status was needed.
        var touched: [String]?
    }

    /// Merges the user's edits kept from the last sync against `state.pendingBases` and stamps
    /// edited notes; clears `state.pendingBases` but for the merges that wait (`waiting`).
    func run(state: inout SyncState, selector: MergeStrategySelector) throws -> Outcome {
        var stamped: [String] = []
        var decisions: [MergeDecision] = []
        var writes: [(path: String, data: Data)] = []
        var read: [String: String] = [:]  // blob ids
        // Written path of a pending merge → the path its base is kept under, and the user's file.
        var pending: [String: (key: String, file: String)] = [:]
        // What may have changed, from stat data on every core (nothing, in the usual sync);
        // libgit2's status then looks at just those paths. Anything the scan cannot narrow down
        // goes through the full status.
        let candidates = state.pendingBases.isEmpty ? try repository.changeCandidates() : nil
        let entries = try refreshingStatus(paths: candidates)
        let movedFrom = try movedPendingEdits(entries, state: state)
        let incoming = try incomingMoves(entries, state: state)
        // The version each kept edit lacks: the tree the update that kept it moved the branch
        // to, even when the git CLI committed the kept file over it since.
        let incomingTree = try pendingTree(state)
        let incomingCommit = incomingTree != nil && incomingTree != headTree ? state.pendingHead.flatMap(OID.init(hex:)) : nil
        let committedKept = try committedKeptEdits(entries, state: state, incomingTree: incomingTree)
        // Kept edits written to the path the incoming change moved the note to: that path, and
        // the kept file to remove once it is written.
        var leaving: [String: (path: String, data: Data)] = [:]
        // Notes, and any other file (an attachment) the user edited while the last sync ran.
        // HEAD's versions are looked up one folder tree at a time; files are read and stamped
        // on both cores (libgit2 stays on this thread); results are taken in status order.
        var changedFiles: [(path: String, oldPath: String, target: String)] = committedKept.map { ($0, $0, $0) }
        for entry in entries where entry.inWorkTree && (entry.path.hasSuffix(".md") || state.pendingBases[entry.path] != nil) {
            guard entry.kind == .modified || entry.kind == .renamed || movedFrom[entry.path] != nil
                    || incoming[entry.path] != nil, headTree != nil else { continue }
            // A symbolic link is committed as the link it is: never read, merged or stamped
            // through (it may lead outside the vault, or to another note).
            var status = stat()
            if lstat(vault.url(for: entry.path).path, &status) == 0, status.st_mode & S_IFMT == S_IFLNK { continue }
            changedFiles.append((entry.path, movedFrom[entry.path] ?? incoming[entry.path] ?? entry.oldPath ?? entry.path,
                               incoming[entry.path] ?? entry.path))
        }
        let committedEntries = try headTree.map { try repository.entries(atPaths: changedFiles.map(\.oldPath), inTree: $0) } ?? [:]
        let pendingPaths = changedFiles.filter { state.pendingBases[$0.path] != nil && $0.path == $0.target }.map(\.path)
        let incomingEntries = try incomingTree.map { try repository.entries(atPaths: pendingPaths, inTree: $0) } ?? [:]
        // A batch at a time: HEAD's versions and the user's files of one batch are held at once,
        // not of every changed file (10,000 notes held three versions each); what is written
        // waits in `writes`, what was read only as its blob id (`read`).
        for batch in stride(from: 0, to: changedFiles.count, by: Self.batchSize) {
            let indices = Array(batch..<min(batch + Self.batchSize, changedFiles.count))
            var headBlobs: [Data?] = []
            headBlobs.reserveCapacity(indices.count)
            for index in indices {
                let candidate = changedFiles[index]
                let entry = candidate.path == candidate.target ? incomingEntries[candidate.path] ?? committedEntries[candidate.oldPath]
                    : committedEntries[candidate.oldPath]
                headBlobs.append(try entry.flatMap { $0.holdsBlob ? try repository.blobData($0.id) : nil })
            }
            // Off this thread: the user's file, its mtime, and the stamp of a note without a pending merge.
            let prepared = ParallelMap.map(Array(indices.indices), chunkSize: 16) { position -> Prepared in
                let candidate = changedFiles[indices[position]]
                guard let headData = headBlobs[position],
                      let current = try? Data(contentsOf: vault.url(for: candidate.path)) else { return Prepared() }
                let mtime = modificationTime(candidate.path) ?? headTime
                let key = state.pendingBases[candidate.path] != nil ? candidate.path : candidate.oldPath
                var result = Prepared(current: current, mtime: mtime, key: key)
                if state.pendingBases[key] == nil, candidate.target.hasSuffix(".md") {
                    result.stamped = Result { try stamp(current, committed: headData, path: candidate.target, editedAt: mtime) }
                }
                return result
            }
            for (position, index) in indices.enumerated() {
                let candidate = changedFiles[index]
                let target = candidate.target
                guard let headData = headBlobs[position], let current = prepared[position].current else { continue }
                let mtime = prepared[position].mtime
                var data = current
                let key = prepared[position].key
                var stampedData = try prepared[position].stamped?.get()
                if let baseHex = state.pendingBases[key], let baseID = OID(hex: baseHex),
                   let base = try? repository.blobData(baseID) {
                    pending[target] = (key, candidate.path)
                    // The user's edit wins every collision: it exists nowhere else, while HEAD's
                    // losing text stays in history and is recorded as a conflict on the commit.
                    // Merged as git sees the file (through the filters: a CRLF checkout of LF blobs).
                    var resolver = MergeResolver(strategy: .ours, sides: MergeSideNames(ours: device, theirs: "the remote"))
                    resolver.oursWinsBecause = "an edit saved on \(device) while a sync ran wins: it exists nowhere else"
                    let merged = try resolver
                        .merge(path: target, base: base, ours: MergeSide(data: try repository.cleanData(current, path: candidate.path), commitTime: mtime),
                               theirs: MergeSide(data: headData, commitTime: headTime))
                    data = try repository.workTreeData(merged.merged, path: target)
                    decisions += merged.decisions
                    stampedData = target.hasSuffix(".md") ? try stamp(data, committed: headData, path: target, editedAt: mtime) : nil
                } else if state.pendingBases[key] != nil, target.hasSuffix(".md") {
                    // A pending base that cannot be read: stamped like any edit.
                    stampedData = try stamp(data, committed: headData, path: target, editedAt: mtime)
                }
                if let stampedData {
                    data = stampedData
                    stamped.append(target)
                }
                if target != candidate.path {
                    writes.append((target, data))
                    read[target] = BlobHash.hex(headData)
                    leaving[target] = (candidate.path, current)
                } else if data != current {
                    writes.append((candidate.path, data))
                    read[candidate.path] = BlobHash.hex(current)
                }
            }
        }
        // A kept edit of a note the incoming change deleted: the edit wins, as modify beats
        // delete in a merge, and the revival is recorded (the losing side, the parent, has no text).
        for entry in entries where entry.kind == .added && entry.inWorkTree && incoming[entry.path] == nil {
            guard let headTree, let baseHex = state.pendingBases[entry.path], let baseID = OID(hex: baseHex),
                  try repository.entry(atPath: entry.path, inTree: headTree) == nil,
                  let current = try? Data(contentsOf: vault.url(for: entry.path)),
                  MergeResolver.isRealChange(base: try repository.blobData(baseID), changed: current) else { continue }
            decisions.append(MergeDecision(path: entry.path, winner: .ours,
                                           reason: "deleted by the incoming change but edited on \(device) during a sync: the note was kept"))
        }
        // A file saved again while the others were written is left alone (its stamp and any
        // pending merge wait for the next sync): it is compared right before its rename.
        // A kept deletion (removed while the sync updated the file) of a note the other side
        // really changed since its base: the change wins, as modify beats delete in a merge, and
        // the revival is recorded like one (the losing side, the commit's own, has no text).
        var revived: Set<String> = []
        // `data`, the change the sync brought to the file at `key`, written back: at `key`, or
        // beside the folder that took its name (`Projects-2`, as a merge keeps a file and a folder
        // of one name; at its own path it could not be written, the folder's notes were committed
        // over it, and the change left the tree unlisted).
        func revive(_ key: String, _ data: Data, besideFolder headTree: OID?) {
            let path = headTree.map { besideFolder(key, headTree: $0) } ?? key
            let why = path == key ? "" : ", and a folder took its name (\(key)/), so it is \(path) now"
            writes.append((path, data))
            revived.insert(path)
            pending[path] = (key, path)
            decisions.append(MergeDecision(path: path, winner: .theirs,
                                           reason: "deleted on \(device) while a sync brought in a change to it\(why): the note was kept"))
        }
        for entry in entries where entry.kind == .deleted && entry.inWorkTree && !movedFrom.values.contains(entry.path) {
            guard let headTree, let baseHex = state.pendingBases[entry.path], let baseID = OID(hex: baseHex),
                  let committed = try repository.entry(atPath: entry.path, inTree: headTree), committed.holdsBlob else { continue }
            let headData = try repository.blobData(committed.id)
            if MergeResolver.isRealChange(base: try repository.blobData(baseID), changed: headData) {
                var status = stat()
                let folder = lstat(vault.url(for: entry.path).path, &status) == 0 && status.st_mode & S_IFMT == S_IFDIR
                revive(entry.path, headData, besideFolder: folder ? headTree : nil)
            }
        }
        // The same, when the git CLI committed the folder since (`git add -A && git commit` after
        // the file was replaced by `Projects/`): HEAD has the folder, the update brought a change
        // to the file. Looked up as the file's version, the folder failed every later sync (soak
        // seed 7017); passed over, the change was gone.
        if let headTree, let incomingTree, incomingTree != headTree {
            let listed = Set(entries.map(\.path))
            for (key, baseHex) in state.pendingBases.sorted(by: { $0.key < $1.key }) where !listed.contains(key) {
                guard let baseID = OID(hex: baseHex),
                      let now = try repository.entry(atPath: key, inTree: headTree), now.kind == .tree,
                      let brought = try repository.entry(atPath: key, inTree: incomingTree), brought.holdsBlob else { continue }
                let data = try repository.blobData(brought.id)
                guard MergeResolver.isRealChange(base: try repository.blobData(baseID), changed: data) else { continue }
                revive(key, data, besideFolder: headTree)
            }
        }
        // Tests stop here to save a file between its merge and its write.
        try environment.fault("before-stamp-write")
        let edited = Set(try vault.writeAll(writes, replaceIf: { path in
            if revived.contains(path) { return !FileManager.default.fileExists(atPath: vault.url(for: path).path) }
            let unchanged = { (file: String, data: Data) in (try? Data(contentsOf: vault.url(for: file))) == data }
            // Compared as git compares a file with a blob: through the filters too, so that
            // HEAD's version checked out under `core.autocrlf` (CRLF line ends) is not taken for
            // an edit saved since (the kept edit of a renamed note then waited for good).
            let unchangedID = { (file: String, id: String) -> Bool in
                guard let data = try? Data(contentsOf: vault.url(for: file)) else { return false }
                return BlobHash.hex(data) == id || (try? repository.cleanData(data, path: file)).map(BlobHash.hex) == id
            }
            return (read[path].map { unchangedID(path, $0) } ?? false) && (leaving[path].map { unchanged($0.path, $0.data) } ?? true)
        }, retiring: retired))
        retired?.startPurge()
        for (target, source) in leaving.sorted(by: { $0.key < $1.key }) where !edited.contains(target) {
            try removeKeptFile(source.path)
        }
        // A pending merge whose file was saved again waits with its base (under the key it was
        // found by, so a kept edit moved since is found again), and the file stays uncommitted.
        let waiting = edited.compactMap { pending[$0] }
        let kept = Set(waiting.map(\.key))
        state.pendingBases = state.pendingBases.filter { kept.contains($0.key) }
        if state.pendingBases.isEmpty { state.pendingHead = nil }
        stamped.removeAll { edited.contains($0) }
        // Every path this run looked at, wrote or removed: all a commit needs to look at again.
        let touched = candidates.map { scanned in
            Set((scanned + committedKept + writes.map(\.path) + leaving.values.map(\.path)).map(ExactPath.init))
                .map(\.string).sorted(by: ExactPath.precedes)
        }
        return Outcome(stamped: stamped, decisions: decisions.filter { !edited.contains($0.path) },
                       changed: !entries.isEmpty || !committedKept.isEmpty, waiting: Set(waiting.map(\.file)).sorted(),
                       uncommitted: Set(waiting.flatMap { [$0.key, $0.file] }).sorted(),
                       incomingCommit: incomingCommit, touched: touched)
    }

    /// How many changed files are read, stamped and merged at once.
    static let batchSize = 256

    /// What is read and computed for one changed file off the main thread (nil `current`: the
    /// file could not be read).
    private struct Prepared {
        var current: Data?
        var mtime = Date(timeIntervalSince1970: 0)
        var key = ""
        var stamped: Result<Data?, Error>?
    }

    /// `data` with `updatedAt` set to the file's mtime when `NoteStamp`'s rule says a stamp is
    /// due against the committed version and the note already carries `updatedAt` (a note
    /// without it, an Obsidian note, gains no key: its commit dates it); nil otherwise.
    private func stamp(_ data: Data, committed: Data, path: String, editedAt: Date) throws -> Data? {
        try NoteStamp.stampingEditIfCarried(data, original: committed, path: path, at: editedAt)
    }

    /// Kept path → HEAD path, for kept edits of notes the incoming change moved or renamed (the
    /// update took the old path out of the index and wrote the new one): the one note of HEAD
    /// with the same id, at a path the user did not change.
    private func incomingMoves(_ entries: [StatusEntry], state: SyncState) throws -> [String: String] {
        guard let headTree else { return [:] }
        let kept = entries.filter { $0.kind == .added && $0.inWorkTree && $0.path.hasSuffix(".md") }
        guard !kept.isEmpty else { return [:] }
        let changed = Set(entries.map(\.path))
        var pathsByID: [String: [String]] = [:]
        for entry in try repository.treeEntries(headTree) where entry.path.hasSuffix(".md") && entry.kind == .file {
            if let id = NoteParser.parse(try repository.blobData(entry.id), path: entry.path).id?.lowercased() {
                pathsByID[id, default: []].append(entry.path)
            }
        }
        var result: [String: String] = [:]
        for entry in kept {
            guard let baseHex = state.pendingBases[entry.path], let baseID = OID(hex: baseHex),
                  (try? repository.blobData(baseID)) != nil,  // merged against it, never written over HEAD's
                  let data = try? Data(contentsOf: vault.url(for: entry.path)),
                  let id = NoteParser.parse(data, path: entry.path).id?.lowercased(),
                  let paths = pathsByID[id], paths.count == 1, let target = paths.first,
                  !changed.contains(target), !result.values.contains(target) else { continue }
            result[entry.path] = target
        }
        return result
    }

    /// Removes a kept file whose edit was merged into the note at its new path.
    private func removeKeptFile(_ path: String) throws {
        do {
            try FileManager.default.removeItem(at: vault.url(for: path))
        } catch {
            throw SyncError.file(path: path, reason: "cannot remove it after merging it into its new path (\(error.localizedDescription))")
        }
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

    private func modificationTime(_ path: String) -> Date? {
        (try? FileManager.default.attributesOfItem(atPath: vault.url(for: path).path))?[.modificationDate] as? Date
    }
}
