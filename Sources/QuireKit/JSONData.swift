import Foundation

/// A JSON value whose objects keep their keys in the order written, so an imported entry's
/// extra keys land in its front matter in that order and an export is byte-for-byte
/// deterministic. Numbers keep whether they were written as integers.
public indirect enum JSONData: Equatable, Sendable {
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
    case array([JSONData])
    /// An object, keys in written order (a repeated key keeps its last value, at its first place).
    case object([(key: String, value: JSONData)])

    /// Compares structurally (object keys in order).
    public static func == (lhs: JSONData, rhs: JSONData) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): return true
        case let (.bool(a), .bool(b)): return a == b
        case let (.int(a), .int(b)): return a == b
        case let (.double(a), .double(b)): return a == b
        case let (.string(a), .string(b)): return a == b
        case let (.array(a), .array(b)): return a == b
        case let (.object(a), .object(b)):
            return a.count == b.count && zip(a, b).allSatisfy { $0.key == $1.key && $0.value == $1.value }
        default: return false
        }
    }

    /// The value of `key` in an object (nil for other values or a missing key).
    public subscript(key: String) -> JSONData? {
        guard case let .object(pairs) = self else { return nil }
        return pairs.first { $0.key == key }?.value
    }

    /// Compact JSON text (no spaces), strings escaped minimally (`"`, `\`, control characters).
    public func rendered() -> String {
        var out = ""
        write(into: &out)
        return out
    }

    private func write(into out: inout String) {
        switch self {
        case .null: out += "null"
        case .bool(let value): out += value ? "true" : "false"
        case .int(let value): out += String(value)
        case .double(let value): out += value.isFinite ? String(value) : "null"
        case .string(let value): JSONData.escape(value, into: &out)
        case .array(let items):
            out += "["
            for (index, item) in items.enumerated() {
                if index > 0 { out += "," }
                item.write(into: &out)
            }
            out += "]"
        case .object(let pairs):
            out += "{"
            for (index, pair) in pairs.enumerated() {
                if index > 0 { out += "," }
                JSONData.escape(pair.key, into: &out)
                out += ":"
                pair.value.write(into: &out)
            }
            out += "}"
        }
    }

    private static func escape(_ text: String, into out: inout String) {
        out += "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            default:
                if scalar.value < 0x20 {
                    out += "\\u" + String(repeating: "0", count: 4 - String(scalar.value, radix: 16).count)
                        + String(scalar.value, radix: 16)
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        out += "\""
    }
}

/// Why JSON text could not be read: what was expected and the byte offset.
public struct JSONSyntaxError: Error, Equatable, Sendable, CustomStringConvertible {
    /// What the reader expected or found.
    public var reason: String
    /// The 0-based byte offset in the text.
    public var offset: Int
    /// The 1-based line of `offset`.
    public var line: Int

    /// `line 3: expected ',' or '}'`.
    public var description: String { "line \(line): \(reason)" }
}
