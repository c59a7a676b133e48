import Foundation
import QuireCore
import QuireGit

/// Merges two trees against their common ancestor entirely in memory: every note changed on
/// both sides goes through the `MergeResolver`; the rules of DESIGN.md §4 decide renames,
/// deletions, additions and attachments. Nothing touches the work tree.
struct TreeMerger {
    let repository: Repository
    let selector: MergeStrategySelector
    /// The device the incoming side comes from (names renamed attachments and keep-both copies).
    let theirsDevice: String
    /// This device (names keep-both copies of our losing versions).
    let oursDevice: String
    let now: Date

    /// The two devices as decisions name them.
    var sides: MergeSideNames { MergeSideNames(ours: oursDevice, theirs: theirsDevice) }

    /// One side of the merge: its tree and commit time (for notes without `updatedAt`).
    struct Side {
        var tree: OID
        var time: Date
        /// The side's head commit: each note's own change time is looked up from it
        /// (`ChangeTimes`); nil: `time` stands for every note.
        var commit: OID? = nil
    }

    /// The merged tree's entries, the decisions that dropped text, and a line per merged path.
    struct Output {
        var entries: [TreeEntry]
        var decisions: [MergeDecision]
        var merged: [String]
    }

    /// `base`: the merge base's tree; `baseCommit`: the merge base itself (where `ChangeTimes`
    /// stop walking each side's history).
    func merge(base: OID?, baseCommit: OID? = nil, ours: Side, theirs: Side) throws -> Output {
        let baseEntries: [String: TreeEntry] = try base.map { try self.entries($0) } ?? [:]
        let oursEntries = try entries(ours.tree, base: baseEntries)
        let theirsEntries = try entries(theirs.tree, base: baseEntries)
        let oursChanges = try SideChanges(base: baseEntries, side: oursEntries, baseTree: base, sideTree: ours.tree,
                                          repository: repository)
        let theirsChanges = try SideChanges(base: baseEntries, side: theirsEntries, baseTree: base, sideTree: theirs.tree,
                                            repository: repository)
        var result = oursEntries
        var decisions: [MergeDecision] = []
        var merged: [String] = []
        let basePaths = baseEntries.keys.sorted()
        let resolved = try resolveNotesChangedOnBothSides(basePaths, base: baseEntries, oursChanges: oursChanges,
                                                          theirsChanges: theirsChanges, ours: ours, theirs: theirs,
                                                          baseCommit: baseCommit)
        // Paths are vacated first, entries placed after: a note may move onto a path that another
        // note leaves later in this loop.
        var placements: [Placement] = []
        for basePath in basePaths {
            let baseEntry = baseEntries[basePath]
            let mine = oursChanges.fate(of: basePath)
            let incoming = theirsChanges.fate(of: basePath)
            switch (mine, incoming) {
            case (_, .unchanged), (.deleted, .deleted):
                continue
            case (.unchanged, .deleted):
                result[basePath] = nil
            case let (.unchanged, .changed(path, entry)):
                result[basePath] = nil
                placements.append(Placement(path: path, entry: entry, device: theirsDevice))
            case let (.deleted, .changed(path, entry)):
                guard let baseEntry, try isRealChange(baseEntry, entry) else { continue }
                placements.append(Placement(path: path, entry: entry, device: theirsDevice, decision: MergeDecision(
                    path: path, winner: .theirs, reason: "deleted on \(oursDevice) but changed on \(theirsDevice): the note was kept")))
            case let (.changed(path, entry), .deleted):
                if let baseEntry, try isRealChange(baseEntry, entry) {
                    decisions.append(MergeDecision(path: path, winner: .ours,
                                                   reason: "deleted on \(theirsDevice) but changed on \(oursDevice): the note was kept"))
                } else {
                    result[path] = nil
                }
            case let (.changed(oursPath, oursEntry), .changed(theirsPath, theirsEntry)):
                if oursEntry.id == theirsEntry.id && oursPath == theirsPath { continue }
                try mergeBoth(base: baseEntry, ours: (oursPath, oursEntry, ours.time),
                              theirs: (theirsPath, theirsEntry, theirs.time), resolved: resolved[basePath],
                              into: &result, placements: &placements, merged: &merged)
            }
        }
        // The merged tree's names by letter case, for what arrives: a name that differs from one
        // of them only in case is one file on macOS and Windows.
        var names = CaseFoldedNames(result.keys)
        let arriving = Arrival(ours: oursEntries, theirs: theirsEntries)
        for placement in placements {
            place(placement, into: &result, names: &names, arriving, decisions: &decisions, merged: &merged)
        }
        for (path, entry) in theirsChanges.added.sorted(by: { $0.key < $1.key }) {
            // A configuration file added on both sides merges in place (a copy would be read as
            // config, or lose its rules).
            if let existing = result[path], existing.id != entry.id,
               let config = try ConfigFileMerge.merge(path: path, base: nil, ours: (existing, ours.time), theirs: (entry, theirs.time),
                                                      strategy: selector.strategy(for: path), repository: repository) {
                result[path] = config.entry
                decisions += config.decisions
                merged.append("merged \(path)")
                continue
            }
            place(Placement(path: path, entry: entry, device: theirsDevice), into: &result, names: &names, arriving,
                  decisions: &decisions, merged: &merged)
        }
        separateFilesFromFolders(in: &result, ours: oursEntries, decisions: &decisions, merged: &merged)
        let entries = result.map { TreeEntry(path: $0.key, id: $0.value.id, kind: $0.value.kind) }
        return Output(entries: entries.sorted { $0.path < $1.path }, decisions: decisions, merged: merged)
    }

