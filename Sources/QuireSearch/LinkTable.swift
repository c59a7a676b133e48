import Foundation
import QuireCore

/// Every link of the catalog's notes, resolved once and kept (`.quire/cache/links.bin`): per
/// live note (in `PathOrder`) its links in file order, each leading to a note of the table, an
/// attachment, several files (ambiguous) or nowhere, with whether its heading or block exists;
/// and the incoming links of each note. Brought up to date from the catalog by
/// `CatalogStore.linkTable(attachments:)`: only the notes a change can affect are resolved again
/// (`LinkTable+Update`). What `graph`, `links`, `backlinks`, the link filters and `check` read.
public struct LinkTable: Sendable, Equatable {
    /// What one edge's byte says: its kind (low two bits), its anchor status, self-link.
    enum Kind: UInt8 {
        case note = 0, attachment = 1, ambiguous = 2, unresolved = 3
    }
    static let selfLinkBit: UInt8 = 0x10
    /// A note flag: its title is its own (front matter or heading), not its file name.
    static let hasTitleFlag: UInt8 = 1
    /// A note flag: one of its links has a name key too long for the index's link terms.
    static let longKeyFlag: UInt8 = 2
    /// The origin of a note that was among the catalog's recent changes (no base slot).
    static let recentOrigin = UInt32.max

    /// The id of the catalog's base file the origins refer to.
    var baseID: UInt64
    /// The notes' vault paths, in `PathOrder`.
    var paths = PackedStrings()
    /// The notes' titles.
    var titles = PackedStrings()
    /// The content hash of each note as resolved.
    var hashes: LinkColumn<UInt64> = []
    /// Each note's base slot in the catalog, or `recentOrigin`.
    var origins: LinkColumn<UInt32> = []
    /// `hasTitleFlag`, `longKeyFlag`.
    var flags: LinkColumn<UInt8> = []
    /// Where each note's edges begin (one more than the notes).
    var edgeStarts: LinkColumn<UInt32> = [0]
    /// Per edge: the note, attachment or candidate list it leads to (by index).
    var targets: LinkColumn<UInt32> = []
    /// Per edge: kind, anchor status (`<< 2`) and `selfLinkBit`.
    var kinds: LinkColumn<UInt8> = []
    /// Where each note's incoming edges begin in `incoming` (one more than the notes).
    var incomingStarts: LinkColumn<UInt32> = [0]
    /// Edge indices by target note, each note's by source.
    var incoming: LinkColumn<UInt32> = []
    /// The attachments the links were resolved over, sorted by bytes.
    var attachments = PackedStrings()
    /// The files of every ambiguous link, list after list.
    var candidates = PackedStrings()
    /// Where each list of `candidates` begins (one more than the lists).
    var candidateStarts: LinkColumn<UInt32> = [0]
    /// The edges whose context line is kept, ascending (`LinkTable+Contexts`).
    var contextEdges: LinkColumn<UInt32> = []
    /// The context line of each of `contextEdges`.
    var contexts = PackedStrings()

    /// The catalog document of each note (not stored: found when the table is opened).
    var documents: [Int] = []
    /// How many notes' links were resolved to bring the table up to date when it was opened
    /// (0 when nothing had changed; every note when it was resolved whole).
    public internal(set) var resolvedNotes = 0
    /// Whether it was resolved whole (no usable table on disk, or the catalog's base changed).
    public internal(set) var resolvedWhole = false
    /// Whether it differs from the table on disk (then it is written back).
    var changed = true
    /// Why the table could not be written back (its answers are right all the same).
    public internal(set) var cacheIssue: CacheError?

    /// The number of notes.
    public var count: Int { hashes.count }

    /// The vault path of note `index`.
    public func path(_ index: Int) -> String { paths[index] }

    /// The title of note `index`.
    public func title(_ index: Int) -> String { titles[index] }

    /// Whether note `index` has a title of its own (not its file name).
    public func hasTitle(_ index: Int) -> Bool { flags[index] & Self.hasTitleFlag != 0 }

    /// The index of the note at `path`, nil when the table has none.
    public func index(of path: String) -> Int? { paths.indexInPathOrder(of: path) }

