import Foundation
import QuireCore
import QuireGit

/// Moves the work tree and the index from one tree to another, file by file, without ever
/// overwriting a file the user changed meanwhile: such a file is left exactly as the user wrote
/// it, and the blob it was based on is returned so the next sync merges it three ways instead of
/// committing it as a revert.
struct WorkTreeUpdater {
    let repository: Repository
    let vault: Vault
    /// Whether this finishes an update a crash interrupted (`Journal.replay`): a file that update
    /// added may have been moved by the user since, and is not written again at its old path.
    var resuming = false
    /// Where replaced files go to be freed in the background (nil: freed as they are replaced).
    var retired: RetiredFiles?
    /// Called once the files are written, before the index is updated from them (a test hook:
    /// `QUIRE_FAULT=after-work-tree-writes`).
    var afterWrites: (() throws -> Void)?
    /// Called once every path is checked, before the files are written (a test hook:
    /// `QUIRE_FAULT=before-work-tree-writes`, `:stop` to play the user right then).
    var beforeWrites: (() throws -> Void)?

    /// What the update did.
    struct Outcome {
        /// Paths written or removed.
        var updated: [String] = []
        /// Path → blob id (hex) of the version the user's edit was based on.
        var keptUserEdits: [String: String] = [:]
        /// Paths left alone: submodules (never checked out), files behind a folder that is a link.
        var skipped: [SkippedPath] = []
        /// Files the user put, while the update ran, where it writes a folder (`Projects`, a file,
        /// where `Projects/plan.md` arrives): each moved to a free name (`Projects-2`), as a merge
        /// keeps a file and a folder of one name; the next sync commits it there.
        var movedAside: [(path: String, to: String)] = []
    }

