import Foundation

/// Resolves plain YAML scalars by the YAML 1.2 core schema, plus timestamps by shape.
enum ScalarResolver {
    /// The typed value of a plain (unquoted) scalar.
    static func resolve(plain text: String, timeZone: TimeZone) -> FrontMatterValue {
        guard let first = text.utf8.first else { return .null }
        switch first {
        case UInt8(ascii: "~"), UInt8(ascii: "n"), UInt8(ascii: "N"):
            if text == "~" || text == "null" || text == "Null" || text == "NULL" { return .null }
        case UInt8(ascii: "t"), UInt8(ascii: "T"):
            if text == "true" || text == "True" || text == "TRUE" { return .bool(true) }
        case UInt8(ascii: "f"), UInt8(ascii: "F"):
            if text == "false" || text == "False" || text == "FALSE" { return .bool(false) }
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "+"), UInt8(ascii: "."):
            if let number = number(text) { return number }
            if let (date, _) = Timestamp.parse(text, timeZone: timeZone) { return .date(date, text: text) }
        default:
            break
        }
        return .string(text)
    }

    /// The value of an explicitly tagged scalar (`!!str`, `!!int`, ...), or nil for other tags.
    static func resolve(tagged text: String, tag: String, timeZone: TimeZone) -> FrontMatterValue? {
        let prefix = "tag:yaml.org,2002:"
        guard tag.hasPrefix(prefix) else { return nil }
        switch tag.dropFirst(prefix.count) {
        case "str": return .string(text)
        case "null": return .null
        case "bool", "int", "float", "timestamp": return resolve(plain: text, timeZone: timeZone)
        default: return nil
        }
    }

    /// An int (decimal, `0x`, `0o`) or a float, by the core schema.
    static func number(_ text: String) -> FrontMatterValue? {
        var copy = text
        return copy.withUTF8 { number(text, bytes: $0) }
    }

    /// `number` of `text` whose UTF-8 is `bytes` (read in place: every date-shaped scalar of
    /// every note passes here first).
    private static func number(_ text: String, bytes: UnsafeBufferPointer<UInt8>) -> FrontMatterValue? {
        if bytes.count > 2, bytes[0] == UInt8(ascii: "0") {
            let digits = UnsafeBufferPointer(rebasing: bytes[2...])
            if bytes[1] == UInt8(ascii: "x"), digits.allSatisfy(isHex) {
                return Int(text.dropFirst(2), radix: 16).map(FrontMatterValue.int)
            }
            if bytes[1] == UInt8(ascii: "o"), digits.allSatisfy({ $0 >= 48 && $0 <= 55 }) {
                return Int(text.dropFirst(2), radix: 8).map(FrontMatterValue.int)
            }
        }
        var index = 0
        if index < bytes.count, bytes[index] == UInt8(ascii: "-") || bytes[index] == UInt8(ascii: "+") {
            index += 1
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            let rest = UnsafeBufferPointer(rebasing: bytes[index...])
            if equals(rest, ".inf") || equals(rest, ".Inf") || equals(rest, ".INF") {
                return .float(bytes.first == UInt8(ascii: "-") ? -.infinity : .infinity)
            }
            if index == 0, equals(rest, ".nan") || equals(rest, ".NaN") || equals(rest, ".NAN") { return .float(.nan) }
        }
        let integerStart = index
        while index < bytes.count, isDigit(bytes[index]) { index += 1 }
        let integerDigits = index - integerStart
        if index == bytes.count {
            guard integerDigits > 0 else { return nil }
            if let value = Int(text) { return .int(value) }
            return Double(text).map(FrontMatterValue.float)
        }
        var fractionDigits = 0
        if bytes[index] == UInt8(ascii: ".") {
            index += 1
            while index < bytes.count, isDigit(bytes[index]) { index += 1; fractionDigits += 1 }
        }
        guard integerDigits + fractionDigits > 0 else { return nil }
        if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "-") || bytes[index] == UInt8(ascii: "+") {
                index += 1
            }
            let exponentStart = index
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
            guard index > exponentStart else { return nil }
        }
        guard index == bytes.count else { return nil }
        return Double(text).map(FrontMatterValue.float)
    }

    /// Whether `bytes` are the ASCII `literal`.
    private static func equals(_ bytes: UnsafeBufferPointer<UInt8>, _ literal: StaticString) -> Bool {
        bytes.count == literal.utf8CodeUnitCount
            && bytes.elementsEqual(UnsafeBufferPointer(start: literal.utf8Start, count: literal.utf8CodeUnitCount))
    }

    private static func isDigit(_ byte: UInt8) -> Bool { byte >= 48 && byte <= 57 }

    private static func isHex(_ byte: UInt8) -> Bool {
        isDigit(byte) || (byte >= 97 && byte <= 102) || (byte >= 65 && byte <= 70)
    }
}
