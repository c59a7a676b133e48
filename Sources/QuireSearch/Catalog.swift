import Foundation
import QuireCore

/// Every note's metadata plus a full-text index over title, tags, project, aliases and body:
/// runs `NoteQuery` values, lists tags and projects, and takes incremental updates.
///
/// Internally a large immutable segment (built at once, or loaded from the cache) plus a small
/// segment of notes changed since, which each update merges with its own notes' segment and
/// which is merged into the large one when it grows; removed notes are masked out.
public struct Catalog: Sendable {
    var base: IndexSegment
    var baseLive: [Bool]
    /// The notes changed since the main segment was built (`Catalog+RecentNotes`), in the order
    /// they changed in: an update copies those it keeps from here and builds only its own.
    var delta: IndexSegment
    /// Global document number by path (by its bytes: `ExactPath`), built on the first update
    /// that changes many notes.
    var pathIndex: [ExactPath: Int]?
    /// The live slots in `PathOrder` as the snapshot this catalog was loaded from stores them:
    /// its base slots stay valid while the base does, so an update of a few notes finds them
    /// by binary search instead of building `pathIndex`.
    var loadedOrder: FlatColumn<UInt32>?
    private(set) var liveCount: Int
    private(set) var totalLength: Int
    /// Whether updates leave the recent changes unmerged until they reach half of the main
    /// segment (`compactsNow`) instead of an eighth of it (`needsCompaction`).
    var defersCompaction = false

    /// BM25 parameters and the weight of a title occurrence.
    static let k1 = 1.2
    static let b = 0.75
    /// A title occurrence counts this many times.
    public static let titleBoost = 3.0

    /// An empty catalog.
    public init() {
        self.init(segment: .empty)
    }

    /// A catalog of parsed notes (later notes with an earlier note's path replace it).
    public init(notes: [Note]) {
        self.init(analyzed: notes.map(AnalyzedNote.init(note:)))
    }

    init(analyzed: [AnalyzedNote]) {
        var seen: [ExactPath: Int] = [:]
        var unique: [AnalyzedNote] = []
        for note in analyzed {
            if let index = seen[ExactPath(note.record.path)] {
                unique[index] = note
            } else {
                seen[ExactPath(note.record.path)] = unique.count
                unique.append(note)
            }
        }
        self.init(segment: SegmentBuilder.build(notes: unique))
    }

    init(segment: IndexSegment, live: [Bool]? = nil) {
        base = segment
        baseLive = live ?? [Bool](repeating: true, count: segment.count)
        delta = .empty
        liveCount = 0
        totalLength = 0
        for document in 0..<segment.count where baseLive[document] {
            liveCount += 1
            totalLength += Int(segment.lengths[document])
        }
    }

    /// Takes a loaded small segment as the segment of recent changes.
    mutating func adopt(delta segment: IndexSegment) {
        delta = segment
        liveCount += segment.count
        for document in 0..<segment.count { totalLength += Int(segment.lengths[document]) }
        pathIndex = nil
    }

    /// Notes with problems (e.g. unreadable front matter).
    public var problemCount: Int {
        var total = 0
        liveSet.forEach { if hasProblems($0) { total += 1 } }
        return total
    }

    /// The number of notes.
    public var count: Int { liveCount }

    /// Number of global document slots (live or not).
    var capacity: Int { base.count + delta.count }

    func record(_ document: Int) -> NoteRecord {
        document < base.count ? base.records[document] : delta.records[document - base.count]
    }

    /// The path of a document (no record decoded).
    func path(_ document: Int) -> String {
        document < base.count ? base.records.path(document) : delta.records.path(document - base.count)
    }

    /// Calls `body` with the UTF-8 bytes of a document's path (no record decoded).
    func withPath<T>(_ document: Int, _ body: (UnsafeRawBufferPointer) -> T) -> T {
        document < base.count ? base.records.withPath(document, body) : delta.records.withPath(document - base.count, body)
    }

    /// The UTF-8 bytes of a document's path, valid while the catalog's segments live (no
    /// record decoded, nothing copied).
    func pathBytes(_ document: Int) -> UnsafeRawBufferPointer {
        document < base.count ? base.records.pathBytes(document) : delta.records.pathBytes(document - base.count)
    }

    /// Whether a document's note is pinned (no record decoded).
    func isPinned(_ document: Int) -> Bool {
        document < base.count ? base.records.isPinned(document) : delta.records.isPinned(document - base.count)
    }

    /// A document's list-order key (no record decoded; NaN when missing).
    func sortKey(_ document: Int, _ field: IndexSegment.SortField) -> Double {
        document < base.count ? base.sortKey(document, field) : delta.sortKey(document - base.count, field)
    }

