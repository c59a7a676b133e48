import Foundation

extension Catalog {
    /// Runs a query: the matching notes in the order `options` asks for.
    public func run(_ query: NoteQuery, options: SearchOptions = SearchOptions()) -> [SearchHit] {
        Array(results(query, options: options))
    }

    /// Runs a query: the matching notes in the order `options` asks for, read in place (see
    /// `SearchResults`: what printing many hits uses).
    public func results(_ query: NoteQuery, options: SearchOptions = SearchOptions()) -> SearchResults {
        var evaluator = QueryEvaluator(catalog: self)
        evaluator.attachments = options.attachments
        evaluator.links = options.links
        let matches = evaluator.evaluate(query.root, within: liveSet)
        let documents = matches.members
        let sort = options.sort ?? (query.hasPositiveTerms && options.ranksWords ? .relevance : nil)
        var scores: [Double] = []
        if query.hasPositiveTerms {
            scores = evaluator.scores(for: query.positiveTerms, documents: matches)
        }
        let tiers = sort == .relevance ? nameTiers(for: query.positiveTerms, within: matches) : []
        let ordered = Ranker(catalog: self, scores: scores, tiers: tiers)
            .order(documents, by: sort, reverse: options.reverse, limit: options.limit)
        return SearchResults(base: base.records, delta: delta.records, documents: ordered, scores: scores)
    }

    /// Runs a query (shorthand for `run(_:options:)`).
    public func run(_ query: NoteQuery, sort: SortKey? = nil, reverse: Bool = false,
                    limit: Int? = nil) -> [SearchHit] {
        run(query, options: SearchOptions(sort: sort, reverse: reverse, limit: limit))
    }
}

/// Evaluates a query tree to a set of documents, remembering each term's matches for scoring.
struct QueryEvaluator {
    let catalog: Catalog
    /// Per term: matching live documents with their weighted term frequency.
    private var termMatches: [TextTerm: [(Int, Double)]] = [:]
    /// The vault's attachments (for the link filters).
    var attachments: [String] = []
    /// The link graph, built by the first filter that needs the whole of it.
    var graph: LinkGraph?
    /// The resolved links, when the caller has them (then no graph is built).
    var links: LinkTable?

    init(catalog: Catalog) {
        self.catalog = catalog
    }

    /// The documents of `within` that match `node`.
    mutating func evaluate(_ node: QueryNode, within: DocumentSet) -> DocumentSet {
        switch node {
        case .all:
            return within
        case .term(let term):
            var set = DocumentSet(capacity: catalog.capacity)
            for (document, _) in matches(term) where within.contains(document) { set.insert(document) }
            return set
        case .filter(let filter) where filter.isLinkFilter:
            var set = linkFilter(filter)
            set.formIntersection(within)
            return set
        case .filter(let filter):
            if var indexed = catalog.indexedFilter(filter) {
                indexed.formIntersection(within)
                return indexed
            }
            return catalog.filter(within, NoteRecord.predicate(for: filter))
        case .not(let child):
            var set = within
            set.subtract(evaluate(child, within: within))
            return set
        case .and(let children):
            var set = within
            // Text terms first: they narrow the set cheaply; filters then test fewer notes.
            for child in children.sorted(by: { rank($0) < rank($1) }) {
                set = evaluate(child, within: set)
            }
            return set
        case .or(let children):
            var set = DocumentSet(capacity: catalog.capacity)
            for child in children { set.formUnion(evaluate(child, within: within)) }
            return set
        }
    }

    private func rank(_ node: QueryNode) -> Int {
        switch node {
        case .term: return 0
        case .filter(let filter) where Catalog.isIndexed(filter): return 0
        case .filter(let filter) where filter.isLinkFilter: return 2
        case .and, .or, .all: return 1
        case .filter: return 2
        case .not: return 3
        }
    }

    /// Live documents holding `term`, ascending, with title occurrences boosted.
    mutating func matches(_ term: TextTerm) -> [(Int, Double)] {
        if let known = termMatches[term] { return known }
        var result: [(Int, Double)] = []
        result.reserveCapacity(min(catalog.base.matchBound(term), catalog.base.count) + catalog.delta.count)
        catalog.base.forEachMatch(term) { document, title, other in
            if catalog.baseLive[document] {
                result.append((document, Catalog.titleBoost * Double(title) + Double(other)))
            }
        }
        let offset = catalog.base.count
        catalog.delta.forEachMatch(term) { document, title, other in
            result.append((offset + document, Catalog.titleBoost * Double(title) + Double(other)))
        }
        // A bare word also finds it written with a leading dot (`gitignore` finds ".gitignore",
        // `net` finds ".NET"); a word given with its dot finds only that (Tokenizer).
        if term.tokens.count == 1, let first = term.tokens[0].utf8.first, (0x61...0x7A).contains(first) {
            let dotted = matches(TextTerm(tokens: ["." + term.tokens[0]], isPrefix: term.isPrefix, scope: term.scope))
            if !dotted.isEmpty { result = Self.union(result, dotted) }
        }
        termMatches[term] = result
        return result
    }

