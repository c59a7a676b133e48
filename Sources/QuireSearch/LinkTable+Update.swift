import Foundation
import QuireCore

extension LinkTable {
    /// This table brought up to date with `catalog` (see `resolvedWhole` for the arguments;
    /// `liveHashes` gives the content hash of each live note by slot, asked for only when the
    /// base changed), resolving only the links a change can affect; nil when it cannot be done
    /// piecewise (the catalog's base is no file's, or so much changed that resolving everything
    /// is cheaper).
    ///
    /// Over the same base a note is unchanged while the base slot it was read from is live (a
    /// base file never changes) or, for a note of the recent changes, while a recent note has
    /// its path and content hash. Over another base (a compaction or a rebuild renumbers the
    /// slots) a note is unchanged while a live note has its path and content hash. Every other
    /// note of the table is gone, every other live note new, except that a note gone and a new
    /// one at the same path are one note changed. A link can lead to a file only if its name
    /// key (`LinkTarget.nameKey`) is a key of the file's name or of a note's title, so the
    /// notes resolved again are the new and changed ones, those that hold a link term
    /// (`\u{1}L:`) of a key of a note gone or new, of the old or new title of a note whose
    /// title changed, or of an attachment added or removed, and those with a link to a heading
    /// or block of a changed note (its anchors may have changed); a note with a link whose key
    /// is too long for the index is resolved again whenever such a key changed.
    /// With `bounded` false it is piecewise however much changed: what a command that reads
    /// one note's links wants, as it never resolves the whole table (`keptLinkTable`).
    func updated(catalog: Catalog, baseID: UInt64?, recentHashes: [UInt64], liveHashes: () -> (Int) -> UInt64,
                 attachments given: [String], bounded: Bool = true) -> LinkTable? {
        guard let baseID, recentHashes.count == catalog.delta.count else { return nil }
        let baseCount = catalog.base.count
        var hashOf: (Int) -> UInt64 = { recentHashes[$0 - baseCount] }
        let matching: (document: [Int], added: [Int])?
        if baseID == self.baseID {
            matching = matchedInBase(catalog: catalog, recentHashes: recentHashes)
        } else {
            let hashes = liveHashes()
            hashOf = hashes
            matching = matchedByHash(catalog: catalog, hashOf: hashes)
        }
        guard let (document, added) = matching else { return nil }
        let removed = document.indices.filter { document[$0] < 0 }
        let attachmentList = Self.sortedAttachments(given)
        let sameAttachments = attachmentList.count == attachments.count
            && attachmentList.indices.allSatisfy { attachments[$0] == attachmentList[$0] }
        if added.isEmpty && removed.isEmpty && sameAttachments {
            var same = self
            same.documents = document
            same.resolvedNotes = 0
            same.resolvedWhole = false
            same.changed = baseID != self.baseID
            same.baseID = baseID
            same.origins = LinkColumn(document.map { $0 < baseCount ? UInt32($0) : Self.recentOrigin })
            return same
        }
        var keys = Set<String>()
        func touch(_ name: String) {
            let key = LinkResolver.key(name)
            keys.insert(key)
            if let nameKey = LinkTarget.nameKey(of: key) { keys.insert(nameKey) }
        }
        // Only what the update needs of each added note is kept (a sync of many notes would
        // hold every record); the notes resolved decode theirs again.
        var addedNotes: [Int: AddedNote] = [:]
        var addedByPath: [ExactPath: Int] = [:]
        for added in added {
            let record = catalog.transientRecord(added)
            addedNotes[added] = AddedNote(record)
            addedByPath[ExactPath(record.path)] = added
        }
        // A note changed in place (gone and new at one path) keeps its edges' ends.
        var replaces: [Int: Int] = [:]
        var affected = Set<Int>()
        for index in removed {
            guard let slot = addedByPath.removeValue(forKey: ExactPath(paths[index])), let record = addedNotes[slot] else {
                touch(NoteParser.stem(of: paths[index]))
                touch(titles[index])
                continue
            }
            replaces[slot] = index
            if record.title != titles[index] || record.hasTitle != hasTitle(index) {
                touch(titles[index])
                touch(record.title)
            }
            for edge in incomingEdges(of: index) where kinds[Int(edge)] >> 2 & 3 != 0 {
                affected.insert(document[source(ofEdge: Int(edge))])
            }
        }
        for slot in addedByPath.values {
            guard let record = addedNotes[slot] else { continue }
            touch(NoteParser.stem(of: record.path))
            touch(record.title)
        }
        let oldAttachments = Set((0..<attachments.count).map { ExactPath(attachments[$0]) })
        let newAttachments = Set(attachmentList.map(ExactPath.init))
        for file in oldAttachments.symmetricDifference(newAttachments) {
            touch(file.string.split(separator: "/").last.map(String.init) ?? file.string)
        }
        var longKeys = false
        for key in keys {
            if key.utf8.count > Attribute.maximumNameBytes {
                longKeys = true
            } else {
                affected.formUnion(catalog.documents(withAttribute: Attribute.link + key))
            }
        }
        guard !bounded || added.count + affected.count <= max(256, catalog.count / 4) else { return nil }
        return rebuilt(catalog: catalog, baseID: baseID, hashOf: hashOf, attachments: attachmentList,
                       document: document, added: added, addedNotes: addedNotes, replaces: replaces,
                       sameAttachments: sameAttachments,
                       resolving: { affected.contains($0) || (longKeys && $1 & Self.longKeyFlag != 0) })
    }

