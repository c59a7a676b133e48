import Foundation
import QuireCore

extension LinkTable {
    /// The table of every live note of `catalog`, every link resolved (`LinkGraph.resolutions`,
    /// over all the notes and `attachments`, on every core). `baseID` names the catalog's base
    /// file (nil: none on disk) and `hashOf` the content hash of each live note by document
    /// (what the table tells unchanged notes by when the base changes).
    static func resolvedWhole(catalog: Catalog, baseID: UInt64?, hashOf: (Int) -> UInt64, attachments: [String]) -> LinkTable {
        var documents: [Int] = []
        documents.reserveCapacity(catalog.count)
        for document in 0..<catalog.capacity where catalog.isLive(document) { documents.append(document) }
        let unsorted = documents.map(catalog.transientRecord)
        let order = unsorted.indices.sorted { PathOrder.precedes(unsorted[$0].path, unsorted[$1].path) }
        let records = order.map { unsorted[$0] }
        var table = LinkTable(baseID: baseID ?? 0)
        table.attachments = PackedStrings(Self.sortedAttachments(attachments))
        var noteIndex: [ExactPath: Int] = [:]
        noteIndex.reserveCapacity(records.count)
        let baseCount = catalog.base.count
        for (index, record) in records.enumerated() {
            let document = documents[order[index]]
            noteIndex[ExactPath(record.path)] = index
            table.appendNote(path: record.path, title: record.title, hasTitle: record.hasTitle,
                             hash: hashOf(document),
                             origin: document < baseCount ? UInt32(document) : recentOrigin, document: document)
        }
        let attachmentIndex = table.attachmentIndex()
        let resolutions = LinkGraph.resolutions(of: records, attachments: attachments)
        for (index, record) in records.enumerated() {
            table.flags[index] |= Self.longKeyFlag(record)
            for (link, resolution) in zip(record.links, resolutions[index]) {
                let anchors = resolution.notePath.flatMap { noteIndex[ExactPath($0)] }.map { records[$0].anchors }
                table.appendEdge(resolution, link: link, anchor: LinkResolver.anchorStatus(of: link, in: anchors),
                                 note: { noteIndex[ExactPath($0)] }, attachment: { attachmentIndex[ExactPath($0)] })
            }
            table.edgeStarts.append(UInt32(table.targets.count))
        }
        table.indexIncoming()
        table.resolvedNotes = records.count
        table.resolvedWhole = true
        return table
    }

    /// Attachment paths sorted by their bytes, each once.
    static func sortedAttachments(_ attachments: [String]) -> [String] {
        var seen = Set<ExactPath>()
        return attachments.filter { seen.insert(ExactPath($0)).inserted }.sorted(by: ExactPath.precedes)
    }

    /// `longKeyFlag` when a link of `record` has a name key too long for the index's link terms
    /// (such a link is found by no `\u{1}L:` term), else 0.
    static func longKeyFlag(_ record: NoteRecord) -> UInt8 {
        record.links.contains { link in
            LinkTarget.nameKey(of: link.target).map { $0.utf8.count > Attribute.maximumNameBytes } ?? false
        } ? longKeyFlag : 0
    }

    /// The index of each attachment by path.
    func attachmentIndex() -> [ExactPath: Int] {
        var index: [ExactPath: Int] = [:]
        for position in 0..<attachments.count { index[ExactPath(attachments[position])] = position }
        return index
    }

    /// Adds a note (its edges follow, ended by appending to `edgeStarts`).
    mutating func appendNote(path: String, title: String, hasTitle: Bool, hash: UInt64, origin: UInt32, document: Int) {
        paths.append(path)
        titles.append(title)
        hashes.append(hash)
        origins.append(origin)
        flags.append(hasTitle ? Self.hasTitleFlag : 0)
        documents.append(document)
    }

    /// Adds the edge of `link` leading to `resolution`; `note` and `attachment` give the index
    /// of a path (a resolution names only files the table holds).
    mutating func appendEdge(_ resolution: LinkResolution, link: NoteLink, anchor: AnchorStatus,
                             note: (String) -> Int?, attachment: (String) -> Int?) {
        var kind: Kind
        var target = 0
        switch resolution {
        case .note(let path):
            kind = .note
            if let index = note(path) { target = index } else { kind = .unresolved }
        case .attachment(let path):
            kind = .attachment
            if let index = attachment(path) { target = index } else { kind = .unresolved }
        case .ambiguous(let files):
            kind = .ambiguous
            target = candidateStarts.count - 1
            for file in files { candidates.append(file) }
            candidateStarts.append(UInt32(candidates.count))
        case .unresolved:
            kind = .unresolved
        }
        targets.append(UInt32(target))
        kinds.append(kind.rawValue | Self.anchorBits(anchor) | (link.isSelfLink ? Self.selfLinkBit : 0))
    }

    /// Copies edge `edge` of `old` (whose note did not change and none of whose links can lead
    /// elsewhere now), its note and attachment renumbered; false when a target is gone.
    mutating func copyEdge(_ edge: Int, of old: LinkTable, notes: [Int32], attachments: [Int32]?) -> Bool {
        var target = Int(old.targets[edge])
        switch Kind(rawValue: old.kinds[edge] & 3) {
        case .note:
            guard notes[target] >= 0 else { return false }
            target = Int(notes[target])
        case .attachment:
            if let attachments {
                guard attachments[target] >= 0 else { return false }
                target = Int(attachments[target])
            }
        case .ambiguous:
            for candidate in Int(old.candidateStarts[target])..<Int(old.candidateStarts[target + 1]) {
                candidates.append(candidate, of: old.candidates)
            }
            target = candidateStarts.count - 1
            candidateStarts.append(UInt32(candidates.count))
        case .unresolved, nil:
            break
        }
        targets.append(UInt32(target))
        kinds.append(old.kinds[edge])
        copyContext(edge, of: old)
        return true
    }
}

extension Catalog {
    /// The record of `document` without keeping it decoded (`RecordTable.transientRecord`).
    func transientRecord(_ document: Int) -> NoteRecord {
        document < base.count ? base.records.transientRecord(document) : delta.records.transientRecord(document - base.count)
    }
}