    /// The edges of note `index`, in file order (edge indices: the n-th is its n-th link).
    public func edges(of index: Int) -> Range<Int> { Int(edgeStarts[index])..<Int(edgeStarts[index + 1]) }

    /// The note a link of `edge`'s note leads to, nil for any other resolution.
    public func targetNote(_ edge: Int) -> Int? {
        kinds[edge] & 3 == Kind.note.rawValue ? Int(targets[edge]) : nil
    }

    /// Whether `edge` is a link into its own note with an empty target (`[[#heading]]`).
    public func isSelfLink(_ edge: Int) -> Bool { kinds[edge] & Self.selfLinkBit != 0 }

    /// Whether `edge` leads to no file or to several.
    public func isBroken(_ edge: Int) -> Bool {
        kinds[edge] & 3 == Kind.unresolved.rawValue || kinds[edge] & 3 == Kind.ambiguous.rawValue
    }

    /// Where `edge` leads.
    public func resolution(_ edge: Int) -> LinkResolution {
        let target = Int(targets[edge])
        switch Kind(rawValue: kinds[edge] & 3) {
        case .note: return .note(paths[target])
        case .attachment: return .attachment(attachments[target])
        case .ambiguous:
            return .ambiguous((Int(candidateStarts[target])..<Int(candidateStarts[target + 1])).map { candidates[$0] })
        case .unresolved, nil: return .unresolved
        }
    }

    /// Whether `edge`'s heading or block exists in the note it leads to.
    public func anchor(_ edge: Int) -> AnchorStatus {
        switch (kinds[edge] >> 2) & 3 {
        case 1: return .found
        case 2: return .missing
        case 3: return .unchecked
        default: return .none
        }
    }

    /// The byte an anchor status is kept as (`anchor(_:)` reads it back).
    static func anchorBits(_ status: AnchorStatus) -> UInt8 {
        switch status {
        case .none: return 0
        case .found: return 1 << 2
        case .missing: return 2 << 2
        case .unchecked: return 3 << 2
        }
    }

    /// The edges into note `index` (not its own `[[#heading]]` links), by source in table order.
    public func incomingEdges(of index: Int) -> Slice<LinkColumn<UInt32>> {
        incoming[Int(incomingStarts[index])..<Int(incomingStarts[index + 1])]
    }

    /// The note an edge is written in (a binary search of `edgeStarts`).
    public func source(ofEdge edge: Int) -> Int {
        var low = 0, high = count
        while low + 1 < high {
            let middle = (low + high) / 2
            if Int(edgeStarts[middle]) <= edge { low = middle } else { high = middle }
        }
        return low
    }

    /// The catalog document of note `index`.
    public func document(_ index: Int) -> Int { documents[index] }

    /// Whether note `index` links to no other note and no other note links to it (links to
    /// itself and to attachments do not count), as `LinkGraph.isOrphan` says.
    public func isOrphan(_ index: Int) -> Bool {
        !edges(of: index).contains { targetNote($0).map { $0 != index } ?? false }
            && !incomingEdges(of: index).contains { source(ofEdge: Int($0)) != index }
    }

    /// Whether a link of note `index` is unresolved or ambiguous.
    public func hasBrokenLinks(_ index: Int) -> Bool {
        edges(of: index).contains(where: isBroken)
    }

    /// Builds `incomingStarts` and `incoming` from the edges (a counting sort by target).
    mutating func indexIncoming() {
        var starts = [UInt32](repeating: 0, count: count + 1)
        for edge in 0..<targets.count where kinds[edge] & 3 == Kind.note.rawValue && kinds[edge] & Self.selfLinkBit == 0 {
            starts[Int(targets[edge]) + 1] += 1
        }
        for index in 0..<count { starts[index + 1] += starts[index] }
        var next = starts
        var edgesIn = [UInt32](repeating: 0, count: Int(starts[count]))
        for edge in 0..<targets.count where kinds[edge] & 3 == Kind.note.rawValue && kinds[edge] & Self.selfLinkBit == 0 {
            let target = Int(targets[edge])
            edgesIn[Int(next[target])] = UInt32(edge)
            next[target] += 1
        }
        incomingStarts = LinkColumn(starts)
        incoming = LinkColumn(edgesIn)
    }
}