    /// The document of each note over the same base (-1 when gone) and the live documents
    /// that are new; nil when a live base slot is not a note of the table (a table made over a
    /// later state of the same base).
    private func matchedInBase(catalog: Catalog, recentHashes: [UInt64]) -> (document: [Int], added: [Int])? {
        let baseCount = catalog.base.count
        var recent: [ExactPath: Int] = [:]
        for offset in 0..<catalog.delta.count { recent[ExactPath(catalog.path(baseCount + offset))] = offset }
        var document = [Int](repeating: -1, count: count)
        var matched = [Bool](repeating: false, count: catalog.delta.count)
        var liveBase = 0
        for index in 0..<count {
            if origins[index] != Self.recentOrigin {
                let slot = Int(origins[index])
                guard slot < baseCount else { return nil }
                if catalog.baseLive[slot] {
                    document[index] = slot
                    liveBase += 1
                }
            } else if let offset = recent[ExactPath(paths[index])], recentHashes[offset] == hashes[index], !matched[offset] {
                document[index] = baseCount + offset
                matched[offset] = true
            }
        }
        guard liveBase == catalog.count - catalog.delta.count else { return nil }
        return (document, matched.indices.filter { !matched[$0] }.map { baseCount + $0 })
    }

    /// The document of each note over another base (-1 when gone): the live note with its
    /// path and content hash (`hashOf`, by slot; 0 is no hash), and the live documents that
    /// are new.
    private func matchedByHash(catalog: Catalog, hashOf: (Int) -> UInt64) -> (document: [Int], added: [Int])? {
        var live: [ExactPath: Int] = [:]
        live.reserveCapacity(catalog.count)
        for slot in 0..<catalog.capacity where catalog.isLive(slot) { live[ExactPath(catalog.path(slot))] = slot }
        var document = [Int](repeating: -1, count: count)
        for index in 0..<count where self.hashes[index] != 0 {
            let path = ExactPath(paths[index])
            if let slot = live[path], hashOf(slot) == self.hashes[index] {
                document[index] = slot
                live[path] = nil
            }
        }
        return (document, live.values.sorted())
    }

