import Foundation
import QuireCore
@testable import QuireSearch

/// A brute-force evaluator that scans every note for every query: the oracle the catalog's
/// results must equal.
struct ReferenceEvaluator {
    /// A title or project as lists sort it: no case, no diacritics.
    static func sortText(_ text: String) -> String {
        text.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil)
    }

    struct Document {
        var note: Note
        var fields: [[String]]
        var length: Int
    }

    let documents: [Document]

    init(notes: [Note]) {
        documents = notes.map { note in
            var texts = [note.title] + note.tags
            if let project = note.project { texts.append(project) }
            texts += note.aliases
            texts.append(note.body)
            let fields = texts.map { Tokenizer.terms(in: $0) }
            return Document(note: note, fields: fields, length: fields.reduce(0) { $0 + $1.count })
        }
    }

    /// Paths in result order.
    func run(_ query: NoteQuery, sort: SortKey?, reverse: Bool) -> [(String, Double)] {
        let matching = documents.filter { matches(query.root, $0) }
        let terms = query.positiveTerms
        let total = Double(documents.count)
        let averageLength = max(Double(documents.reduce(0) { $0 + $1.length }) / total, 1)
        var scores: [String: Double] = [:]
        for term in terms {
            let weights = documents.map { weight(term, $0) }
            let frequency = Double(weights.filter { $0 > 0 }.count)
            let idf = log(1 + (total - frequency + 0.5) / (frequency + 0.5))
            for (index, document) in documents.enumerated() where weights[index] > 0 {
                let weight = weights[index]
                let norm = Catalog.k1 * (1 - Catalog.b + Catalog.b * Double(document.length) / averageLength)
                scores[document.note.path, default: 0] += idf * weight * (Catalog.k1 + 1) / (weight + norm)
            }
        }
        let key = sort ?? (terms.isEmpty ? nil : .relevance)
        let tiers = Dictionary(uniqueKeysWithValues: documents.map { ($0.note.path, Self.nameTier($0.note, terms)) })
        let sorted = matching.sorted { a, b in
            if key == .relevance, let x = tiers[a.note.path], let y = tiers[b.note.path], x != y {
                return reverse ? x < y : x > y
            }
            return before(a.note, b.note, key, reverse, scores)
        }
        return sorted.map { ($0.note.path, terms.isEmpty ? 0 : scores[$0.note.path] ?? 0) }
    }

    /// 2 when the title or an alias, folded, is the query's words; 1 when one starts with
    /// them (then a space, or anything when the last term is a prefix); else 0.
    static func nameTier(_ note: Note, _ terms: [TextTerm]) -> Int {
        let words = terms.flatMap(\.tokens).joined(separator: " ")
        guard !words.isEmpty, let last = terms.last else { return 0 }
        var tier = 0
        for name in [note.title] + note.aliases {
            let folded = Tokenizer.terms(in: name).joined(separator: " ")
            guard folded.utf8.count <= 256, Array(folded.utf8).starts(with: Array(words.utf8)) else { continue }
            let rest = Array(folded.utf8).dropFirst(words.utf8.count)
            if rest.isEmpty { return 2 }
            if rest.first == 0x20 || last.isPrefix { tier = 1 }
        }
        return tier
    }

    private func before(_ a: Note, _ b: Note, _ key: SortKey?, _ reverse: Bool, _ scores: [String: Double]) -> Bool {
        func optional<T: Comparable>(_ x: T?, _ y: T?, descending: Bool) -> Bool? {
            switch (x, y) {
            case let (x?, y?): return x == y ? nil : (descending ? x > y : x < y)
            case (nil, nil): return nil
            case (nil, _): return false
            case (_, nil): return true
            }
        }
        let decided: Bool?
        switch key {
        case nil:
            if a.pinned != b.pinned { return reverse ? b.pinned : a.pinned }
            decided = optional(a.updatedAt, b.updatedAt, descending: !reverse)
        case .relevance: decided = optional(scores[a.path] ?? 0, scores[b.path] ?? 0, descending: !reverse)
        case .updated: decided = optional(a.updatedAt, b.updatedAt, descending: !reverse)
        case .created: decided = optional(a.createdAt, b.createdAt, descending: !reverse)
        case .words: decided = optional(a.words, b.words, descending: !reverse)
        // Without case and diacritics (`Ranker.sortText`, written out here): `écrire` before `Zebra`.
        case .title: decided = optional(Self.sortText(a.title), Self.sortText(b.title), descending: reverse)
        case .project: decided = optional(a.project.map(Self.sortText), b.project.map(Self.sortText), descending: reverse)
        case .path: return reverse ? a.path > b.path : a.path < b.path
        }
        return decided ?? (a.path < b.path)
    }

    func matches(_ node: QueryNode, _ document: Document) -> Bool {
        switch node {
        case .all: return true
        case .term(let term): return weight(term, document) > 0
        case .filter(let filter): return matches(filter, document.note)
        case .not(let child): return !matches(child, document)
        case .and(let children): return children.allSatisfy { matches($0, document) }
        case .or(let children): return children.contains { matches($0, document) }
        }
    }

    /// Title occurrences × boost + other occurrences.
    func weight(_ term: TextTerm, _ document: Document) -> Double {
        var total = 0.0
        for (index, field) in document.fields.enumerated() {
            if term.scope == .title && index > 0 { break }
            let count = occurrences(term, field)
            total += index == 0 ? Catalog.titleBoost * Double(count) : Double(count)
        }
        return total
    }

    private func occurrences(_ term: TextTerm, _ field: [String]) -> Int {
        let size = term.tokens.count
        guard field.count >= size else { return 0 }
        var count = 0
        for start in 0...(field.count - size) {
            var ok = true
            for offset in 0..<size {
                let token = term.tokens[offset]
                let candidate = field[start + offset]
                let prefix = term.isPrefix && offset == size - 1
                if prefix ? !Array(candidate.utf8).starts(with: Array(token.utf8)) : candidate != token {
                    ok = false
                    break
                }
            }
            if ok { count += 1 }
        }
        return count
    }

    private func under(_ value: String, _ wanted: String) -> Bool {
        let lowered = value.lowercased()
        return lowered == wanted || lowered.hasPrefix(wanted + "/")
    }

    func matches(_ filter: FieldFilter, _ note: Note) -> Bool {
        switch filter {
        case .tag(let tag): return note.tags.contains { under($0, tag) }
        case .project(let project): return note.project?.lowercased() == project
        case .folder(let folder): return under(note.folder, folder)
        case .draft(let flag): return note.draft == flag
        case .pinned(let flag): return note.pinned == flag
        case .color(let color): return note.color?.lowercased() == color
        case .mood(let comparison, let mood):
            guard let value = note.mood else { return false }
            return compare(Double(value), comparison, Double(mood))
        case .path(let glob):
            let path = note.path.lowercased()
            if fnmatch(glob, path, FNM_PATHNAME) == 0 { return true }
            return !glob.contains("/") && fnmatch(glob, String(path.split(separator: "/").last ?? ""), 0) == 0
        case .created(let comparison, let bound): return note.createdAt.map { date($0, comparison, bound) } ?? false
        case .updated(let comparison, let bound): return note.updatedAt.map { date($0, comparison, bound) } ?? false
        case .value(let key, let comparison, let wanted):
            return field(key, of: note).map { generic($0, comparison, wanted) } ?? false
        case .dated(let key, let comparison, let bound, let written):
            guard let value = field(key, of: note) else { return false }
            return dated(value, comparison, bound) ?? generic(value, comparison, written)
        case .linksTo, .linkedFrom, .orphan, .brokenLinks:
            return false
        }
    }

    private func field(_ key: String, of note: Note) -> FrontMatterValue? {
        switch key {
        case "priority": return note.priority
        case "id": return note.id.map { .string($0) }
        case "aliases": return .list(note.aliases.map { .string($0) })
        default:
            return note.frontMatter.first { $0.key.lowercased() == key && !NoteRecord.canonicalKeys.contains($0.key) }?.value
        }
    }

    /// A value that reads as a date compared with `bound`; nil for any other.
    private func dated(_ value: FrontMatterValue, _ comparison: Comparison, _ bound: DateBound) -> Bool? {
        switch value {
        case .list(let items):
            let answers = items.compactMap { dated($0, comparison, bound) }
            return answers.isEmpty ? nil : answers.contains(true)
        case .date, .string: return NoteFields.date(from: value).map { date($0, comparison, bound) }
        default: return nil
        }
    }

    private func compare<T: Comparable>(_ a: T, _ comparison: Comparison, _ b: T) -> Bool {
        switch comparison {
        case .less: return a < b
        case .lessOrEqual: return a <= b
        case .greater: return a > b
        case .greaterOrEqual: return a >= b
        case .equal: return a == b
        }
    }

    private func date(_ value: Date, _ comparison: Comparison, _ bound: DateBound) -> Bool {
        if bound.start == bound.end {
            return compare(value, comparison == .equal ? .greaterOrEqual : comparison, bound.start)
        }
        switch comparison {
        case .equal: return value >= bound.start && value < bound.end
        case .greater: return value >= bound.end
        case .greaterOrEqual: return value >= bound.start
        case .less: return value < bound.start
        case .lessOrEqual: return value < bound.end
        }
    }

    private func generic(_ value: FrontMatterValue, _ comparison: Comparison, _ wanted: String) -> Bool {
        switch value {
        case .list(let items): return items.contains { generic($0, comparison, wanted) }
        case .int(let number):
            if let target = Double(wanted) { return compare(Double(number), comparison, target) }
            return compare(String(number), comparison, wanted)
        case .float(let number):
            if let target = Double(wanted) { return compare(number, comparison, target) }
            return compare(String(number), comparison, wanted)
        case .string(let text): return compare(text.lowercased(), comparison, wanted)
        case .bool(let flag): return compare(flag ? "true" : "false", comparison, wanted)
        case .date(_, let text): return compare(text.lowercased(), comparison, wanted)
        case .map, .null: return false
        }
    }
}