    /// The resolver's outcome for every note changed on both sides, by base path: the blobs are
    /// read here through libgit2, and the notes merged on every core (the resolver is pure).
    /// A resolver error is kept with its note and thrown when the merge reaches that note.
    private func resolveNotesChangedOnBothSides(_ basePaths: [String], base: [String: TreeEntry],
                                                oursChanges: SideChanges, theirsChanges: SideChanges,
                                                ours: Side, theirs: Side,
                                                baseCommit: OID?) throws -> [String: Result<NoteMergeResult, Error>] {
        struct Job {
            var basePath: String
            var path: String
            var base: Data?
            var ours: MergeSide
            var theirs: MergeSide
            var strategy: MergeStrategy
        }
        var both: [(basePath: String, ours: (String, TreeEntry), theirs: (String, TreeEntry))] = []
        for basePath in basePaths {
            guard case let .changed(oursPath, oursEntry) = oursChanges.fate(of: basePath),
                  case let .changed(theirsPath, theirsEntry) = theirsChanges.fate(of: basePath),
                  !(oursEntry.id == theirsEntry.id && oursPath == theirsPath),
                  oursPath.hasSuffix(".md") || theirsPath.hasSuffix(".md"),
                  oursEntry.kind != .link && theirsEntry.kind != .link else { continue }
            both.append((basePath, (oursPath, oursEntry), (theirsPath, theirsEntry)))
        }
        guard !both.isEmpty else { return [:] }
        // When each side committed its change of each of these notes.
        let oursTimes = try ChangeTimes(head: ours.commit, base: baseCommit, wanted: Set(both.map(\.ours.0)),
                                        fallback: ours.time, repository: repository)
        let theirsTimes = try ChangeTimes(head: theirs.commit, base: baseCommit, wanted: Set(both.map(\.theirs.0)),
                                          fallback: theirs.time, repository: repository)
        var jobs: [Job] = []
        for (basePath, (oursPath, oursEntry), (theirsPath, theirsEntry)) in both {
            jobs.append(Job(basePath: basePath, path: oursPath, base: try base[basePath].map { try repository.blobData($0.id) },
                            ours: oursTimes.side(oursPath, data: try repository.blobData(oursEntry.id)),
                            theirs: theirsTimes.side(theirsPath, data: try repository.blobData(theirsEntry.id)),
                            strategy: selector.strategy(for: oursPath)))
        }
        let sides = sides
        let outcomes = ParallelMap.map(jobs, chunkSize: 8) { job in
            Result { try MergeResolver(strategy: job.strategy, sides: sides).merge(path: job.path, base: job.base, ours: job.ours, theirs: job.theirs) }
        }
        var result: [String: Result<NoteMergeResult, Error>] = [:]
        var blobs: [Data] = []
        for (job, outcome) in zip(jobs, outcomes) {
            result[job.basePath] = outcome
            if case let .success(merged) = outcome { blobs += [merged.merged] + (merged.keepBothCopy.map { [$0] } ?? []) }
        }
        // Thousands of merged notes: one pack rather than a loose file each (`writeBlob` below
        // then finds every blob already stored).
        try PackedObjects.storeBlobs(blobs, repository: repository)
        return result
    }

