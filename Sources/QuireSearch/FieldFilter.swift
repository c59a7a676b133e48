import Foundation

/// A comparison operator of a filter value (`mood:>=4`); `=` when none is written.
public enum Comparison: String, Equatable, Sendable {
    /// `<`
    case less = "<"
    /// `<=`
    case lessOrEqual = "<="
    /// `>`
    case greater = ">"
    /// `>=`
    case greaterOrEqual = ">="
    /// `=` (or no operator)
    case equal = "="

    /// Whether `lhs op rhs` holds.
    func holds<T: Comparable>(_ lhs: T, _ rhs: T) -> Bool {
        switch self {
        case .less: return lhs < rhs
        case .lessOrEqual: return lhs <= rhs
        case .greater: return lhs > rhs
        case .greaterOrEqual: return lhs >= rhs
        case .equal: return lhs == rhs
        }
    }
}

/// A span of time a date filter compares with: a day, a minute, a second (`start..<end`),
/// or an instant (`start == end`, from a relative value such as `7d`).
public struct DateBound: Equatable, Sendable {
    /// The first instant of the span.
    public var start: Date
    /// The instant after the span (equal to `start` for an instant).
    public var end: Date

    /// Creates a bound.
    public init(start: Date, end: Date) {
        self.start = start
        self.end = end
    }

    /// Whether `date op self` holds. Against a span: `=` is within it, `>` after it, `>=` from
    /// its start, `<` before its start, `<=` before its end. Against an instant, `=` is `>=`
    /// (`updated:7d` = within the last 7 days).
    func matches(_ date: Date, _ comparison: Comparison) -> Bool {
        if start == end {
            switch comparison {
            case .greater: return date > start
            case .greaterOrEqual, .equal: return date >= start
            case .less: return date < start
            case .lessOrEqual: return date <= start
            }
        }
        switch comparison {
        case .equal: return date >= start && date < end
        case .greater: return date >= end
        case .greaterOrEqual: return date >= start
        case .less: return date < start
        case .lessOrEqual: return date < end
        }
    }
}

/// A metadata filter of a query. String values are stored lowercased; matching is
/// case-insensitive.
public enum FieldFilter: Equatable, Sendable {
    /// `tag:x` / `#x`: a tag equal to `x` or nested under it (`x/y`).
    case tag(String)
    /// `project:x`: the project equals `x`.
    case project(String)
    /// `folder:x`: the note is in folder `x` or one of its subfolders.
    case folder(String)
    /// `draft:true|false`.
    case draft(Bool)
    /// `pinned:true|false`.
    case pinned(Bool)
    /// `color:x`.
    case color(String)
    /// `mood:>=4`: notes without a mood never match.
    case mood(Comparison, Int)
    /// `path:glob`: `*` and `?` stay within a folder, `**` crosses folders; a pattern without
    /// `/` is also tried against the file name.
    case path(String)
    /// `created:…`: notes without `createdAt` never match.
    case created(Comparison, DateBound)
    /// `updated:…`: notes without `updatedAt` never match.
    case updated(Comparison, DateBound)
    /// `key:value` for `priority`, `id` and any other front-matter key: equal (a list
    /// contains it), or compared numerically when both sides are numbers.
    case value(key: String, Comparison, String)
    /// `key:<date or age>` for any other front-matter key (`due:<7d`, `reviewed:>=2026-01`): a
    /// value that reads as a date (a YAML timestamp, or text or epoch numbers `NoteFields`
    /// reads as one) is compared with the bound as `created:` is; any other value as `value`
    /// compares it with the text as written (the last field, lowercased).
    case dated(key: String, Comparison, DateBound, String)
    /// `links-to:NOTE`: the note links to NOTE (a path, file name, title or alias, resolved as a
    /// link written at the vault root would be; every candidate of an ambiguous name counts).
    /// Kept as written: resolution ignores case but prefers the exact spelling.
    case linksTo(String)
    /// `linked-from:NOTE`: NOTE links to the note.
    case linkedFrom(String)
    /// `orphan:true|false`: the note links to no other note and none links to it.
    case orphan(Bool)
    /// `broken-links:true|false`: a link of the note is unresolved or ambiguous.
    case brokenLinks(Bool)

    /// Whether the filter is about links (answered by the catalog's link graph, not a record).
    public var isLinkFilter: Bool {
        switch self {
        case .linksTo, .linkedFrom, .orphan, .brokenLinks: return true
        default: return false
        }
    }
}
