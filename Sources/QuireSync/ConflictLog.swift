import Foundation
import QuireCore
import QuireGit

/// Every automatic resolution that dropped text, read from merge-commit trailers; the losing
/// version is the other parent's version of the note.
public struct ConflictLog {
    let repository: Repository
    let vaultRoot: URL

    /// Reads the log of the vault at `vaultRoot`.
    public init(vaultRoot: URL) throws {
        self.vaultRoot = vaultRoot
        repository = try Repository.open(at: vaultRoot)
    }

    /// Every record, newest first; dismissed ones only with `includeDismissed`.
    public func records(includeDismissed: Bool = false) throws -> [ConflictRecord] {
        guard let head = try repository.headCommitID() else { return [] }
        let dismissed = Set(try SyncState.load(vaultRoot: vaultRoot).dismissedConflicts)
        let devices = CommitDevices(repository: repository)
        var result: [ConflictRecord] = []
        var foreign: [CommitInfo] = []
        // Merge commits, and the sync commits of pending merges (one parent: the commit's own
        // side is `ours`, the parent the loser).
        for commit in try repository.log(from: head) where !commit.parents.isEmpty {
            if ForeignMerges.isForeign(commit) { foreign.append(commit) }
            let device = CommitTrailers.device(of: commit)
            var decisionsPerPath: [String: Int] = [:]
            for value in CommitTrailers.values(ConflictTrailer.key, in: commit.message) {
                guard let decision = ConflictTrailer.parse(value) else { continue }
                // One merge can record several decisions for one path (a key and the body): the
                // second and later get `#n` in the hashed text, so every id stays unique.
                // A decision of a merge the git CLI made: that merge is the record's commit.
                let merge = try ConflictTrailer.merge(in: value).map { try repository.commit($0) } ?? commit
                let occurrence = decisionsPerPath[merge.id.hex + decision.path, default: 0]
                decisionsPerPath[merge.id.hex + decision.path] = occurrence + 1
                var record = Self.record(decision, merge: merge, device: device, occurrence: occurrence, dismissed: dismissed)
                if let theirs = ConflictTrailer.theirs(in: value) { record.theirs = theirs.hex }
                record.theirsDevice = try devices.name(of: record.theirs)
                if includeDismissed || !record.dismissed { result.append(record) }
            }
        }
        // Merges made by the git CLI, recomputed: every device lists what the driver decided
        // there, also where the device that pulled never runs `quire sync` (its records, once
        // a sync writes them, have the same ids and are listed once).
        var recorded = Set(result.map(\.id))
        let recomputed = try ForeignMerges(repository: repository, vaultRoot: vaultRoot).decisions(of: foreign)
        for merge in foreign {
            var occurrences: [String: Int] = [:]
            for decision in recomputed[merge.id.hex] ?? [] {
                let occurrence = occurrences[decision.path, default: 0]
                occurrences[decision.path] = occurrence + 1
                var record = Self.record(decision, merge: merge, device: merge.author.name, occurrence: occurrence, dismissed: dismissed)
                record.theirsDevice = try devices.name(of: record.theirs)
                guard recorded.insert(record.id).inserted else { continue }
                if includeDismissed || !record.dismissed { result.append(record) }
            }
        }
        if !foreign.isEmpty {
            // Newest first, as the log lists them; ties keep their order.
            result = result.enumerated().sorted { ($0.element.time, -$0.offset) > ($1.element.time, -$1.offset) }.map(\.element)
        }
        // Decisions of the merge driver in a plain `git pull` not recorded by a sync yet.
        let known = Set(result.map(\.id))
        var pending: [ConflictRecord] = []
        var occurrences: [String: Int] = [:]
        for (entry, merge) in try DriverDecisions.paired(repository, vaultRoot: vaultRoot).pairs {
            guard let winner = MergeWinner(rawValue: entry.winner) else { continue }
            let occurrence = occurrences[merge.id.hex + entry.path, default: 0]
            occurrences[merge.id.hex + entry.path] = occurrence + 1
            var record = Self.record(MergeDecision(path: entry.path, winner: winner, reason: entry.reason, lost: entry.lost), merge: merge,
                                     device: entry.device, occurrence: occurrence, dismissed: dismissed)
            record.theirsDevice = try devices.name(of: record.theirs)
            if !known.contains(record.id) && (includeDismissed || !record.dismissed) { pending.append(record) }
        }
        return pending + result
    }