    /// A note or attachment changed on both sides; `resolved`: the resolver's outcome when
    /// already computed. Our version leaves its path; the merged note is placed after the loop.
    private func mergeBoth(base: TreeEntry?, ours: (path: String, entry: TreeEntry, time: Date),
                           theirs: (path: String, entry: TreeEntry, time: Date),
                           resolved: Result<NoteMergeResult, Error>?,
                           into result: inout [String: TreeEntry], placements: inout [Placement],
                           merged: inout [String]) throws {
        // A symbolic link is no note: its text is where it leads, never merged with a note's.
        guard ours.path.hasSuffix(".md") || theirs.path.hasSuffix(".md"),
              ours.entry.kind != .link && theirs.entry.kind != .link else {
            // Configuration files merge: a copy beside one would be read as config or lose its rules.
            if ours.path == theirs.path, ours.entry.kind != .link, theirs.entry.kind != .link,
               let config = try ConfigFileMerge.merge(path: ours.path, base: base, ours: (ours.entry, ours.time),
                                                      theirs: (theirs.entry, theirs.time),
                                                      strategy: selector.strategy(for: ours.path), sides: sides,
                                                      repository: repository) {
                result[ours.path] = nil
                merged.append("merged \(ours.path)")
                var placement = Placement(path: ours.path, entry: config.entry, device: theirsDevice)
                placement.decisions = config.decisions
                placements.append(placement)
                return
            }
            // Attachments (and links) changed on both sides: both kept, the incoming one renamed with its device.
            if ours.entry.id != theirs.entry.id {
                let copy = freePath(theirs.path, in: result, device: theirsDevice)
                result[copy] = TreeEntry(path: copy, id: theirs.entry.id, kind: theirs.entry.kind)
                merged.append("attachment changed on both sides, kept both: \(ours.path) and \(copy)")
            }
            return
        }
        let outcome: NoteMergeResult
        if let resolved {
            outcome = try resolved.get()
        } else {
            let resolver = MergeResolver(strategy: selector.strategy(for: ours.path), sides: sides)
            outcome = try resolver.merge(path: ours.path, base: try base.map { try repository.blobData($0.id) },
                                         ours: MergeSide(data: try repository.blobData(ours.entry.id), commitTime: ours.time),
                                         theirs: MergeSide(data: try repository.blobData(theirs.entry.id), commitTime: theirs.time))
        }
        var path = ours.path
        if ours.path != theirs.path {
            // Renamed on one side: the new name; renamed on both: the newer side's name.
            if base?.path == ours.path {
                path = theirs.path
            } else if base?.path != theirs.path,
                      NewerSide.of(ours: (try repository.blobData(ours.entry.id), ours.time),
                                   theirs: (try repository.blobData(theirs.entry.id), theirs.time)) == .theirs {
                path = theirs.path
            }
        }
        result[ours.path] = nil
        let blob = try repository.writeBlob(outcome.merged)
        merged.append("merged \(path)")
        var placement = Placement(path: path, entry: TreeEntry(path: path, id: blob, kind: ours.entry.kind), device: theirsDevice)
        placement.decisions = outcome.decisions
        if let copy = outcome.keepBothCopy {
            placement.keepBothCopy = (try repository.writeBlob(copy), outcome.decisions.first?.winner == .ours ? theirsDevice : oursDevice)
        }
        placements.append(placement)
    }

