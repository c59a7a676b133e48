import Foundation

extension FrontMatterValue {
    /// This value as JSON: lists as arrays, maps as objects in their key order, numbers and
    /// booleans as themselves, and a date as `date` writes it (given the date and its text as
    /// the front matter has it) — the one conversion `quire show --json`, `list --json` and
    /// `export --format json` share.
    public func json(date: (Date, String) -> String) -> JSON {
        switch self {
        case .null: return .null
        case let .bool(flag): return .bool(flag)
        case let .int(number): return .int(number)
        case let .float(number): return .double(number)
        case let .string(text): return .string(text)
        case let .date(value, text): return .string(date(value, text))
        case let .list(items): return .array(items.map { $0.json(date: date) })
        case let .map(entries): return .object(entries.map { ($0.key, $0.value.json(date: date)) })
        }
    }

    /// A JSON value as a front-matter value (objects keep their key order; text stays text,
    /// dates included — JSON has none of its own): what `quire import` keeps of keys it does
    /// not know.
    public init(json: JSON) {
        switch json {
        case .null: self = .null
        case let .bool(flag): self = .bool(flag)
        case let .int(number): self = .int(number)
        case let .double(number): self = .float(number)
        case let .string(text): self = .string(text)
        case let .array(items): self = .list(items.map(FrontMatterValue.init(json:)))
        case let .object(members): self = .map(members.map { FrontMatterEntry(key: $0.0, value: FrontMatterValue(json: $0.1)) })
        }
    }
}
