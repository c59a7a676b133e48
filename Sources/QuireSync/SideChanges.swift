import Foundation
import QuireCore
import QuireGit

/// What one side of a merge did to each path of the merge base: unchanged, deleted, or changed
/// (modified and/or moved), plus the files it added. A note's identity is its `id`: notes are
/// paired across renames by `id` first, then — only where neither has an id (attachments, notes
/// without one) — by git's rename detection; two notes whose ids differ are never paired, not
/// even at one path (a note renamed onto a path another note left is that other note's
/// deletion and this one's move).
struct SideChanges {
    /// The fate of one base path on this side.
    enum Fate: Equatable {
        case unchanged
        case deleted
        case changed(path: String, entry: TreeEntry)
    }

    private(set) var fates: [String: Fate] = [:]
    /// Files new on this side (not paired with a base path), by path.
    private(set) var added: [String: TreeEntry] = [:]

    init(base: [String: TreeEntry], side: [String: TreeEntry], baseTree: OID?, sideTree: OID,
         repository: Repository) throws {
        var gone: [String] = []
        var replaced: [(path: String, base: TreeEntry, now: TreeEntry)] = []
        for (path, entry) in base {
            if let now = side[path] {
                guard now.id != entry.id || now.kind != entry.kind else { continue }
                if Self.isNote(entry) && Self.isNote(now) {
                    replaced.append((path, entry, now))
                } else {
                    fates[path] = .changed(path: path, entry: now)
                }
            } else {
                gone.append(path)
            }
        }
        for (path, entry) in side where base[path] == nil { added[path] = entry }
        // A note whose id differs from the base's at its path is another note: the base's note
        // left that path (deleted or moved), the new one arrived there.
        // (Blobs read here through libgit2, parsed on every core.)
        let blobs = try replaced.map { (try repository.blobData($0.base.id), try repository.blobData($0.now.id)) }
        let replacedIDs = ParallelMap.map(Array(zip(replaced, blobs)), chunkSize: 16) { pair, data in
            (Self.noteID(data.0, path: pair.base.path), Self.noteID(data.1, path: pair.now.path))
        }
        for (pair, ids) in zip(replaced, replacedIDs) {
            if let was = ids.0, let now = ids.1, was != now {
                gone.append(pair.path)
                added[pair.path] = pair.now
            } else {
                fates[pair.path] = .changed(path: pair.path, entry: pair.now)
            }
        }
        guard !gone.isEmpty, !added.isEmpty else {
            for path in gone { fates[path] = .deleted }
            return
        }
        // Pair by note id.
        let goneIDs = try Self.noteIDs(Dictionary(uniqueKeysWithValues: gone.compactMap { path in base[path].map { (path, $0) } }),
                                       repository: repository)
        let addedIDs = try Self.noteIDs(added, repository: repository)
        var idToGone: [String: [String]] = [:]
        for (path, id) in goneIDs { idToGone[id, default: []].append(path) }
        var paired = Set<String>()
        for (path, id) in addedIDs.sorted(by: { $0.key < $1.key }) {
            guard let candidates = idToGone[id], candidates.count == 1, let old = candidates.first,
                  !paired.contains(old), let entry = added[path] else { continue }
            fates[old] = .changed(path: path, entry: entry)
            added[path] = nil
            paired.insert(old)
        }
        // Then git's rename detection for what is left, never across two different ids (a new
        // note made from a template looks like a rename of the note it was made from).
        let remaining = Set(gone).subtracting(paired)
        if !remaining.isEmpty && !added.isEmpty {
            for delta in try repository.diff(from: baseTree, to: sideTree, detectRenames: true) where delta.kind == .renamed {
                guard remaining.contains(delta.oldPath), !paired.contains(delta.oldPath),
                      let entry = added[delta.newPath], goneIDs[delta.oldPath] == addedIDs[delta.newPath] else { continue }
                fates[delta.oldPath] = .changed(path: delta.newPath, entry: entry)
                added[delta.newPath] = nil
                paired.insert(delta.oldPath)
            }
        }
        for path in gone where !paired.contains(path) { fates[path] = .deleted }
    }