    /// Updates files that differ between `old` (nil: empty) and `new`, then the index.
    func update(from old: OID?, to new: OID) throws -> Outcome {
        var before = try old.map { try entriesByPath($0) } ?? [:]
        let after = try entriesByPath(new)
        var outcome = Outcome()
        let index = try repository.index()
        try followUnicodeForms(before: &before, after: after, index: index)
        var writes: [(path: String, data: Data)] = []
        var written: [(path: String, entry: TreeEntry)] = []
        var expected: [String: TreeEntry?] = [:]
        let movedByUser = resuming ? try movedAdditions(before: before, after: after) : []
        var listings: [String: CaseFoldedNames] = [:]
        for path in Set(before.keys).union(after.keys).sorted() {
            let previous = before[path]
            let next = after[path]
            if previous?.id == next?.id && previous?.kind == next?.kind { continue }
            if previous?.kind == .submodule || next?.kind == .submodule {
                // Recorded in the index as git records it, never checked out.
                if let next, next.kind == .submodule {
                    outcome.skipped.append(SkippedPath(path: path, reason: NestedRepository.reason))
                    try index.add(entry: next)
                } else {
                    try? index.remove(path: path)
                }
                continue
            }
            let safe: String
            do {
                safe = try vault.resolveSafePath(path, checkingLastLink: false)  // a link there is replaced
            } catch {
                continue  // a path from the remote that would leave the vault is never written
            }
            if let reason = LinkedFolder.obstacle(to: safe, in: vault) {
                // Never written through a link (it may lead anywhere in the vault, `.git` included),
                // nor into another repository's work tree.
                outcome.skipped.append(SkippedPath(path: safe, reason: reason))
                if let next { try index.add(entry: next) } else { try? index.remove(path: safe) }
                continue
            }
            if next != nil {
                removeEmptyFolder(safe)
                try moveFileOutOfFolderPlace(of: safe, after: after, outcome: &outcome)
            }
            if try fileMatches(safe, next) {
                // Already there (a replayed update, or the user made the same change).
                if let next { try index.add(entry: next) } else { try? index.remove(path: safe) }
                continue
            }
            guard try fileMatches(safe, previous) else {
                if let previous { outcome.keptUserEdits[safe] = previous.id.hex }
                if let next, let beside = try keepsIncomingBeside(safe, previous: previous, next: next, after: after) {
                    outcome.updated.append(safe)
                    if try repository.isIgnoredFile(safe) {
                        // The file there is one this device ignores (`.git/info/exclude`, a
                        // `.gitignore`): it stays out of git. The index records the incoming
                        // note where it was written, so the next sync commits its move there —
                        // never the ignored file over it.
                        try? index.remove(path: safe)
                        try index.add(entry: TreeEntry(path: beside, id: next.id, kind: next.kind))
                        outcome.skipped.append(SkippedPath(
                            path: safe, reason: "this device ignores the file there; the incoming one is written as \(beside)"))
                        continue
                    }
                }
                if let next { try index.add(entry: next) } else { try? index.remove(path: safe) }
                continue
            }
            if previous == nil, let next, try holdsUntrackedCaseTwin(of: safe, before: before, after: after, listings: &listings) {
                // A file the user made meanwhile whose name differs from the arriving one only in
                // letter case (`Plan.md` where `plan.md` arrives, after the sync committed, or
                // while a crash kept its update waiting): one file on macOS and Windows, and a
                // pair no merge makes (`CaseFoldedNames`). The incoming file goes beside it, as
                // when the user's file is at its very name; the next sync commits both.
                if let beside = try keepsIncomingBeside(safe, previous: nil, next: next, after: after) {
                    outcome.updated.append(beside)
                }
                try index.add(entry: next)
                continue
            }
            if let next, movedByUser.contains(safe) {
                // Like a kept move: the index holds the new version, the next sync commits the move.
                try index.add(entry: next)
                continue
            }
            if let next {
                if next.kind == .link {
                    try write(next, to: safe)
                    try index.add(path: safe)
                } else {
                    writes.append((safe, try repository.workTreeData(next.id, path: safe)))
                    written.append((safe, next))
                    expected[safe] = .some(previous)
                }
            } else {
                try remove(safe)
                try? index.remove(path: safe)
            }
            outcome.updated.append(safe)
        }
        // Checked again right before each rename: the user may have saved the file while the
        // blobs were written and flushed; such a file is kept like any other user edit.
        try beforeWrites?()
        let edited = Set(try vault.writeAll(writes, replaceIf: { path in
            guard let previous = expected[path] else { return false }
            return (try? fileMatches(path, previous)) ?? false
        }, retiring: retired, followingLinks: false))
        retired?.startPurge()
        try afterWrites?()
        for path in edited {
            outcome.updated.removeAll { $0 == path }
            if let previous = expected[path] ?? nil {
                outcome.keptUserEdits[path] = previous.id.hex
            } else if let entry = written.first(where: { $0.path == path })?.entry,
                      let beside = try keepsIncomingBeside(path, previous: nil, next: entry, after: after) {
                // An addition whose place the user took meanwhile (a file, or a folder of notes,
                // saved there after the path was checked): the incoming file goes beside it, as
                // when the user's was there first. Left out, the index held it where the disk did
                // not, and the next sync committed its deletion (soak seed 7064).
                outcome.updated.append(beside)
            }
        }
        for (path, entry) in written {
            if edited.contains(path) {
                try index.add(entry: entry)  // like any kept edit: the index holds the new version
                continue
            }
            if entry.kind == .executable {
                try? FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: vault.url(for: path).path)
            }
            do {
                // The blob's entry first, as a checkout leaves it: staging the file then goes
                // through the clean filter as git's does, which keeps the CRLF a blob already
                // holds (`core.autocrlf`). Staged as a new path, a CRLF note became an LF blob,
                // committed by the next sync though no one changed it.
                try index.add(entry: entry)
                try index.add(path: path)
            } catch is GitError where !FileManager.default.fileExists(atPath: vault.url(for: path).path) {
                // Moved or deleted by the user right after it was written: the index holds the
                // new version, and the next sync commits what the user did to it.
                try index.add(entry: entry)
            }
        }
        try index.write()
        return outcome
    }

    /// The user changed `path` while the update ran, in a way no three-way merge can take up
    /// later: a file created where the update adds one (add/add: the incoming one is written
    /// beside it with a `-2` suffix). Returns where it wrote the incoming file, if it did.
    private func keepsIncomingBeside(_ path: String, previous: TreeEntry?, next: TreeEntry,
                                     after: [String: TreeEntry]) throws -> String? {
        // A note deleted (or moved away) meanwhile is left to the next sync, which finds a move
        // by the note's id and lets a real incoming change beat the deletion (`Stamper`).
        if previous != nil { return nil }
        let candidate = freePath(beside: path, after: after)
        try write(next, to: candidate)
        return candidate
    }

    /// Whether the folder of `path` holds on disk a name that differs from it only in letter
    /// case and that neither tree has (the user's own new file). `listings`: each folder's names,
    /// read once, before this update writes any file.
    private func holdsUntrackedCaseTwin(of path: String, before: [String: TreeEntry], after: [String: TreeEntry],
                                        listings: inout [String: CaseFoldedNames]) throws -> Bool {
        let (folder, name) = Self.folderAndName(of: path)
        if listings[folder] == nil { listings[folder] = namesOnDisk(in: folder) }
        return listings[folder]?.twins(of: name).contains { twin in
            let twinPath = folder.isEmpty ? twin : folder + "/" + twin
            return before[twinPath] == nil && after[twinPath] == nil
        } ?? false
    }

    /// `path-2`, `path-3`, … (`a-2.md` for a note): the first name neither the new tree (as a
    /// file or a folder) nor the disk holds (a link counts, even one that leads nowhere). Asked
    /// only where a file is in the way, so the look at every path of the tree is rare.
    private func freePath(beside path: String, after: [String: TreeEntry]) -> String {
        // A name in another letter case is taken too (one file on macOS and Windows): in the new
        // tree (`PLAN-2.md` there, so `plan-3.md`), and on disk in the folder.
        let inTree = CaseFoldedNames(after.keys)
        let onDisk = namesOnDisk(in: Self.folderAndName(of: path).folder)
        return BesideName.free(beside: path) { candidate in
            after[candidate] != nil || BesideName.exists(candidate, in: vault)
                || after.keys.contains(where: { $0.hasPrefix(candidate + "/") })
                || !inTree.twins(of: candidate).isEmpty || !onDisk.twins(of: Self.folderAndName(of: candidate).name).isEmpty
        }
    }

    /// The names in `folder` (vault-relative, "" for the root) on disk, by their case-folded form.
    private func namesOnDisk(in folder: String) -> CaseFoldedNames {
        CaseFoldedNames((try? FileManager.default.contentsOfDirectory(atPath: vault.url(for: folder.isEmpty ? "." : folder).path)) ?? [])
    }

    /// `Notes/plan.md` as `Notes` and `plan.md` (`""` and the path for a file at the root).
    private static func folderAndName(of path: String) -> (folder: String, name: String) {
        guard let slash = path.lastIndex(of: "/") else { return ("", path) }
        return (String(path[..<slash]), String(path[path.index(after: slash)...]))
    }

    /// A file where the update must make a folder for `path` (`Projects`, where
    /// `Projects/plan.md` arrives) is one the user put there while the update ran: the sync
    /// committed the vault before it merged, and a merge keeps no file where its tree has a
    /// folder (`TreeMerger.separateFilesFromFolders`). It moves to a free name, as the merge would
    /// have moved it, and is listed; left there, the folder could not be made, the update failed,
    /// and every later sync failed finishing it. A user's edit kept at that path (a note the
    /// update replaces by a folder) goes with the file: the next sync commits it under its new
    /// name. A link there is the caller's (`LinkedFolder`); the file the update itself removes
    /// there is gone by now (the paths go in order: `Projects` before `Projects/plan.md`).
    private func moveFileOutOfFolderPlace(of path: String, after: [String: TreeEntry], outcome: inout Outcome) throws {
        let parts = path.split(separator: "/").dropLast()
        guard !parts.isEmpty else { return }
        var status = stat()
        // The usual case, in one call: the file's folder is there (so are the folders above it).
        if lstat(vault.url(for: parts.joined(separator: "/")).path, &status) == 0, status.st_mode & S_IFMT == S_IFDIR { return }
        var folder = ""
        for part in parts {
            folder += folder.isEmpty ? String(part) : "/" + part
            guard lstat(vault.url(for: folder).path, &status) == 0 else { return }  // made with the file
            let type = status.st_mode & S_IFMT
            guard type != S_IFDIR && type != S_IFLNK else { continue }  // a folder (a link is the caller's)
            let copy = freePath(beside: folder, after: after)
            guard rename(vault.url(for: folder).path, vault.url(for: copy).path) == 0 else {
                throw SyncError.file(path: folder, reason: "cannot move it to \(copy) to make the folder \(folder)/ "
                                     + "that arrives there (\(String(cString: strerror(errno))))")
            }
            outcome.movedAside.append((folder, copy))
            outcome.keptUserEdits[folder] = nil
            return
        }
    }

    /// Whether something is at `path` that is not the file at `source` (on a file system that
    /// ignores the Unicode form of names, both names are one file: that rename goes ahead).
    private static func holdsAnotherFile(_ path: String, than source: String) -> Bool {
        var target = stat(), moving = stat()
        guard lstat(path, &target) == 0 else { return false }
        guard lstat(source, &moving) == 0 else { return true }
        return target.st_ino != moving.st_ino || target.st_dev != moving.st_dev
    }

    /// Files the interrupted update added that are gone from their paths while a file the old
    /// tree did not have holds the same bytes, or (a note) the same id: the user moved them
    /// after that update wrote them. Writing them again would leave two copies of one note.
    private func movedAdditions(before: [String: TreeEntry], after: [String: TreeEntry]) throws -> Set<String> {
        let gone = after.filter { before[$0.key] == nil && $0.value.kind != .link
            && !FileManager.default.fileExists(atPath: vault.url(for: $0.key).path) }
        guard !gone.isEmpty else { return [] }
        var hashes = Set<String>(), ids = Set<String>()
        for entry in try repository.status() where entry.kind == .added && entry.inWorkTree && before[entry.path] == nil
            && after[entry.path] == nil {
            guard let data = try? Data(contentsOf: vault.url(for: entry.path)) else { continue }
            hashes.insert(BlobHash.hex(data))
            if entry.path.hasSuffix(".md"), let id = NoteParser.parse(data, path: entry.path).id?.lowercased() { ids.insert(id) }
        }
        var moved = Set<String>()
        for (path, entry) in gone {
            if hashes.contains(entry.id.hex) {
                moved.insert(path)
            } else if path.hasSuffix(".md"), !ids.isEmpty,
                      let id = NoteParser.parse(try repository.blobData(entry.id), path: path).id?.lowercased(), ids.contains(id) {
                moved.insert(path)
            }
        }
        return moved
    }

    /// An empty folder where a file arrives holds nothing git knows of (git keeps no folders; a
    /// move out of it, or a file manager, leaves one): it goes, so the file can be written. Kept,
    /// it looked like the user's edit, and every later commit failed on it.
    private func removeEmptyFolder(_ path: String) {
        let url = vault.url(for: path)
        guard (try? FileManager.default.attributesOfItem(atPath: url.path)[.type] as? FileAttributeType) == .typeDirectory,
              (try? FileManager.default.contentsOfDirectory(atPath: url.path))?.isEmpty == true else { return }
        try? FileManager.default.removeItem(at: url)  // one that cannot go is named by the next commit
    }

    /// A name whose Unicode form changed between the trees (`café.md` precomposed in one and
    /// decomposed in the other: one key of these dictionaries, as Swift compares strings, but two
    /// names to git and to Linux): the file is first renamed to the new tree's bytes, so the
    /// update works on the name the new tree holds and no file stays behind under the old form.
    private func followUnicodeForms(before: inout [String: TreeEntry], after: [String: TreeEntry], index: Index) throws {
        for (path, next) in after.sorted(by: { $0.key < $1.key }) {
            guard let previous = before[path], Array(previous.path.utf8) != Array(next.path.utf8) else { continue }
            // Its folder first: the form may have changed in a folder's name (`Résumé/n.md`), a
            // folder this device does not have yet. The rename failed, the file stayed under the
            // old form, and the update took it for the user's edit.
            // Never through a link, nor into another repository (the update skips that path).
            guard LinkedFolder.obstacle(to: next.path, in: vault) == nil else { continue }
            let target = vault.url(for: next.path)
            try? FileManager.default.createDirectory(at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
            // Never over a file already at the new name: a replay of an update that died after its
            // renames finds each file there already, and the name a twin leaves (`né.md`, written
            // in the other form) then holds its twin's note, which a second rename put over the
            // `né-2.md` the first had made (seed 6000 of the soak lost a note so). A file the user
            // saved there stays too; the old name's file is then the next sync's to commit.
            // A file left there is compared, as any, with the version the move would have put there.
            let source = vault.url(for: previous.path).path
            if !Self.holdsAnotherFile(target.path, than: source), rename(source, target.path) != 0 && errno != ENOENT {
                throw SyncError.file(path: previous.path, reason: "cannot rename it to \(next.path) (\(String(cString: strerror(errno))))")
            }
            let moved = TreeEntry(path: next.path, id: previous.id, kind: previous.kind)
            try? index.remove(path: previous.path)
            try index.add(entry: moved)
            before[path] = nil
            before[next.path] = moved
        }
    }

    /// The files of `tree` by path (two names equal but for their Unicode form: the second
    /// under a suffixed name, as the merge sees them — written there, never over the first).
    private func entriesByPath(_ tree: OID) throws -> [String: TreeEntry] {
        try SideChanges.entriesByPath(tree, repository: repository)
    }

    /// Whether the file on disk is what `entry` says it was (absent when `entry` is nil). A link
    /// is compared as a link (never followed): a link where a file was is a change, and back.
    private func fileMatches(_ path: String, _ entry: TreeEntry?) throws -> Bool {
        let url = vault.url(for: path)
        var status = stat()
        let exists = lstat(url.path, &status) == 0
        guard let entry else { return !exists }
        let type = status.st_mode & S_IFMT
        guard exists, type != S_IFDIR, (type == S_IFLNK) == (entry.kind == .link) else { return false }
        if entry.kind == .link {
            let target = try? FileManager.default.destinationOfSymbolicLink(atPath: url.path)
            return target.map { BlobHash.hex(Data($0.utf8)) == entry.id.hex } ?? false
        }
        guard let data = try? Data(contentsOf: url) else { return false }
        if BlobHash.hex(data) == entry.id.hex { return true }
        // Compared as git compares: through the filters (`core.autocrlf`, eol rules), which
        // change only files with a carriage return (or an `$Id` to collapse).
        guard data.contains(0x0D) || data.range(of: Data("$Id".utf8)) != nil else { return false }
        return try repository.hashWorkTreeFile(path) == entry.id
    }

    private func write(_ entry: TreeEntry, to path: String) throws {
        let url = vault.url(for: path)
        let data = try repository.blobData(entry.id)
        do {
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        } catch {
            throw SyncError.file(path: path, reason: "cannot create its folder (\(error.localizedDescription))")
        }
        if entry.kind == .link {
            try? FileManager.default.removeItem(at: url)
            let target = String(decoding: data, as: UTF8.self)
            do {
                try FileManager.default.createSymbolicLink(atPath: url.path, withDestinationPath: target)
            } catch {
                throw SyncError.file(path: path, reason: "cannot create the link (\(error.localizedDescription))")
            }
            return
        }
        try vault.write(data, to: path, followingLinks: false)
        if entry.kind == .executable {
            try? FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: url.path)
        }
    }

    private func remove(_ path: String) throws {
        let url = vault.url(for: path)
        guard FileManager.default.fileExists(atPath: url.path) || (try? FileManager.default.destinationOfSymbolicLink(atPath: url.path)) != nil else { return }
        do {
            try FileManager.default.removeItem(at: url)
        } catch {
            throw SyncError.file(path: path, reason: "cannot remove it (\(error.localizedDescription))")
        }
        // Remove folders the deletion left empty (never the root).
        var folder = url.deletingLastPathComponent()
        while folder.path.count > vault.root.path.count,
              let items = try? FileManager.default.contentsOfDirectory(atPath: folder.path), items.isEmpty {
            try? FileManager.default.removeItem(at: folder)
            folder = folder.deletingLastPathComponent()
        }
    }
}