    /// The new table: the notes kept (`document` of each old note, -1 when gone) and `added`
    /// merged in `PathOrder` (an added document that `replaces` an old note takes its edges'
    /// ends); the links of the added notes and of the kept notes `resolving` names (by
    /// document and old flags) resolved, the others' copied.
    private func rebuilt(catalog: Catalog, baseID: UInt64, hashOf: (Int) -> UInt64, attachments attachmentList: [String],
                         document: [Int], added: [Int], addedNotes: [Int: AddedNote], replaces: [Int: Int],
                         sameAttachments: Bool,
                         resolving: (Int, UInt8) -> Bool) -> LinkTable {
        let baseCount = catalog.base.count
        let newOnes = added.map { ($0, addedNotes[$0]?.path ?? catalog.path($0)) }.sorted { PathOrder.precedes($0.1, $1.1) }
        var table = LinkTable(baseID: baseID)
        table.attachments = PackedStrings(attachmentList)
        // Each new note: the old note it keeps (>= 0) or an added document (-1 - document).
        var sources: [Int] = []
        var renumbered = [Int32](repeating: -1, count: count)
        var next = 0
        func appendAdded() {
            let (slot, _) = newOnes[next]
            let record = addedNotes[slot] ?? AddedNote(catalog.transientRecord(slot))
            sources.append(-1 - slot)
            if let old = replaces[slot] { renumbered[old] = Int32(table.count) }
            table.appendNote(path: record.path, title: record.title, hasTitle: record.hasTitle,
                             hash: hashOf(slot), origin: slot < baseCount ? UInt32(slot) : Self.recentOrigin,
                             document: slot)
            next += 1
        }
        for index in 0..<count where document[index] >= 0 {
            while next < newOnes.count && paths.withBytes(index, { old in
                var path = newOnes[next].1
                return path.withUTF8 { PathOrder.precedes(UnsafeRawBufferPointer($0), old) }
            }) { appendAdded() }
            renumbered[index] = Int32(table.count)
            sources.append(index)
            table.paths.append(index, of: paths)
            table.titles.append(index, of: titles)
            table.hashes.append(hashes[index])
            table.origins.append(document[index] < baseCount ? UInt32(document[index]) : Self.recentOrigin)
            table.flags.append(flags[index])
            table.documents.append(document[index])
        }
        while next < newOnes.count { appendAdded() }
        var attachmentNumbers: [Int32]?
        if !sameAttachments {
            let index = table.attachmentIndex()
            attachmentNumbers = (0..<attachments.count).map { Int32(index[ExactPath(attachments[$0])] ?? -1) }
        }
        let resolver = LinkResolver(index: CatalogLinkTargets(catalog: catalog, attachments: attachmentList))
        let attachmentIndex = table.attachmentIndex()
        var anchors: [Int: NoteAnchors] = [:]
        // Each (folder, target) resolved once, with the note it leads to.
        var known: [String: (LinkResolution, Int?)] = [:]
        var resolved = 0
        for (position, source) in sources.enumerated() {
            let edgeCount = table.targets.count, listCount = table.candidateStarts.count, candidateCount = table.candidates.count
            if source >= 0, !resolving(document[source], flags[source]),
               edges(of: source).allSatisfy({ table.copyEdge($0, of: self, notes: renumbered, attachments: attachmentNumbers) }) {
                table.edgeStarts.append(UInt32(table.targets.count))
                continue
            }
            table.truncateEdges(to: edgeCount, lists: listCount, candidates: candidateCount)
            let slot = table.documents[position]
            let record = catalog.transientRecord(slot)
            table.flags[position] = (record.hasTitle ? Self.hasTitleFlag : 0) | Self.longKeyFlag(record)
            let folder = NoteParser.folder(of: record.path)
            for link in record.links {
                // A target leads where it led from the same folder (`LinkResolver.resolve`
                // reads the note's folder alone), but an empty one leads to the note itself.
                let key = link.target.isEmpty ? nil : folder + "\u{0}" + link.target
                let (resolution, target) = key.flatMap { known[$0] } ?? {
                    let resolution = resolver.resolve(link, from: record.path)
                    return (resolution, resolution.notePath.flatMap { table.index(of: $0) })
                }()
                if let key { known[key] = (resolution, target) }
                var targetAnchors: NoteAnchors?
                if let target {
                    if anchors[target] == nil { anchors[target] = catalog.transientRecord(table.documents[target]).anchors }
                    targetAnchors = anchors[target]
                }
                table.appendEdge(resolution, link: link, anchor: LinkResolver.anchorStatus(of: link, in: targetAnchors),
                                 note: { _ in target }, attachment: { attachmentIndex[ExactPath($0)] })
            }
            table.edgeStarts.append(UInt32(table.targets.count))
            resolved += 1
        }
        table.indexIncoming()
        table.resolvedNotes = resolved
        return table
    }

    /// Drops the edges from `edges` on (and their contexts), the candidate lists from `lists` on
    /// and the candidates from `candidates` on (what a copy that failed halfway added).
    mutating func truncateEdges(to edges: Int, lists: Int, candidates count: Int) {
        truncateContexts(to: edges)
        targets.removeSubrange(edges...)
        kinds.removeSubrange(edges...)
        candidateStarts.removeSubrange(lists...)
        if candidates.count > count {
            var kept = PackedStrings()
            for index in 0..<count { kept.append(index, of: candidates) }
            candidates = kept
        }
    }
}

/// What bringing the link table up to date keeps of a note added to the catalog.
struct AddedNote {
    /// Its vault path.
    var path: String
    /// Its title.
    var title: String
    /// Whether the title is its own (not its file name).
    var hasTitle: Bool
}

extension AddedNote {
    /// What `record` says.
    init(_ record: NoteRecord) {
        self.init(path: record.path, title: record.title, hasTitle: record.hasTitle)
    }
}