    func fate(of path: String) -> Fate { fates[path] ?? .unchanged }

    /// Every entry of `tree`, by path. Swift compares strings by canonical equivalence, so two
    /// names that differ only in their Unicode form (`café.md` precomposed and decomposed, which
    /// git keeps apart) are one key: the second such entry is listed under a free suffixed name
    /// (`café-2.md`), where a merge then keeps it, rather than replacing the first.
    /// `base`: the merge base's entries. Of two names equal under canonical equivalence, the one
    /// spelled byte for byte as the base spells it keeps the name, so that a twin new on this side
    /// (`né.md` decomposed beside a precomposed `né.md` the base has) is a new note, never an edit
    /// of the note the base knows (which the first in byte order was: merged with the other
    /// side's change to that note as one collision, one of the two notes' text was dropped).
    static func entriesByPath(_ tree: OID, repository: Repository,
                              base: [String: TreeEntry] = [:]) throws -> [String: TreeEntry] {
        var result: [String: TreeEntry] = [:]
        var twins: [TreeEntry] = []
        for entry in try repository.treeEntries(tree) {
            if let first = result[entry.path] {
                if let spelled = base[entry.path].map({ Array($0.path.utf8) }), Array(entry.path.utf8) == spelled,
                   Array(first.path.utf8) != spelled {
                    result[entry.path] = entry
                    twins.append(first)
                } else {
                    twins.append(entry)
                }
            } else {
                result[entry.path] = entry
            }
        }
        for entry in twins {
            let (stem, ext) = TreeMerger.split(entry.path)
            var counter = 2
            while result["\(stem)-\(counter)\(ext)"] != nil { counter += 1 }
            result["\(stem)-\(counter)\(ext)"] = entry
        }
        return result
    }

    /// The base path that this side or `other` turned into `path` (changed or moved there, or
    /// left there), as the merge paired them; nil when none did.
    static func basePath(leadingTo path: String, base: [String: TreeEntry], sides: [SideChanges]) -> String? {
        for basePath in base.keys.sorted() {
            for side in sides {
                switch side.fate(of: basePath) {
                case let .changed(now, _) where now == path: return basePath
                case .unchanged where basePath == path: return basePath
                default: continue
                }
            }
        }
        return nil
    }

    /// Note ids (lowercased) of the `.md` entries that have one.
    private static func noteIDs(_ entries: [String: TreeEntry], repository: Repository) throws -> [String: String] {
        var result: [String: String] = [:]
        for (path, entry) in entries {
            if let id = try noteID(entry, repository: repository) { result[path] = id }
        }
        return result
    }

    /// The note id (lowercased) of a `.md` file entry; nil for anything else or a note without one.
    private static func noteID(_ entry: TreeEntry, repository: Repository) throws -> String? {
        isNote(entry) ? noteID(try repository.blobData(entry.id), path: entry.path) : nil
    }

    private static func noteID(_ data: Data, path: String) -> String? {
        let id = NoteParser.parseFrontMatter(data, path: path).id?.lowercased()
        return id?.isEmpty == false ? id : nil
    }

    private static func isNote(_ entry: TreeEntry) -> Bool { entry.path.hasSuffix(".md") && entry.kind == .file }
}

/// Which side of a note is newer: `updatedAt`, else the commit time, ties to the larger blob id.
enum NewerSide {
    static func of(ours: (data: Data, time: Date), theirs: (data: Data, time: Date)) -> MergeWinner {
        let oursDate = NoteParser.parse(ours.data, path: "ours.md").updatedAt ?? ours.time
        let theirsDate = NoteParser.parse(theirs.data, path: "theirs.md").updatedAt ?? theirs.time
        if oursDate != theirsDate { return oursDate > theirsDate ? .ours : .theirs }
        return BlobHash.hex(ours.data) >= BlobHash.hex(theirs.data) ? .ours : .theirs
    }
}
