import Foundation

/// A JSON value (RFC 8259), the one used by every part of quire that reads or writes JSON: the
/// import and export, the language server's messages, the CLI's `--json` output. Read with
/// `JSON.parse(_:)` (`JSONReader`), written with `rendered(_:)` / `encoded(_:)` (`JSON+Writing`).
///
/// Object members keep the order they were written or built in, so output is deterministic and
/// an imported entry's extra keys reach its front matter in order. Numbers keep whether they
/// were written as integers: request ids, positions and imported values stay exact `Int`s.
public enum JSON: Sendable, Equatable {
    /// `null`.
    case null
    /// `true` / `false`.
    case bool(Bool)
    /// A number written without fraction or exponent that fits an `Int`.
    case int(Int)
    /// Any other number.
    case double(Double)
    /// A string.
    case string(String)
    /// An array.
    case array([JSON])
    /// An object's members in order. A parsed object has each key once (a repeated key keeps
    /// its last value at its first place); a built one is written as given.
    case object([(String, JSON)])

    /// Compares values as JSON means them: objects as sets of keys (member order does not
    /// matter; use `members` to compare orders), numbers by value (`1` equals `1.0`).
    public static func == (lhs: JSON, rhs: JSON) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): return true
        case let (.bool(a), .bool(b)): return a == b
        case let (.int(a), .int(b)): return a == b
        case let (.double(a), .double(b)): return a == b
        case let (.int(a), .double(b)), let (.double(b), .int(a)): return Double(a) == b
        case let (.string(a), .string(b)): return a == b
        case let (.array(a), .array(b)): return a == b
        case let (.object(a), .object(b)):
            guard a.count == b.count else { return false }
            for (key, value) in a where rhs[key] != value { return false }
            return true
        default: return false
        }
    }

    /// An object from key–value pairs in order; nil values are left out.
    public static func object(_ pairs: KeyValuePairs<String, JSON?>) -> JSON {
        .object(pairs.compactMap { key, value in value.map { (key, $0) } })
    }

    /// The string, or `null` for nil.
    public static func string(_ value: String?) -> JSON { value.map { .string($0) } ?? .null }

    /// The integer, or `null` for nil.
    public static func int(_ value: Int?) -> JSON { value.map { .int($0) } ?? .null }

    /// The member `key` of an object (the first with that name), else nil.
    public subscript(key: String) -> JSON? {
        guard case let .object(members) = self else { return nil }
        return members.first { $0.0 == key }?.1
    }

    /// The element at `index` of an array, else nil.
    public subscript(index: Int) -> JSON? {
        guard case let .array(items) = self, items.indices.contains(index) else { return nil }
        return items[index]
    }

    /// The members in order, when this is an object.
    public var members: [(key: String, value: JSON)]? {
        guard case let .object(members) = self else { return nil }
        return members.map { (key: $0.0, value: $0.1) }
    }

    /// The string, when this is one.
    public var string: String? {
        if case let .string(text) = self { return text }
        return nil
    }

    /// The integer, when this is one (a double with no fraction below 9·10¹⁵ counts).
    public var int: Int? {
        switch self {
        case let .int(number): return number
        case let .double(number) where number.rounded() == number && abs(number) < 9e15: return Int(number)
        default: return nil
        }
    }

    /// The boolean, when this is one.
    public var bool: Bool? {
        if case let .bool(value) = self { return value }
        return nil
    }

    /// The elements, when this is an array.
    public var array: [JSON]? {
        if case let .array(items) = self { return items }
        return nil
    }

    /// Whether this is an object.
    public var isObject: Bool {
        if case .object = self { return true }
        return false
    }
}
