import Foundation
import QuireCore

/// Where imported notes go and how they are written, for every kind of import: an entry is a
/// duplicate when a note of the vault with its id holds the same bytes or is at its path (that
/// note, changed since), or when an earlier entry of the input is the same (same id and bytes,
/// and same path unless the import chose it) — entries that only share an id are all written;
/// a path already holding the same bytes makes an entry a duplicate too, different bytes make it
/// fail (a user's file is never overwritten); new file names never collide with files on disk
/// or earlier entries. Notes are
/// written in batches with one flush each (`Vault.writeAll`): every file is whole or absent
/// after a crash.
struct ImportWriter {
    /// Notes per batch: one flush each, and a progress report after each.
    static let batchSize = 1000

    let vault: Vault
    private(set) var report = ImportReport()
    /// The paths of the vault's notes before the import, by id.
    private let vaultIDs: [String: [String]]
    /// The entries of this import queued or written, by id (nil: entries without one).
    private var earlierEntries: [String?: [(index: Int, path: String, data: Data, chosenPath: Bool)]] = [:]
    /// Lowercased file names per folder: on disk (read once per folder) and planned.
    private var takenNames: [String: Set<String>] = [:]
    private var pending: [(index: Int, path: String, id: String?, data: Data, modified: Date?, source: String?)] = []
    private let total: Int
    private let progress: ImportProgress?

    /// A writer into `vault`, whose notes' ids are `existingIDs` (id → paths); `total` entries
    /// are expected (for `progress`).
    init(vault: Vault, existingIDs: [String: [String]], total: Int, progress: ImportProgress?) {
        self.vault = vault
        self.vaultIDs = existingIDs
        self.total = total
        self.progress = progress
    }

    /// The path of a note of the vault holding `id` before the import, if any.
    func path(holding id: String) -> String? { vaultIDs[id]?.first }

    /// Records an entry that failed.
    mutating func fail(_ index: Int, _ reason: String, source: String? = nil) {
        report.failed.append(.init(index: index, reason: reason, source: source))
        reportProgress()
    }

    /// Records a duplicate (of entry `earlierIndex` of this import, or of a note of the vault).
    mutating func skip(_ index: Int, id: String?, existingPath: String, earlierIndex: Int? = nil) {
        report.skipped.append(.init(index: index, id: id, existingPath: existingPath, earlierIndex: earlierIndex))
        reportProgress()
    }

    /// A free `folder/<name>.md` for `title`, named in `style` (the vault's `fileNames`) and
    /// numbered past files on disk and notes queued in this import (`FreeFileName`, the rule
    /// `quire new` follows); `add` then claims it.
    mutating func availablePath(folder: String, title: String, style: FileNameStyle) -> String {
        let name = FreeFileName.first(style.fileName(forTitle: title), taken: names(in: folder))
        return folder.isEmpty ? name : folder + "/" + name
    }

    /// Queues `data` for `path` (a safe vault path) unless it is a duplicate (see the type) or the
    /// path is taken: same bytes on disk → skipped; other bytes, or an earlier entry of this
    /// import → failed. `chosenPath`: the import chose the path (a journal entry without one).
    /// `modified` is given to the written file as its modification time (a copied file keeps its own).
    mutating func add(index: Int, path: String, id: String?, data: Data, chosenPath: Bool = false,
                      source: String? = nil, modified: Date? = nil) throws {
        if let id, let existing = (vaultIDs[id] ?? []).first(where: { $0 == path || (try? Data(contentsOf: vault.url(for: $0))) == data }) {
            skip(index, id: id, existingPath: existing)
            return
        }
        if let same = earlierEntries[id]?.first(where: { $0.data == data && (chosenPath && $0.chosenPath || $0.path == path) }) {
            skip(index, id: id, existingPath: same.path, earlierIndex: same.index)
            return
        }
        let folder = (path as NSString).deletingLastPathComponent
        let name = (path as NSString).lastPathComponent.lowercased()
        var taken = names(in: folder)
        if taken.contains(name) {
            if let onDisk = try? Data(contentsOf: vault.url(for: path)) {
                if onDisk == data {
                    skip(index, id: id, existingPath: path)
                } else {
                    fail(index, "a different file is already at \(path)", source: source)
                }
            } else {
                fail(index, "an earlier entry of this import already goes to \(path)", source: source)
            }
            return
        }
        taken.insert(name)
        takenNames[folder] = taken
        earlierEntries[id, default: []].append((index, path, data, chosenPath))
        pending.append((index, path, id, data, modified, source))
        if pending.count >= Self.batchSize { try flush() }
    }

    /// Writes the queued notes: one flush for the batch; when the batch fails as a whole (a full
    /// disk, a folder that cannot be made), each note is tried alone so the report says which.
    mutating func flush() throws {
        guard !pending.isEmpty else { return }
        let batch = pending
        pending = []
        do {
            try vault.writeAll(batch.map { ($0.path, $0.data) })
            for entry in batch {
                report.imported.append(.init(index: entry.index, path: entry.path, id: entry.id))
                keepTime(entry.modified, of: entry.path)
            }
        } catch {
            for entry in batch {
                do {
                    try vault.write(entry.data, to: entry.path)
                    report.imported.append(.init(index: entry.index, path: entry.path, id: entry.id))
                    keepTime(entry.modified, of: entry.path)
                } catch {
                    earlierEntries[entry.id]?.removeAll { $0.index == entry.index }
                    report.failed.append(.init(index: entry.index, reason: String(describing: error), source: entry.source))
                }
            }
        }
        reportProgress()
    }

    /// The report, entries sorted by index, after the last flush.
    mutating func finish() throws -> ImportReport {
        try flush()
        report.imported.sort { $0.index < $1.index }
        report.failed.sort { $0.index < $1.index }
        report.skipped.sort { $0.index < $1.index }
        return report
    }

    /// Records an attachment copied or found unchanged.
    mutating func attachment(_ copied: ImportReport.Copied?) {
        if let copied { report.attachments.append(copied) } else { report.attachmentsUnchanged += 1 }
        reportProgress()
    }

    /// Gives `path` the modification time `modified` (a note's date when its front matter has
    /// none); a failure only loses that time, the file is whole.
    func keepTime(_ modified: Date?, of path: String) {
        guard let modified else { return }
        try? FileManager.default.setAttributes([.modificationDate: modified], ofItemAtPath: vault.url(for: path).path)
    }

    private mutating func names(in folder: String) -> Set<String> {
        if let names = takenNames[folder] { return names }
        let listed = (try? FileManager.default.contentsOfDirectory(atPath: vault.url(for: folder).path)) ?? []
        let names = Set(listed.map { $0.lowercased() })
        takenNames[folder] = names
        return names
    }

    private func reportProgress() {
        let total = self.total
        progress?(report.total + report.attachments.count + report.attachmentsUnchanged, total)
    }
}