    /// Whether a document's note has problems (no record decoded).
    func hasProblems(_ document: Int) -> Bool {
        document < base.count ? base.records.hasProblems(document) : delta.records.hasProblems(document - base.count)
    }

    /// Calls `body` with pointers to the records of `documents`, in order, valid only during
    /// the call: reading fields through `pointee` copies no whole record (copies dominate
    /// filters and sorting otherwise). Records loaded from the cache are decoded here, once.
    func withRecordPointers<T>(_ documents: [Int], _ body: ([UnsafePointer<NoteRecord>]) -> T) -> T {
        let baseCount = base.count
        guard documents.contains(where: { $0 >= baseCount }) else { return body(base.records.pointers(documents)) }
        let pointers = documents.map { document in
            document < baseCount ? base.records.pointer(document) : delta.records.pointer(document - baseCount)
        }
        return body(pointers)
    }

    /// `read` applied to (a pointer to) the record of each document, in order.
    func mapRecords<T>(_ documents: [Int], _ read: (UnsafePointer<NoteRecord>) -> T) -> [T] {
        withRecordPointers(documents) { $0.map(read) }
    }

    /// The members of `set` whose record satisfies `test` (given a pointer, as in `mapRecords`).
    func filter(_ set: DocumentSet, _ test: (UnsafePointer<NoteRecord>) -> Bool) -> DocumentSet {
        let members = set.members
        let keep = mapRecords(members, test)
        var result = set
        for (document, kept) in zip(members, keep) where !kept { result.remove(document) }
        return result
    }

    func length(_ document: Int) -> Int {
        Int(document < base.count ? base.lengths[document] : delta.lengths[document - base.count])
    }

    func isLive(_ document: Int) -> Bool {
        document >= base.count || baseLive[document]
    }

    /// The set of live documents.
    var liveSet: DocumentSet {
        var set = DocumentSet(capacity: capacity, full: true)
        for (document, live) in baseLive.enumerated() where !live { set.remove(document) }
        return set
    }

    /// Every note's metadata, by path (by its bytes).
    public var records: [NoteRecord] {
        mapRecords(liveSet.members) { $0.pointee }.sorted { ExactPath.precedes($0.path, $1.path) }
    }

    /// The first fields of every live note's record (`BinaryReader.recordHead`: path, folder,
    /// id, title, tags, project, flags, color, mood, priority, aliases, dates and words; not
    /// its other front-matter keys, problems or links), sorted by path: what names, counts and
    /// sorts the notes, at half the time and memory of `records` at 100,000 notes.
    public var recordHeads: [NoteRecord] {
        liveSet.members.map { document in
            document < base.count ? base.records.head(document) : delta.records.head(document - base.count)
        }.sorted { ExactPath.precedes($0.path, $1.path) }
    }

    /// The metadata of the note at `path`, if the catalog holds it.
    public func record(path: String) -> NoteRecord? {
        if let pathIndex { return pathIndex[ExactPath(path)].map(record) }
        if loadedOrder != nil { return locate([path])[ExactPath(path)].map(record) }
        if let offset = (0..<recentCount).first(where: { ExactPath.same(recentPath($0), path) }) {
            return record(base.count + offset)
        }
        var wanted = path
        return wanted.withUTF8 { target in
            for document in 0..<base.count where baseLive[document] {
                let same = base.records.withPath(document) { ExactPath.same($0, UnsafeRawBufferPointer(target)) }
                if same { return base.records[document] }
            }
            return nil
        }
    }

    /// Adds a note, or replaces the note at its path.
    public mutating func upsert(_ note: Note) {
        upsert(analyzed: [AnalyzedNote(note: note)])
    }

    /// Removes the note at `path` (nothing happens when there is none).
    public mutating func remove(path: String) {
        apply(upserts: [], removals: [path])
    }

    mutating func upsert(analyzed notes: [AnalyzedNote]) {
        apply(upserts: notes, removals: [])
    }

    /// Removes `removals` and the old versions of `upserts`, then adds `upserts` (of two with
    /// one path, the later); see `apply(added:removals:compacting:)`.
    mutating func apply(upserts given: [AnalyzedNote], removals: [String], compacting: Bool = true) {
        var latest: [ExactPath: Int] = [:]
        for (position, note) in given.enumerated() { latest[ExactPath(note.record.path)] = position }
        let upserts = given.enumerated().filter { latest[ExactPath($0.element.record.path)] == $0.offset }.map(\.element)
        apply(added: SegmentBuilder.build(notes: upserts), removals: removals, compacting: compacting)
    }

