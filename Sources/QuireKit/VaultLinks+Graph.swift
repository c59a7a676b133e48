import Foundation
import QuireCore
import QuireSearch

/// The link graph of some notes (`quire graph`): the notes as nodes, and one edge per pair of
/// notes linked (however many links), both ends among the nodes.
public struct LinkGraphReport: Sendable, Equatable {
    /// A note of the graph.
    public struct Node: Sendable, Equatable {
        /// Vault path.
        public var path: String
        /// Title.
        public var title: String
    }
    /// A link between two notes of the graph.
    public struct Edge: Sendable, Equatable {
        /// The linking note's path.
        public var source: String
        /// The linked note's path.
        public var target: String
        /// How many links `source` has to `target`.
        public var count: Int
    }
    /// The notes, by path.
    public var nodes: [Node]
    /// The edges, by source then target path.
    public var edges: [Edge]
}

extension VaultLinks {
    /// The whole link graph (every link resolved; see `LinkGraph`).
    public func graph() -> LinkGraph {
        catalog.linkGraph(attachments: attachments)
    }

    /// The graph of the notes `query` matches (all notes for nil): links to notes outside the
    /// set, to attachments, and unresolved ones are left out; a note's links to itself too.
    public func graphReport(matching query: NoteQuery?) -> LinkGraphReport {
        if let indices = graphIndices(matching: query) { return indices.report }
        var options = SearchOptions(sort: .path)
        options.attachments = attachments
        let hits = catalog.run(query ?? NoteQuery(root: .all), options: options)
        let members = Set(hits.map(\.path))
        var counts: [String: [String: Int]] = [:]
        for (source, targets) in catalog.linkedNotes(attachments: attachments) where members.contains(source) {
            for case let target? in targets where target != source && members.contains(target) {
                counts[source, default: [:]][target, default: 0] += 1
            }
        }
        let edges = counts.keys.sorted().flatMap { source in
            (counts[source] ?? [:]).keys.sorted().map { target in
                LinkGraphReport.Edge(source: source, target: target, count: counts[source]?[target] ?? 0)
            }
        }
        return LinkGraphReport(nodes: hits.map { LinkGraphReport.Node(path: $0.path, title: $0.record.title) }, edges: edges)
    }

    /// Every link that leads nowhere, to several files, or to a heading or block its target
    /// lacks, by source path then position; an unresolved link names the closest notes.
    public func problems() -> [LinkProblem] {
        var names: [String: [String]] = [:]
        let edges: [LinkGraph.Edge]
        if let table {
            // Only the records of notes with a problem are decoded.
            edges = table.edges(in: catalog) { table.isBroken($0) || table.anchor($0) == .missing && table.targetNote($0) != nil }
            let unresolved = edges.contains { $0.resolution == .unresolved }
            for note in unresolved ? table.notesInByteOrder : [] {
                let path = table.path(note)
                names[NoteParser.stem(of: path), default: []].append(path)
                if table.hasTitle(note) { names[table.title(note), default: []].append(path) }
            }
        } else {
            edges = graph().edges
            for record in catalog.recordHeads {
                names[NoteParser.stem(of: record.path), default: []].append(record.path)
                if record.hasTitle { names[record.title, default: []].append(record.path) }
            }
        }
        let stems = edges.map { edge -> String in
            guard case .unresolved = edge.resolution else { return "" }
            let name = edge.link.target.split(separator: "/").last.map(String.init) ?? edge.link.target
            return name.lowercased().hasSuffix(".md") ? String(name.dropLast(3)) : name
        }
        let nearest = stems.allSatisfy(\.isEmpty) ? stems.map { _ in [] } : NearNames(Array(names.keys)).closest(to: stems)
        var problems: [LinkProblem] = []
        for (index, edge) in edges.enumerated() {
            switch edge.resolution {
            case .unresolved:
                var closest: [String] = []
                for candidate in nearest[index] {
                    for path in names[candidate] ?? [] where !closest.contains(path) { closest.append(path) }
                }
                var problem = LinkProblem(source: edge.source, link: edge.link, kind: .unresolved, candidates: closest)
                if edge.link.style == .wiki { problem.aliasHolders = resolver.aliasHolders(of: edge.link.target) }
                problems.append(problem)
            case .ambiguous(let candidates):
                problems.append(LinkProblem(source: edge.source, link: edge.link, kind: .ambiguous, candidates: candidates))
            case .note(let path) where edge.anchor == .missing:
                problems.append(LinkProblem(source: edge.source, link: edge.link, kind: .missingAnchor, candidates: [path]))
            case .note, .attachment:
                break
            }
        }
        return problems
    }

    /// The notes that mention the title or an alias of the note at `path` as whole words
    /// (ignoring case and accents) without linking to it, by path, each mention with its line
    /// (one a line); not in the note itself, not inside a link, a code span, a code block or
    /// front matter.
    public func unlinkedMentions(of path: String) throws -> [UnlinkedMention] {
        guard let target = catalog.record(path: path) else { return [] }
        let names = ([target.title] + target.aliases).filter { !$0.trimmingCharacters(in: .whitespaces).isEmpty }
        let linking = Set(catalog.backlinks(of: path, attachments: attachments).map(\.source))
        var candidates = Set<String>()
        for name in names {
            let tokens = Tokenizer.terms(in: name)
            guard !tokens.isEmpty else { continue }
            for hit in catalog.run(NoteQuery(root: .term(TextTerm(tokens: tokens))), options: SearchOptions(sort: .path)) {
                candidates.insert(hit.path)
            }
        }
        var mentions: [UnlinkedMention] = []
        for source in candidates.sorted() where source != path && !linking.contains(source) {
            let data = try vault.readData(source)
            let scan = LinkExtractor.scan(data)
            let title = catalog.record(path: source)?.title ?? source
            for mention in Self.mentions(of: names, in: data, skipping: scan.links.map(\.range)) {
                mentions.append(UnlinkedMention(source: source, sourceTitle: title, text: mention.text, line: mention.line,
                                                context: Self.context(mention.lineText, around: mention.text)))
            }
        }
        return mentions
    }

