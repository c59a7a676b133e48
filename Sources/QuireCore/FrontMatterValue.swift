import Foundation

/// A typed YAML value read from a note's front matter (YAML 1.2 core schema plus timestamps).
public indirect enum FrontMatterValue: Equatable, Sendable {
    /// `null`, `~` or an empty value.
    case null
    /// `true` / `false` (YAML 1.2: `yes`/`no` are strings).
    case bool(Bool)
    /// An integer scalar.
    case int(Int)
    /// A floating-point scalar.
    case float(Double)
    /// A string scalar (quoted, or plain that is no other type).
    case string(String)
    /// A timestamp recognised by its shape; `text` is the scalar exactly as written.
    case date(Date, text: String)
    /// A sequence.
    case list([FrontMatterValue])
    /// A mapping, in the order written.
    case map([FrontMatterEntry])
}

/// One key of a front-matter mapping with its value, in document order.
public struct FrontMatterEntry: Equatable, Sendable {
    /// The key as written.
    public var key: String
    /// The typed value.
    public var value: FrontMatterValue

    /// Creates an entry.
    public init(key: String, value: FrontMatterValue) {
        self.key = key
        self.value = value
    }
}