    /// Removes `removals` and the notes at the paths of `added`'s documents (one document a
    /// path), then adds `added`'s documents as recent changes — the recent changes kept and
    /// `added` merged into one segment (`mergeRecentChanges`), so an update costs what it
    /// changes and a copy of what stays — and merges the recent changes into the main segment
    /// once they grow large (`needsCompaction`) unless `compacting` is false (the caller writes
    /// a snapshot next, which compacts into the file).
    mutating func apply(added: IndexSegment, removals: [String], compacting: Bool = true) {
        let paths = removals + (0..<added.count).map { added.records.path($0) }
        // A few paths, or any number ahead of a snapshot's writing (which compacts into a new
        // base without the table): found by binary search instead of a table of every path.
        let few = pathIndex == nil && (paths.count <= 4096 || !compacting) && loadedOrder != nil
        var index = pathIndex ?? (few ? locate(paths) : buildPathIndex())
        // The offsets of the recent changes these paths remove or replace, dropped at once.
        var replaced = Set<Int>()
        for path in paths {
            guard let document = index.removeValue(forKey: ExactPath(path)) else { continue }
            liveCount -= 1
            totalLength -= length(document)
            if document < base.count { baseLive[document] = false } else { replaced.insert(document - base.count) }
        }
        guard !replaced.isEmpty || added.count > 0 else {
            if !few { pathIndex = index }
            return
        }
        mergeRecentChanges(except: replaced, adding: added)
        for document in 0..<added.count {
            liveCount += 1
            totalLength += Int(added.lengths[document])
        }
        if compacting && compactsNow {
            self = compacted(keepingPolicyOf: self)
            return
        }
        guard !few else { return }
        for offset in 0..<recentCount { index[ExactPath(recentPath(offset))] = base.count + offset }
        pathIndex = index
    }

    /// The live documents of `paths` (those the catalog holds), found without a table of every
    /// path: the recent changes looked through, the base by binary search of `loadedOrder`.
    private func locate(_ paths: [String]) -> [ExactPath: Int] {
        let wanted = Set(paths.map(ExactPath.init))
        var found: [ExactPath: Int] = [:]
        for offset in 0..<recentCount {
            let path = ExactPath(recentPath(offset))
            if wanted.contains(path) { found[path] = base.count + offset }
        }
        guard let loadedOrder else { return found }
        for path in wanted where found[path] == nil {
            if let document = baseDocument(path.string, in: loadedOrder), baseLive[document] { found[path] = document }
        }
        return found
    }

    /// The base slot holding `path` by binary search of `order` (every slot the snapshot held,
    /// in `PathOrder`), stepping over the slots of the loaded recent changes, which an update
    /// may have renumbered: a look-up costs a few comparisons, not a copy of the order.
    private func baseDocument(_ path: String, in order: FlatColumn<UInt32>) -> Int? {
        var path = path
        return path.withUTF8 { bytes -> Int? in
            let wanted = UnsafeRawBufferPointer(bytes)
            var low = 0
            var high = order.count
            while low < high {
                let middle = (low + high) / 2
                var probe = middle
                while probe < high, Int(order[probe]) >= base.count { probe += 1 }
                guard probe < high else {
                    high = middle
                    continue
                }
                let document = Int(order[probe])
                let comparison = base.records.withPath(document) { CachedStamps.compare($0, wanted) }
                if comparison == 0 { return document }
                if comparison < 0 { low = probe + 1 } else { high = middle }
            }
            return nil
        }
    }

    private func buildPathIndex() -> [ExactPath: Int] {
        var index: [ExactPath: Int] = [:]
        index.reserveCapacity(liveCount)
        for document in 0..<base.count where baseLive[document] {
            index[ExactPath(base.records.path(document))] = document
        }
        for offset in 0..<delta.count { index[ExactPath(delta.records.path(offset))] = base.count + offset }
        return index
    }

    /// Tags with the number of notes carrying each (`NameCount.counting`: a note counts once per
    /// tag, case-folded, each shown in its most common spelling, sorted by name).
    public func tags() -> [NameCount] {
        var lists: [[String]] = []
        lists.reserveCapacity(count)
        forEachRecordHead { lists.append($0.tags) }
        return NameCount.counting(lists)
    }

    /// Projects with their number of notes (`NameCount.counting`), sorted by name case-insensitively.
    public func projects() -> [NameCount] {
        var lists: [[String]] = []
        lists.reserveCapacity(count)
        forEachRecordHead { lists.append($0.project.map { [$0] } ?? []) }
        return NameCount.counting(lists)
    }
}