    /// Whether a change from `base` to `changed` is more than a re-stamp of `updatedAt`.
    private func isRealChange(_ base: TreeEntry, _ changed: TreeEntry) throws -> Bool {
        if base.id == changed.id { return false }
        guard base.path.hasSuffix(".md") || changed.path.hasSuffix(".md") else { return true }
        return MergeResolver.isRealChange(base: try repository.blobData(base.id), changed: try repository.blobData(changed.id))
    }

    /// An entry on its way into the merged tree: a note or file from the incoming side, or a
    /// note merged from both, with the decisions recorded for it once its path is known.
    struct Placement {
        var path: String
        var entry: TreeEntry
        /// The device the entry comes from, named when it is kept beside another.
        var device: String
        var decisions: [MergeDecision] = []
        /// The keep-both strategy's copy of the losing version, and the device it lost on.
        var keepBothCopy: (blob: OID, device: String)?

        init(path: String, entry: TreeEntry, device: String, decision: MergeDecision? = nil) {
            self.path = path
            self.entry = entry
            self.device = device
            decisions = decision.map { [$0] } ?? []
        }
    }

    /// The names each side's tree holds, for the pairs of names that differ only in letter case.
    struct Arrival {
        let ours: [String: TreeEntry]
        let theirs: [String: TreeEntry]

        /// Whether one side's tree holds both `path` and `twin`: a pair made on one device (by hand,
        /// or by another tool) is the user's, named by `quire check`, and stays as it is. The
        /// merge renames only a pair that two devices made apart (`Plan.md` on one, `plan.md` on
        /// the other), which neither user chose.
        func madeOnOneSide(_ path: String, _ twin: String) -> Bool {
            (ours[path] != nil && ours[twin] != nil) || (theirs[path] != nil && theirs[twin] != nil)
        }
    }

    /// Puts `placement` into `result`. The same bytes already there are one file; another file
    /// there — another note at that path, or one whose name differs only in its Unicode form or
    /// in letter case (`Plan.md` made on one device and `plan.md` on another: one file on macOS
    /// and Windows, where a checkout writes one over the other) — keeps the path, and this one is
    /// kept beside it under a free name, recorded. `names`: the merged tree's names by letter case.
    private func place(_ placement: Placement, into result: inout [String: TreeEntry], names: inout CaseFoldedNames,
                       _ arrival: Arrival, decisions: inout [MergeDecision], merged: inout [String]) {
        var path = placement.path
        var collision: (taken: String, form: String)?
        if let existing = result[path] {
            if existing.id != placement.entry.id {
                let taken = result.index(forKey: path).map { result[$0].key } ?? path
                collision = (taken, Array(taken.utf8) == Array(path.utf8) ? "" : " (a name that differs from it only in its Unicode form)")
            }
        } else if let twin = names.twins(of: path).first(where: { !arrival.madeOnOneSide(path, $0) }) {
            if result[twin]?.id == placement.entry.id {
                path = twin  // the same bytes under the name it already has: one file
            } else {
                collision = (twin, " (a name that differs from it only in letter case)")
            }
        }
        if let (taken, form) = collision {
            path = freePath(placement.path, in: result, names: names, device: placement.path.hasSuffix(".md") ? nil : placement.device)
            decisions.append(MergeDecision(path: path, winner: .ours, reason:
                "\(taken) holds another file\(form): this one, from \(placement.device), was kept beside it as \(path)"))
            merged.append("two files at one path, kept both: \(taken) and \(path)")
        }
        if result[path] == nil {
            result[path] = TreeEntry(path: path, id: placement.entry.id, kind: placement.entry.kind)
            names.insert(path)
        }
        for decision in placement.decisions {
            var placed = decision
            placed.path = path
            decisions.append(placed)
        }
        if let copy = placement.keepBothCopy {
            let copyPath = keepBothPath(for: path, device: copy.device, in: result)
            result[copyPath] = TreeEntry(path: copyPath, id: copy.blob, kind: .file)
            merged.append("kept the other version beside it: \(copyPath)")
        }
    }

