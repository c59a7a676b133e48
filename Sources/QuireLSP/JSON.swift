import Foundation

/// A JSON value as the protocol carries it: parsed from a message's bytes and encoded back.
/// Object keys keep their order (encoding is deterministic), numbers keep whether they were
/// integers (request ids, positions).
public enum JSON: Sendable, Equatable {
    case null
    case bool(Bool)
    case int(Int)
    case double(Double)
    case string(String)
    case array([JSON])
    case object([(String, JSON)])

    /// Compares values; objects compare as key sets (order does not matter).
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

    /// The string, when this is one.
    public var string: String? {
        if case let .string(text) = self { return text }
        return nil
    }

    /// The integer, when this is one (a double with no fraction counts).
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

    /// An object from key–value pairs; nil values are left out.
    public static func object(_ pairs: KeyValuePairs<String, JSON?>) -> JSON {
        .object(pairs.compactMap { key, value in value.map { (key, $0) } })
    }

    /// The compact UTF-8 encoding.
    public func encoded() -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(256)
        write(into: &out)
        return out
    }

    /// The compact encoding as text.
    public var text: String { String(decoding: encoded(), as: UTF8.self) }

    private func write(into out: inout [UInt8]) {
        switch self {
        case .null: out.append(contentsOf: Array("null".utf8))
        case let .bool(value): out.append(contentsOf: Array((value ? "true" : "false").utf8))
        case let .int(number): out.append(contentsOf: Array(String(number).utf8))
        case let .double(number):
            if number.isFinite {
                out.append(contentsOf: Array((number.rounded() == number && abs(number) < 1e15
                    ? String(Int(number)) : String(number)).utf8))
            } else {
                out.append(contentsOf: Array("null".utf8))
            }
        case let .string(text): Self.writeString(text, into: &out)
        case let .array(items):
            out.append(UInt8(ascii: "["))
            for (index, item) in items.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                item.write(into: &out)
            }
            out.append(UInt8(ascii: "]"))
        case let .object(members):
            out.append(UInt8(ascii: "{"))
            for (index, member) in members.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                Self.writeString(member.0, into: &out)
                out.append(UInt8(ascii: ":"))
                member.1.write(into: &out)
            }
            out.append(UInt8(ascii: "}"))
        }
    }

    private static let hex = Array("0123456789abcdef".utf8)

    private static func writeString(_ text: String, into out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\""): out.append(contentsOf: [92, 34])
            case UInt8(ascii: "\\"): out.append(contentsOf: [92, 92])
            case 0x0A: out.append(contentsOf: [92, UInt8(ascii: "n")])
            case 0x0D: out.append(contentsOf: [92, UInt8(ascii: "r")])
            case 0x09: out.append(contentsOf: [92, UInt8(ascii: "t")])
            case 0..<0x20:
                out.append(contentsOf: [92, UInt8(ascii: "u"), 48, 48, hex[Int(byte >> 4)], hex[Int(byte & 15)]])
            default: out.append(byte)
            }
        }
        out.append(UInt8(ascii: "\""))
    }
}

/// Why a message body is not JSON, with the byte offset where reading stopped.
public struct JSONParseError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Byte offset in the body.
    public var offset: Int
    /// What was expected or found, lowercase.
    public var reason: String

    /// A readable, lowercase description.
    public var description: String { "invalid json at byte \(offset): \(reason)" }
}