    /// The record of `decision` on `merge` (a merge commit: `ours` its first parent; a sync
    /// commit of pending merges: `ours` the commit itself, its parent the loser).
    private static func record(_ decision: MergeDecision, merge: CommitInfo, device: String, occurrence: Int,
                               dismissed: Set<String>) -> ConflictRecord {
        let hashed = merge.id.hex + decision.path + (occurrence == 0 ? "" : "#\(occurrence)")
        let id = String(SHA1.hex(Data(hashed.utf8)).prefix(10))
        return ConflictRecord(id: id, path: decision.path, time: merge.committer.time, device: device,
                              winner: decision.winner, reason: decision.reason, lost: decision.lost,
                              ours: merge.parents.count > 1 ? merge.parents[0].hex : merge.id.hex,
                              theirs: merge.parents[merge.parents.count > 1 ? 1 : 0].hex,
                              merge: merge.id.hex, dismissed: dismissed.contains(id))
    }

    /// The device that made a commit, by its hex id (each commit read once).
    private final class CommitDevices {
        let repository: Repository
        var names: [String: String] = [:]

        init(repository: Repository) {
            self.repository = repository
        }

        func name(of hex: String) throws -> String {
            if let known = names[hex] { return known }
            guard let id = OID(hex: hex) else { return "the remote" }
            let commit = try repository.commit(id)
            let name = CommitTrailers.device(of: commit)
            names[hex] = name
            return name
        }
    }

    /// The records (not dismissed) of merges made or brought in since `head` (hex; nil: all)
    /// — those whose merge is not in its history — where `device`'s text was dropped: what a
    /// sync tells the device that lost. Undone deletions drop no text and are left out.
    public func lost(by device: String, since head: String?) throws -> [ConflictRecord] {
        let before = head.flatMap(OID.init(hex:))
        // Most syncs bring no decision: the new commits alone say so, without reading history.
        if let before, let now = try repository.headCommitID() {
            let arrived = try repository.log(from: now, excluding: before)
            guard arrived.contains(where: { !CommitTrailers.values(ConflictTrailer.key, in: $0.message).isEmpty || ForeignMerges.isForeign($0) })
            else { return [] }
        }
        return try records().filter { record in
            guard record.dropsText, record.losingDevice == device, let merge = OID(hex: record.merge) else { return false }
            guard let before else { return true }
            return try merge != before && !repository.isAncestor(merge, of: before)
        }
    }

    /// The record whose id starts with `prefix` (at least 4 characters); throws when there is
    /// none or several.
    public func record(_ prefix: String) throws -> ConflictRecord {
        let lowered = prefix.lowercased()
        let matches = try records(includeDismissed: true).filter { $0.id.hasPrefix(lowered) }
        guard lowered.count >= 4, let first = matches.first else { throw ConflictError.notFound(prefix) }
        guard matches.count == 1 else { throw ConflictError.ambiguous(prefix, matches.map(\.id)) }
        return first
    }