    /// A file whose path is also a folder of the merged tree (`Projects` a file on one side,
    /// `Projects/` a folder on the other) cannot be written beside it: the file moves to a free
    /// name (`Projects-2`), recorded as lost by its side; the folder keeps the name.
    private func separateFilesFromFolders(in result: inout [String: TreeEntry], ours: [String: TreeEntry],
                                          decisions: inout [MergeDecision], merged: inout [String]) {
        var folders = Set<String>()
        for path in result.keys {
            var folder = Substring(path)
            while let slash = folder.lastIndex(of: "/") {
                folder = folder[..<slash]
                guard folders.insert(String(folder)).inserted else { break }
            }
        }
        var taken = result  // only its names count: the folders are taken too
        if let any = result.first?.value { for folder in folders { taken[folder] = any } }
        for folder in folders.sorted() {
            guard let index = result.index(forKey: folder) else { continue }
            let (path, entry) = result[index]
            let copy = freePath(path, in: taken, device: nil)
            result[path] = nil
            result[copy] = TreeEntry(path: copy, id: entry.id, kind: entry.kind)
            taken[copy] = result[copy]
            decisions.append(MergeDecision(path: copy, winner: ours[path]?.id == entry.id ? .theirs : .ours, reason:
                "\(path) is a file on one device and a folder on the other: the file was kept as \(copy)"))
            merged.append("a file and a folder at one path, kept both: \(path)/ and \(copy)")
        }
    }

    /// `a-2.md`, `a-3.md`, … for notes; `photo.<device>.png` (then numbered) for attachments;
    /// names shortened to the file-name limit (`FileNameLimit`). With `names`, a name that
    /// differs from a taken one only in letter case is taken too.
    private func freePath(_ path: String, in result: [String: TreeEntry], names: CaseFoldedNames? = nil,
                          device: String?) -> String {
        let (stem, ext) = Self.split(path)
        func isFree(_ candidate: String) -> Bool {
            result[candidate] == nil && names?.twins(of: candidate).isEmpty != false
        }
        if let device {
            let candidate = FileNameLimit.path(stem: stem, suffix: ".\(Self.safeName(device))", ext: ext)
            if isFree(candidate) { return candidate }
        }
        var counter = 2
        while !isFree(FileNameLimit.path(stem: stem, suffix: "-\(counter)", ext: ext)) { counter += 1 }
        return FileNameLimit.path(stem: stem, suffix: "-\(counter)", ext: ext)
    }

    /// `<name>.conflict-<device>-<YYYYMMDDTHHMMSSZ>.md` beside the note.
    private func keepBothPath(for path: String, device: String, in result: [String: TreeEntry]) -> String {
        let (stem, ext) = Self.split(path)
        let suffix = ".conflict-\(Self.safeName(device))-\(BackupRefs.stamp(now))"
        var candidate = FileNameLimit.path(stem: stem, suffix: suffix, ext: ext)
        var counter = 2
        while result[candidate] != nil {
            candidate = FileNameLimit.path(stem: stem, suffix: "\(suffix)-\(counter)", ext: ext)
            counter += 1
        }
        return candidate
    }

    static func split(_ path: String) -> (stem: String, ext: String) {
        let name = (path as NSString).lastPathComponent
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return (path, "") }
        let ext = String(name[dot...])
        return (String(path.dropLast(ext.count)), ext)
    }

    static func safeName(_ device: String) -> String {
        let kept = device.map { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" ? $0 : "-" }
        return kept.isEmpty ? "device" : String(kept)
    }

    private func entries(_ tree: OID, base: [String: TreeEntry] = [:]) throws -> [String: TreeEntry] {
        try SideChanges.entriesByPath(tree, repository: repository, base: base)
    }
}
