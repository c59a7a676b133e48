import Foundation
import QuireCore

/// The whole link graph of a set of notes: every link of every note, resolved (`LinkResolver`
/// over all the catalog's notes and the attachments given), with incoming links indexed by
/// target. What `orphan:`, `broken-links:`, `quire graph` and `quire check` read; a single
/// note's backlinks are cheaper through `Catalog.backlinks(of:)`.
public struct LinkGraph: Sendable {
    /// One link of the graph.
    public struct Edge: Sendable, Equatable {
        /// The vault path of the note the link is written in.
        public var source: String
        /// The link as written.
        public var link: NoteLink
        /// Where it leads.
        public var resolution: LinkResolution
        /// Whether its `#heading` / `#^block` exists in the target note.
        public var anchor: AnchorStatus

        /// Creates an edge.
        public init(source: String, link: NoteLink, resolution: LinkResolution, anchor: AnchorStatus) {
            self.source = source
            self.link = link
            self.resolution = resolution
            self.anchor = anchor
        }

        /// Whether the link leads to no file (`unresolved`) or to several (`ambiguous`).
        public var isBroken: Bool {
            switch resolution {
            case .unresolved, .ambiguous: return true
            case .note, .attachment: return false
            }
        }
    }

    /// Every note's path, sorted.
    public let notes: [String]
    /// Every link, by source path, then in file order.
    public let edges: [Edge]
    /// By path (by its bytes: `ExactPath`).
    private let outgoingRanges: [ExactPath: Range<Int>]
    private let incomingEdges: [ExactPath: [Int]]

    /// The graph of `records` (the vault's notes) and `attachments` (vault paths of its other
    /// files).
    public init(records: [NoteRecord], attachments: [String] = []) {
        let sorted = records.sorted { ExactPath.precedes($0.path, $1.path) }
        var anchors: [ExactPath: NoteAnchors] = [:]
        for record in sorted { anchors[ExactPath(record.path)] = record.anchors }
        let resolved = zip(sorted, Self.resolutions(of: sorted, attachments: attachments)).map { record, resolutions in
            zip(record.links, resolutions).map { link, resolution -> Edge in
                let anchor = LinkResolver.anchorStatus(of: link, in: resolution.notePath.flatMap { anchors[ExactPath($0)] })
                return Edge(source: record.path, link: link, resolution: resolution, anchor: anchor)
            }
        }
        var edges: [Edge] = []
        var outgoing: [ExactPath: Range<Int>] = [:]
        var incoming: [ExactPath: [Int]] = [:]
        for (record, recordEdges) in zip(sorted, resolved) {
            let start = edges.count
            for edge in recordEdges {
                if let target = edge.resolution.path, !edge.link.isSelfLink { incoming[ExactPath(target), default: []].append(edges.count) }
                edges.append(edge)
            }
            outgoing[ExactPath(record.path)] = start..<edges.count
        }
        notes = sorted.map(\.path)
        self.edges = edges
        outgoingRanges = outgoing
        incomingEdges = incoming
    }

    /// The links written in the note at `path`, in file order.
    public func outgoing(from path: String) -> [Edge] {
        outgoingRanges[ExactPath(path)].map { Array(edges[$0]) } ?? []
    }

    /// The links that lead to the note or attachment at `path`, by source path (not the
    /// note's own `[[#heading]]` links, which name no note).
    public func incoming(to path: String) -> [Edge] {
        (incomingEdges[ExactPath(path)] ?? []).map { edges[$0] }
    }

    /// Whether the note at `path` links to no other note and no other note links to it
    /// (links to itself and to attachments do not count).
    public func isOrphan(_ path: String) -> Bool {
        !outgoing(from: path).contains { $0.resolution.notePath.map { !ExactPath.same($0, path) } ?? false }
            && !incoming(to: path).contains { !ExactPath.same($0.source, path) }
    }

    /// Whether a link of the note at `path` is unresolved or ambiguous.
    public func hasBrokenLinks(_ path: String) -> Bool {
        outgoing(from: path).contains(where: \.isBroken)
    }
}

extension LinkGraph {
    /// Where each link of each record leads, record by record (`sorted` in `ExactPath` order),
    /// over every record and `attachments`. A resolution depends only on the linking note's
    /// folder and the target (an empty target is the note itself): each distinct pair is
    /// resolved once, on every core, and past the relative step once per target.
    static func resolutions(of sorted: [NoteRecord], attachments: [String]) -> [[LinkResolution]] {
        let resolver = LinkResolver(index: LinkTargetTable(
            notes: sorted.map { LinkTargetTable.Entry(path: $0.path, title: $0.title, aliases: $0.aliases) },
            attachments: attachments))
        struct Question: Hashable { let folder: String; let target: String }
        var questions: [Question] = []
        var asked: [Question: Int] = [:]
        let numbers: [[Int]] = sorted.map { record in
            let folder = NoteParser.folder(of: record.path)
            return record.links.map { link in
                let question = Question(folder: link.isSelfLink ? record.path : folder, target: link.target)
                if let number = asked[question] { return number }
                asked[question] = questions.count
                questions.append(question)
                return questions.count - 1
            }
        }
        // A path relative to the folder first; what leads nowhere that way is resolved from
        // the root once per target, not once per folder.
        let relative = ParallelMap.map(questions, chunkSize: 256) { question -> LinkResolution? in
            question.target.isEmpty
                ? LinkResolution.note(question.folder)
                : resolver.resolveRelative(target: question.target, from: question.folder.isEmpty ? "" : question.folder + "/")
        }
        var targets: [String] = []
        var targetNumbers: [String: Int] = [:]
        for (question, answer) in zip(questions, relative) where answer == nil && targetNumbers[question.target] == nil {
            targetNumbers[question.target] = targets.count
            targets.append(question.target)
        }
        let fromRoot = ParallelMap.map(targets, chunkSize: 256) { resolver.resolveFromRoot(target: $0) }
        let answers = zip(questions, relative).map { question, answer in
            answer ?? targetNumbers[question.target].map { fromRoot[$0] } ?? .unresolved
        }
        return numbers.map { $0.map { answers[$0] } }
    }
}

extension Catalog {
    /// The link graph of every note in the catalog (decodes every record: for whole-graph
    /// questions; one note's backlinks are `backlinks(of:)`).
    public func linkGraph(attachments: [String] = []) -> LinkGraph {
        LinkGraph(records: records, attachments: attachments)
    }

    /// Every note's path, by path (`ExactPath`), with the note each of its links leads to, in
    /// file order (nil for a link to an attachment, an ambiguous or an unresolved one): the
    /// links of `linkGraph(attachments:)` without their text, anchors or indexes by path, for
    /// questions about which notes link to which (`quire graph`).
    public func linkedNotes(attachments: [String] = []) -> [(source: String, targets: [String?])] {
        let sorted = records
        return zip(sorted, LinkGraph.resolutions(of: sorted, attachments: attachments)).map { record, resolutions in
            (record.path, resolutions.map(\.notePath))
        }
    }
}