    /// The byte ranges of the URLs of one line (`https://…`, `www.…`, `mailto:…`, up to a space,
    /// a quote or a closing bracket), where a mention is no mention.
    static func urls(in bytes: UnsafeBufferPointer<UInt8>, line: Range<Int>) -> [Range<Int>] {
        var ranges: [Range<Int>] = []
        func isSchemeByte(_ byte: UInt8) -> Bool {
            (byte | 0x20) >= 0x61 && (byte | 0x20) <= 0x7A || byte >= 0x30 && byte <= 0x39 || byte == 0x2B || byte == 0x2D || byte == 0x2E
        }
        func ends(_ byte: UInt8) -> Bool {
            byte == 0x20 || byte == 0x09 || byte == UInt8(ascii: ")") || byte == UInt8(ascii: ">") || byte == UInt8(ascii: "]")
                || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'")
        }
        func matches(_ text: String, at index: Int) -> Bool {
            index + text.utf8.count <= line.upperBound && text.utf8.enumerated().allSatisfy { bytes[index + $0.offset] | 0x20 == $0.element | 0x20 }
        }
        var index = line.lowerBound
        while index < line.upperBound {
            var start: Int?
            if matches("://", at: index) {
                var first = index
                while first > line.lowerBound, isSchemeByte(bytes[first - 1]) { first -= 1 }
                if first < index { start = first }
            } else if (matches("www.", at: index) || matches("mailto:", at: index)),
                      index == line.lowerBound || !isSchemeByte(bytes[index - 1]) {
                start = index
            }
            guard let first = start else { index += 1; continue }
            var end = index
            while end < line.upperBound, !ends(bytes[end]) { end += 1 }
            ranges.append(first..<end)
            index = max(end, index + 1)
        }
        return ranges
    }

    /// The byte ranges of the Markdown links and images of one line, `[text](destination)` whole
    /// (a link to a web page is a link too, though no link between notes).
    static func markdownLinks(in bytes: UnsafeBufferPointer<UInt8>, line: Range<Int>) -> [Range<Int>] {
        var ranges: [Range<Int>] = []
        var open: Int?
        var index = line.lowerBound
        while index < line.upperBound {
            let byte = bytes[index]
            if byte == UInt8(ascii: "[") { open = open ?? index }
            if byte == UInt8(ascii: "]"), let start = open, index + 1 < line.upperBound, bytes[index + 1] == UInt8(ascii: "(") {
                var end = index + 2
                while end < line.upperBound, bytes[end] != UInt8(ascii: ")") { end += 1 }
                guard end < line.upperBound else { break }
                ranges.append(start..<(end + 1))
                open = nil
                index = end + 1
                continue
            }
            index += 1
        }
        return ranges
    }

    /// Whole-word, case- and accent-insensitive occurrences of `names` in the body lines of a
    /// file that `MarkdownBody` reads (no code, comments or HTML blocks), outside `skipping`
    /// (byte ranges of links) and URLs.
    static func mentions(of names: [String], in data: Data, skipping: [Range<Int>]) -> [(text: String, line: Int, lineText: String)] {
        let bodyStart = NoteParser.bodyOffset(of: data)
        var found: [(text: String, line: Int, lineText: String)] = []
        data.withUnsafeBytes { raw in
            let bytes = raw.bindMemory(to: UInt8.self)
            var lineNumber = 1, counted = 0
            MarkdownBody.forEachReadableLine(of: bytes, from: bodyStart) { line in
                while counted < line.lowerBound { if bytes[counted] == 0x0A { lineNumber += 1 }; counted += 1 }
                let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[line]), as: UTF8.self)
                let code = MarkdownBody.codeSpans(in: bytes, line: line) + Self.urls(in: bytes, line: line)
                    + Self.markdownLinks(in: bytes, line: line)
                for name in names {
                    var searchStart = text.startIndex
                    while let range = text.range(of: name, options: [.caseInsensitive, .diacriticInsensitive],
                                                 range: searchStart..<text.endIndex) {
                        searchStart = range.upperBound
                        let before = range.lowerBound > text.startIndex ? text[text.index(before: range.lowerBound)] : " "
                        let after = range.upperBound < text.endIndex ? text[range.upperBound] : " "
                        guard !(before.isLetter || before.isNumber), !(after.isLetter || after.isNumber) else { continue }
                        let offset = line.lowerBound + text.utf8.distance(from: text.startIndex, to: range.lowerBound)
                        guard !skipping.contains(where: { $0.contains(offset) }),
                              !code.contains(where: { $0.contains(offset) }) else { continue }
                        found.append((String(text[range]), lineNumber, text))
                        return true
                    }
                }
                return true
            }
        }
        return found
    }
}