    /// Two ascending match lists as one, the weights of a document in both added.
    private static func union(_ left: [(Int, Double)], _ right: [(Int, Double)]) -> [(Int, Double)] {
        var merged: [(Int, Double)] = []
        merged.reserveCapacity(left.count + right.count)
        var (i, j) = (0, 0)
        while i < left.count || j < right.count {
            if j == right.count || (i < left.count && left[i].0 < right[j].0) {
                merged.append(left[i])
                i += 1
            } else if i == left.count || right[j].0 < left[i].0 {
                merged.append(right[j])
                j += 1
            } else {
                merged.append((left[i].0, left[i].1 + right[j].1))
                i += 1
                j += 1
            }
        }
        return merged
    }

    /// BM25 scores of `documents` for `terms` (summed in term order).
    mutating func scores(for terms: [TextTerm], documents: DocumentSet) -> [Double] {
        var scores = [Double](repeating: 0, count: catalog.capacity)
        let total = Double(catalog.liveCount)
        let averageLength = catalog.liveCount == 0 ? 1 : max(Double(catalog.totalLength) / total, 1)
        for term in terms {
            let found = matches(term)
            let frequency = Double(found.count)
            let idf = log(1 + (total - frequency + 0.5) / (frequency + 0.5))
            for (document, weight) in found where documents.contains(document) {
                let norm = Catalog.k1 * (1 - Catalog.b + Catalog.b * Double(catalog.length(document)) / averageLength)
                scores[document] += idf * weight * (Catalog.k1 + 1) / (weight + norm)
            }
        }
        return scores
    }
}

extension Catalog {
    /// Whether a filter is answered from the index (see `Attribute`, `AttributeQuery`).
    static func isIndexed(_ filter: FieldFilter) -> Bool {
        AttributeQuery(filter) != nil
    }

    /// The live documents a filter matches, from the index; nil for a filter that is not
    /// indexed (the caller tests each note).
    func indexedFilter(_ filter: FieldFilter) -> DocumentSet? {
        guard let query = AttributeQuery(filter) else { return nil }
        switch query {
        case let .term(key, orUnder):
            return attributeSet(key, orUnder: orUnder)
        case .absent(let key):
            var others = liveSet
            others.subtract(attributeSet(key, orUnder: false))
            return others
        case .mood:
            var set = DocumentSet(capacity: capacity)
            forEachAttribute(prefix: Attribute.mood, where: query.accepts) { set.insert($0) }
            return set
        }
    }

    /// Per document, how its title or an alias meets the words of `terms` (in query order,
    /// joined by spaces): 2 when one equals them, 1 when one starts with them (whole words,
    /// or any word when the last term is a prefix), else 0. Empty when no document of
    /// `within` has a tier above 0 (the common case: nothing allocated).
    func nameTiers(for terms: [TextTerm], within: DocumentSet) -> [UInt8] {
        let words = terms.flatMap(\.tokens).joined(separator: " ")
        guard !words.isEmpty, let last = terms.last else { return [] }
        let key = Attribute.name + words
        let length = key.utf8.count
        var tiers: [UInt8] = []
        for tier: UInt8 in [1, 2] {
            forEachAttribute(prefix: key, where: { term in
                let rest = term.utf8.dropFirst(length)
                return tier == 2 ? rest.isEmpty : !rest.isEmpty && (rest.first == 0x20 || last.isPrefix)
            }) { document in
                guard within.contains(document) else { return }
                if tiers.isEmpty { tiers = [UInt8](repeating: 0, count: capacity) }
                tiers[document] = max(tiers[document], tier)
            }
        }
        return tiers
    }

    /// Live documents holding the attribute term `key` (`orUnder`: or a term `key/…`).
    private func attributeSet(_ key: String, orUnder: Bool) -> DocumentSet {
        var set = DocumentSet(capacity: capacity)
        for (segment, offset) in [(base, 0), (delta, base.count)] {
            var ids = Array(segment.terms.range(of: key, isPrefix: false))
            if orUnder { ids += Array(segment.terms.range(of: key + "/", isPrefix: true)) }
            for id in ids {
                for posting in segment.postings(id) {
                    let document = Int(segment.postingDocs[posting])
                    guard document < segment.count else { continue }
                    if offset > 0 || baseLive[document] { set.insert(offset + document) }
                }
            }
        }
        return set
    }

    /// Calls `body` with each live document holding an attribute term that starts with
    /// `prefix` and that `accepts` (asked once per term).
    private func forEachAttribute(prefix: String, where accepts: (String) -> Bool, _ body: (Int) -> Void) {
        for (segment, offset) in [(base, 0), (delta, base.count)] {
            for id in segment.terms.range(of: prefix, isPrefix: true) where accepts(segment.terms.term(id)) {
                for posting in segment.postings(id) {
                    let document = Int(segment.postingDocs[posting])
                    guard document < segment.count, offset > 0 || baseLive[document] else { continue }
                    body(offset + document)
                }
            }
        }
    }
}
