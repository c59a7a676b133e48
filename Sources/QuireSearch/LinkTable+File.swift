import Foundation
import QuireCore

/// The link table's file, `.quire/cache/links.bin`: `SnapshotFile`'s format (magic `QUIRELNK`,
/// the snapshot's version, a checksum per section and of the header, replaced atomically),
/// with these sections.
extension LinkTable {
    /// The sections of `links.bin`, in the order of its section table.
    enum Section: Int, CaseIterable {
        /// The notes' paths and titles: bytes, then `notes + 1` u32 offsets.
        case pathBytes, pathOffsets, titleBytes, titleOffsets
        /// Per note: content hash (u64), base slot (u32), flags (u8).
        case hashes, origins, flags
        /// The edges: `notes + 1` u32 starts, a u32 target and a kind byte each.
        case edgeStarts, targets, kinds
        /// The incoming index: `notes + 1` u32 starts, u32 edge indices.
        case incomingStarts, incoming
        /// The attachments and the ambiguous links' files: bytes and u32 offsets; then where
        /// each list of files begins.
        case attachmentBytes, attachmentOffsets, candidateBytes, candidateOffsets, candidateStarts
        /// The id of the catalog base file the base slots belong to (u64).
        case baseID
        /// The edges whose context line is kept (u32, ascending), and the lines: bytes and u32
        /// offsets.
        case contextEdges, contextBytes, contextOffsets
    }

    /// Writes the table to `path` (atomically; a failure keeps the old file), each section
    /// straight from the array or bytes that hold it (no copy of the table made first).
    func write(to path: String) throws(CacheError) {
        typealias Bytes = (UnsafeRawBufferPointer) -> Void
        func array<T: BitwiseCopyable>(_ values: [T]) -> (Bytes) -> Void { { values.withUnsafeBytes($0) } }
        func array<T>(_ values: LinkColumn<T>) -> (Bytes) -> Void { { values.withUnsafeBytes($0) } }
        func strings(_ list: PackedStrings) -> (Bytes) -> Void { { list.withAllBytes($0) } }
        let sections: [(Bytes) -> Void] = [
            strings(paths), array(paths.offsets), strings(titles), array(titles.offsets),
            array(hashes), array(origins), array(flags),
            array(edgeStarts), array(targets), array(kinds),
            array(incomingStarts), array(incoming),
            strings(attachments), array(attachments.offsets), strings(candidates), array(candidates.offsets),
            array(candidateStarts), array([baseID]),
            array(contextEdges), strings(contexts), array(contexts.offsets),
        ]
        // Each section's bytes stay where they are while the ones after it are reached, and the
        // file is written inside the innermost call.
        var written: Result<DispatchGroup?, CacheError> = .success(nil)
        func nest(_ index: Int, _ chunks: [SnapshotFile.Chunk]) {
            guard index < sections.count else {
                written = Result { () throws(CacheError) in
                    try SnapshotFile.write(chunks, kind: .links, id: UInt64.random(in: 1...UInt64.max), to: path)
                }
                return
            }
            sections[index]({ bytes in
                nest(index + 1, chunks + [bytes.baseAddress.map { .raw($0, bytes.count) } ?? .bytes([])])
            })
        }
        nest(0, [])
        _ = try written.get()?.wait()
    }

    /// Reads the table at `path`; throws when it is missing, of another version, damaged, or
    /// its parts do not fit together. Every offset and index is checked when the checksums are
    /// (before the file is marked verified, `SnapshotFile.read`'s `validate`); a file marked
    /// since, not written after, is read with its counts checked alone (every edge's bounds
    /// checked on each read was a sixth of opening the table at 100,000 notes).
    static func read(_ path: String, now: Date = Date()) throws(CacheError) -> LinkTable {
        var checked: LinkTable?
        let contents = try SnapshotFile.read(path, kind: .links, now: now) { contents throws(CacheError) in
            checked = try table(in: contents, checkingParts: true)
        }
        if let checked { return checked }
        return try table(in: contents, checkingParts: false)
    }

    /// The table of `contents`; with `checkingParts`, every offset and index is checked too
    /// (`fitsTogether`), else only the counts (`countsAgree`).
    private static func table(in contents: SnapshotFile.Contents, checkingParts: Bool) throws(CacheError) -> LinkTable {
        // The numbers are used where they lie in the mapped file (`LinkColumn`).
        func column<T: BitwiseCopyable & Equatable>(_ section: Section, _: T.Type = T.self) throws(CacheError) -> LinkColumn<T> {
            let (offset, length) = contents.sections[section.rawValue]
            guard length % MemoryLayout<T>.stride == 0 else { throw .corrupt("bad link table section \(section)") }
            return LinkColumn(mapped: FlatColumn(memory: contents.memory, byteOffset: offset, count: length / MemoryLayout<T>.stride))
        }
        func array<T: BitwiseCopyable & Equatable>(_ section: Section, _: T.Type = T.self) throws(CacheError) -> [T] {
            Array(try column(section, T.self))
        }
        func strings(_ bytes: Section, _ offsets: Section) throws(CacheError) -> PackedStrings {
            let (offset, length) = contents.sections[bytes.rawValue]
            guard let strings = PackedStrings(memory: contents.memory, offset: offset, count: length, offsets: try column(offsets),
                                              checkingOrder: checkingParts) else {
                throw .corrupt("bad link table strings")
            }
            return strings
        }
        guard let baseID = try array(.baseID, UInt64.self).first else { throw .corrupt("no base id") }
        var table = LinkTable(baseID: baseID)
        table.paths = try strings(.pathBytes, .pathOffsets)
        table.titles = try strings(.titleBytes, .titleOffsets)
        table.hashes = try column(.hashes)
        table.origins = try column(.origins)
        table.flags = try column(.flags)
        table.edgeStarts = try column(.edgeStarts)
        table.targets = try column(.targets)
        table.kinds = try column(.kinds)
        table.incomingStarts = try column(.incomingStarts)
        table.incoming = try column(.incoming)
        table.attachments = try strings(.attachmentBytes, .attachmentOffsets)
        table.candidates = try strings(.candidateBytes, .candidateOffsets)
        table.candidateStarts = try column(.candidateStarts)
        table.contextEdges = try column(.contextEdges)
        table.contexts = try strings(.contextBytes, .contextOffsets)
        guard checkingParts ? table.fitsTogether : table.countsAgree else {
            throw .corrupt("the link table's parts do not fit together")
        }
        return table
    }

