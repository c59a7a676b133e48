import Foundation

/// Conveniences for reading, building and encoding front-matter values.
extension FrontMatterValue {
    /// The string of a `.string`, else nil.
    public var stringValue: String? {
        if case let .string(text) = self { return text }
        return nil
    }

    /// The number of an `.int`, else nil.
    public var intValue: Int? {
        if case let .int(number) = self { return number }
        return nil
    }

    /// The flag of a `.bool`, else nil.
    public var boolValue: Bool? {
        if case let .bool(flag) = self { return flag }
        return nil
    }

    /// The items of a `.list`, else nil.
    public var listValue: [FrontMatterValue]? {
        if case let .list(items) = self { return items }
        return nil
    }

    /// A scalar as text as written (`2024` → "2024", a date → its text); nil for null, lists, maps.
    public var scalarText: String? { NoteFields.text(of: self) }

    /// A date from a timestamp, epoch number or date-shaped string (see `NoteFields.date`).
    public func dateValue(timeZone: TimeZone = .current) -> Date? {
        NoteFields.date(from: self, timeZone: timeZone)
    }

    /// A timestamp written as ISO 8601 with seconds and the offset of `timeZone`.
    public static func timestamp(_ date: Date, timeZone: TimeZone = .current) -> FrontMatterValue {
        .date(date, text: QuireClock.iso8601(date, timeZone: timeZone))
    }

    /// The value as it is written in YAML on one line (`[a, b]`, `"quoted: text"`, `42`).
    public var yamlText: String { FrontMatterRenderer.inline(self) }

    /// Reads a YAML value written on one line, as a user types it on the command line
    /// (`42` → int, `true` → bool, `[a, b]` → list, `2026-01-02` → date, other text → string).
    /// Text that is not valid YAML is taken as a plain string.
    public static func parse(yaml text: String, timeZone: TimeZone = .current) -> FrontMatterValue {
        guard !text.contains(where: \.isNewline) else { return .string(text) }
        var bytes = Array(("value: " + text + "\n").utf8)
        let result = bytes.withUnsafeMutableBufferPointer { buffer in
            YAMLReader.read(UnsafeBufferPointer(buffer), firstLine: 1, timeZone: timeZone)
        }
        guard result.problems.isEmpty, result.entries.count == 1, let entry = result.entries.first,
              entry.key == "value" else { return .string(text) }
        return entry.value
    }
}

extension FrontMatterValue: Encodable {
    /// Encodes as natural JSON: null, booleans, numbers, strings (dates as written, or ISO
    /// 8601), arrays and objects. Non-finite floats become the strings `.inf`, `-.inf`, `.nan`.
    public func encode(to encoder: Encoder) throws {
        switch self {
        case .null:
            var container = encoder.singleValueContainer()
            try container.encodeNil()
        case let .bool(flag):
            var container = encoder.singleValueContainer()
            try container.encode(flag)
        case let .int(number):
            var container = encoder.singleValueContainer()
            try container.encode(number)
        case let .float(number):
            var container = encoder.singleValueContainer()
            if number.isFinite { try container.encode(number) } else { try container.encode(FrontMatterRenderer.float(number)) }
        case let .string(text):
            var container = encoder.singleValueContainer()
            try container.encode(text)
        case let .date(date, text):
            var container = encoder.singleValueContainer()
            try container.encode(text.isEmpty ? QuireClock.iso8601(date) : text)
        case let .list(items):
            var container = encoder.unkeyedContainer()
            for item in items { try container.encode(item) }
        case let .map(entries):
            var container = encoder.container(keyedBy: DynamicKey.self)
            for entry in entries { try container.encode(entry.value, forKey: DynamicKey(entry.key)) }
        }
    }

    private struct DynamicKey: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(_ key: String) { stringValue = key }
        init?(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { return nil }
    }
}