    /// The losing version's bytes: the note in the parent that lost (found by path, else by id);
    /// nil when the losing side has none (it deleted the note).
    public func losingVersion(of record: ConflictRecord) throws -> Data? {
        let loserHex = record.winner == .ours ? record.theirs : record.ours
        // A sync commit's own side loses only where its user deleted a note the sync brought a
        // change to: the deletion has no text, and the commit holds the note that was kept.
        if loserHex == record.merge { return nil }
        guard let loser = OID(hex: loserHex), let merge = OID(hex: record.merge) else { return nil }
        let history = NoteHistory(repository: repository)
        let merged = try history.version(of: record.path, in: merge)
        let mergedID = merged.flatMap { NoteParser.parse($0, path: record.path).id }
        // At the same path (or paired with it) the loser may hold another note, one renamed onto
        // that path: a different id is not this note's version.
        func sameNote(_ data: Data) -> Bool {
            mergedID == nil || NoteParser.parse(data, path: record.path).id.map { $0 == mergedID } != false
        }
        if let data = try twinHoldingLoss(of: record, loser: loser, history: history) { return data }
        if let data = try history.version(of: record.path, in: loser), sameNote(data) { return data }
        if let data = try pairedVersion(of: record, loser: loser), sameNote(data) { return data }
        let loserTree = try repository.treeID(ofCommit: loser)
        if let id = mergedID {
            for entry in try repository.treeEntries(loserTree) where entry.path.hasSuffix(".md") {
                let data = try repository.blobData(entry.id)
                if NoteParser.parse(data, path: entry.path).id == id { return data }
            }
        }
        // A file the merge kept beside another under a new name (`Projects-2`): the same bytes.
        if let merged {
            let blob = BlobHash.hex(merged)
            if try repository.treeEntries(loserTree).contains(where: { $0.id.hex == blob }) { return merged }
        }
        // A note without an id, renamed on the winning side: paired by git's rename detection,
        // as the merge paired it — from the loser, else from the merge base (the loser rewrote it).
        let mergeTree = try repository.treeID(ofCommit: merge)
        var starts = [(tree: loserTree, commit: loser)]
        if let ours = OID(hex: record.ours), let theirs = OID(hex: record.theirs), ours != merge,
           let base = try repository.mergeBase(ours, theirs) {
            starts.append((try repository.treeID(ofCommit: base), loser))
        }
        for start in starts {
            for delta in try repository.diff(from: start.tree, to: mergeTree)
            where delta.kind == .renamed && delta.newPath == record.path {
                if let data = try history.version(of: delta.oldPath, in: start.commit) { return data }
            }
        }
        return nil
    }

    /// Of the loser's twins of `record.path` — names equal under canonical equivalence, `né.md`
    /// precomposed and decomposed — the one holding the text the decision dropped (every place
    /// of `record.lost`); nil without twins. A merge before the twin spelled as the base spells
    /// it kept the base's note (851c9c2) took the other twin for it, and its record names a
    /// spelling whose version in the loser is not the one that lost.
    private func twinHoldingLoss(of record: ConflictRecord, loser: OID, history: NoteHistory) throws -> Data? {
        guard let lost = record.lost else { return nil }
        var spellings: [[UInt8]] = []
        var versions: [Data] = []
        // Compared as bytes: Swift's `==` on strings is canonical equivalence, twins equal.
        for spelling in [record.path, record.path.precomposedStringWithCanonicalMapping,
                         record.path.decomposedStringWithCanonicalMapping] where !spellings.contains(Array(spelling.utf8)) {
            spellings.append(Array(spelling.utf8))
            if let data = try history.version(of: spelling, in: loser) { versions.append(data) }
        }
        guard versions.count > 1 else { return nil }
        let places = Self.lostPlaces(lost)
        guard !places.isEmpty else { return nil }
        return versions.first { data in
            let text = String(decoding: data, as: UTF8.self)
            return places.allSatisfy { text.contains($0) }
        }
    }

    /// The dropped words of a decision's `lost` text (`line 14: words`, one place a line; the
    /// words of one place may run over lines; the whole cut short with `…`).
    static func lostPlaces(_ lost: String) -> [String] {
        var text = lost
        if text.hasSuffix("…") { text.removeLast() }
        return text.split(separator: "\n").compactMap { line -> String? in
            var words = Substring(line)
            if words.hasPrefix("line "), let colon = words.range(of: ": "),
               words[words.index(words.startIndex, offsetBy: 5)..<colon.lowerBound].allSatisfy(\.isNumber) {
                words = words[colon.upperBound...]
            }
            let trimmed = words.trimmingCharacters(in: .whitespaces)
            return trimmed.isEmpty ? nil : trimmed
        }
    }