    /// Whether the lists' counts agree with one another (no value read past the first and last
    /// of each list of starts).
    private var countsAgree: Bool {
        let notes = count
        func bounded(_ starts: LinkColumn<UInt32>, count: Int, end: Int) -> Bool {
            starts.count == count + 1 && starts.first == 0 && Int(starts[count]) == end
        }
        return paths.count == notes && titles.count == notes && origins.count == notes && flags.count == notes
            && bounded(edgeStarts, count: notes, end: targets.count) && kinds.count == targets.count
            && bounded(incomingStarts, count: notes, end: incoming.count)
            && bounded(candidateStarts, count: candidateStarts.count - 1, end: candidates.count)
            && contexts.count == contextEdges.count
    }

    /// Whether every count, offset and index agrees (a file made to pass its checksums is still
    /// never read out of bounds; the paths' order is not checked, which would read them all).
    private var fitsTogether: Bool {
        func ascending(_ starts: LinkColumn<UInt32>) -> Bool { zip(starts, starts.dropFirst()).allSatisfy { $0 <= $1 } }
        let notes = count
        guard countsAgree, ascending(edgeStarts), ascending(incomingStarts), ascending(candidateStarts),
              incoming.allSatisfy({ Int($0) < targets.count }), contextsFit else { return false }
        for (target, kind) in zip(targets, kinds) {
            switch Kind(rawValue: kind & 3) {
            case .note: guard Int(target) < notes else { return false }
            case .attachment: guard Int(target) < attachments.count else { return false }
            case .ambiguous: guard Int(target) < candidateStarts.count - 1 else { return false }
            case .unresolved, nil: break
            }
        }
        return true
    }
}

extension CatalogStore {
    /// Where the link table is kept.
    public var linkTablePath: String { root + "/.quire/cache/links.bin" }

    /// The resolved links of the catalog's notes over `attachments` (vault paths): the table in
    /// `.quire/cache/links.bin` brought up to date (`keptLinkTable`), or resolved whole when
    /// that cannot be done. Written back when it changed; a failed write is in the table's
    /// `cacheIssue` (its answers are still right).
    public func linkTable(attachments: [String]) -> LinkTable {
        let (baseID, recentHashes) = linkTableBasis
        let table = storedLinkTable(baseID: baseID, recentHashes: recentHashes, attachments: attachments)
            ?? LinkTable.resolvedWhole(catalog: catalog, baseID: baseID, hashOf: contentHashesBySlot(), attachments: attachments)
        return writtenBack(table, baseID: baseID)
    }

    /// The table in `.quire/cache/links.bin` brought up to date, only the notes a change can
    /// affect resolved again (`LinkTable.updated`, however many: never the whole table), and
    /// written back when it changed; nil when that file is missing, damaged, of another version
    /// or not one the catalog can be matched to (what a command reading one note's links asks:
    /// it answers at query time instead). So a pull or sync of many notes costs the first link
    /// command after it the resolving of what changed, once, and no later one.
    /// A stored table that cannot be matched is removed, so that the one-note commands after it
    /// answer at query time straight away instead of each trying again; the next command that
    /// reads every link resolves it whole.
    public func keptLinkTable(attachments: [String]) -> LinkTable? {
        let (baseID, recentHashes) = linkTableBasis
        guard let stored = try? LinkTable.read(linkTablePath) else { return nil }
        guard let table = stored.updated(catalog: catalog, baseID: baseID, recentHashes: recentHashes,
                                         liveHashes: contentHashesBySlot, attachments: attachments, bounded: false) else {
            unlink(linkTablePath)
            return nil
        }
        return writtenBack(table, baseID: baseID)
    }

    /// The stored table brought up to date, nil when there is none usable.
    private func storedLinkTable(baseID: UInt64?, recentHashes: [UInt64], attachments: [String]) -> LinkTable? {
        guard let stored = try? LinkTable.read(linkTablePath) else { return nil }
        return stored.updated(catalog: catalog, baseID: baseID, recentHashes: recentHashes, liveHashes: contentHashesBySlot,
                              attachments: attachments)
    }

    /// `table`, written to `linkTablePath` first when it changed and the base is a file's.
    private func writtenBack(_ table: LinkTable, baseID: UInt64?) -> LinkTable {
        guard table.changed, baseID != nil else { return table }
        var table = table
        do throws(CacheError) {
            try table.write(to: linkTablePath)
        } catch {
            table.cacheIssue = error
        }
        return table
    }
}
