/// What a metadata filter asks of a note's attribute terms (`Attribute`): the one definition
/// of `tag:`, `folder:`, `project:`, `color:`, `mood:`, `draft:` and `pinned:`. The catalog
/// answers it from the index (`Catalog.indexedFilter`, a posting list per term) and a single
/// record from its own terms (`NoteRecord.matches`): both read this value, so they cannot differ.
enum AttributeQuery: Equatable {
    /// Notes holding the term `key` (`orUnder`: or a term `key/…`, a nested tag or subfolder).
    case term(String, orUnder: Bool)
    /// Notes not holding the term `key` (`draft:false`).
    case absent(String)
    /// Notes whose mood term's number `op value` holds; notes without a mood never match.
    case mood(Comparison, Int)

    /// The query of `filter`; nil for a filter the attribute terms do not answer (`path:`,
    /// dates, other keys: each note's fields are tested).
    init?(_ filter: FieldFilter) {
        switch filter {
        case .tag(let value): self = .term(Attribute.tag + Attribute.key(value), orUnder: true)
        case .folder(let value): self = .term(Attribute.folder + Attribute.key(value), orUnder: true)
        case .project(let value): self = .term(Attribute.project + Attribute.key(value), orUnder: false)
        case .color(let value): self = .term(Attribute.color + Attribute.key(value), orUnder: false)
        case .draft(let flag): self = flag ? .term(Attribute.draft, orUnder: false) : .absent(Attribute.draft)
        case .pinned(let flag): self = flag ? .term(Attribute.pinned, orUnder: false) : .absent(Attribute.pinned)
        case .mood(let comparison, let value): self = .mood(comparison, value)
        case .path, .created, .updated, .value, .dated: return nil
        case .linksTo, .linkedFrom, .orphan, .brokenLinks: return nil  // the link graph answers these
        }
    }

    /// Whether the attribute term `term` is one this query wants (for `.absent`: the one it
    /// must not find).
    func accepts(_ term: String) -> Bool {
        switch self {
        case let .term(key, orUnder):
            return term == key || (orUnder && term.hasPrefix(key) && term.utf8.dropFirst(key.utf8.count).first == UInt8(ascii: "/"))
        case .absent(let key):
            return term == key
        case let .mood(comparison, value):
            guard term.hasPrefix(Attribute.mood), let mood = Int(term.dropFirst(Attribute.mood.count)) else { return false }
            return comparison.holds(mood, value)
        }
    }

    /// Whether a note with these attribute terms matches.
    func matches(terms: [String]) -> Bool {
        if case .absent = self { return !terms.contains(where: accepts) }
        return terms.contains(where: accepts)
    }
}