    /// The note as it was at the merge base of the two sides (the version both changed), by
    /// path; nil for a pending merge's record (one parent), or when the base has no such path.
    public func baseVersion(of record: ConflictRecord) throws -> Data? {
        guard record.ours != record.merge, let ours = OID(hex: record.ours), let theirs = OID(hex: record.theirs),
              let base = try repository.mergeBase(ours, theirs) else { return nil }
        return try NoteHistory(repository: repository).version(of: record.path, in: base)
    }

    /// The loser's version of the note the merge paired with `record.path`: the base path a side
    /// turned into it (or moved to a path another file took, the note then kept beside it), then
    /// what the loser made of that path (`SideChanges`, as `TreeMerger` paired them). Unlike a
    /// lookup by id, it finds the right copy when two notes share an id.
    private func pairedVersion(of record: ConflictRecord, loser: OID) throws -> Data? {
        guard record.ours != record.merge, let ours = OID(hex: record.ours), let theirs = OID(hex: record.theirs),
              let base = try repository.mergeBase(ours, theirs) else { return nil }
        let baseTree = try repository.treeID(ofCommit: base)
        let baseEntries = try SideChanges.entriesByPath(baseTree, repository: repository)
        let sides = try [loser == ours ? theirs : ours, loser].map { commit -> SideChanges in
            let tree = try repository.treeID(ofCommit: commit)
            return try SideChanges(base: baseEntries, side: SideChanges.entriesByPath(tree, repository: repository, base: baseEntries),
                                   baseTree: baseTree, sideTree: tree, repository: repository)
        }
        guard let basePath = SideChanges.basePath(leadingTo: record.path, base: baseEntries, sides: sides)
                ?? Self.basePath(keptBesideAs: record.path, base: baseEntries, sides: sides,
                                 devices: [record.device, record.theirsDevice]) else { return nil }
        switch sides[1].fate(of: basePath) {
        case .unchanged: return try baseEntries[basePath].map { try repository.blobData($0.id) }
        case let .changed(_, entry): return try repository.blobData(entry.id)
        case .deleted: return nil
        }
    }

    /// The base path a side moved to a path another file took, so that the merge kept the note
    /// beside that file under a name of its own (`next-2.md`; `FileNameLimit` shortens a long
    /// one): b renamed `plan.md` to `next.md`, a made a `next.md` of its own. A record of that
    /// note names the new name, which neither side has. (A file both sides added at one path is
    /// kept beside as it was: `losingVersion` finds it by its bytes.)
    private static func basePath(keptBesideAs path: String, base: [String: TreeEntry], sides: [SideChanges],
                                 devices: [String]) -> String? {
        base.keys.sorted().first { basePath in
            sides.contains { side in
                guard case let .changed(target, _) = side.fate(of: basePath) else { return false }
                return isBesideName(path, of: target, devices: devices)
            }
        }
    }

    /// Whether `path` is a name the merge gives a file kept beside another at `target`
    /// (`TreeMerger`'s free names: `-2` … numbered, or the device's name for an attachment).
    static func isBesideName(_ path: String, of target: String, devices: [String]) -> Bool {
        let exact = Array(path.utf8)
        guard exact != Array(target.utf8) else { return false }
        let (stem, ext) = TreeMerger.split(target)
        let suffixes = (2...99).map { "-\($0)" } + devices.map { ".\(TreeMerger.safeName($0))" }
        return suffixes.contains { Array(FileNameLimit.path(stem: stem, suffix: $0, ext: ext).utf8) == exact }
    }

    /// Hides a record from the default list on this device.
    public func dismiss(_ prefix: String) throws -> ConflictRecord {
        let found = try record(prefix)
        var state = try SyncState.load(vaultRoot: vaultRoot)
        if !state.dismissedConflicts.contains(found.id) { state.dismissedConflicts.append(found.id) }
        try state.save(vaultRoot: vaultRoot)
        return found
    }
}
