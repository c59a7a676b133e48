import Foundation

/// Reads JSON text (RFC 8259) into `JSONData`, keeping object keys in order. Nesting is limited
/// (`maximumDepth`) so hostile input cannot exhaust the stack; invalid UTF-8 in strings is
/// replaced, never trusted.
public struct JSONReader {
    /// How deep arrays and objects may nest.
    public static let maximumDepth = 256

    private let bytes: [UInt8]
    private var position = 0
    private var depth = 0

    private init(_ bytes: [UInt8]) {
        self.bytes = bytes
    }

    /// Reads one JSON value filling all of `data` (whitespace and a UTF-8 BOM around it allowed).
    public static func parse(_ data: Data) throws -> JSONData {
        var reader = JSONReader([UInt8](data))
        reader.skipBOM()
        let value = try reader.value()
        reader.skipSpace()
        guard reader.position == reader.bytes.count else { throw reader.failure("unexpected text after the value") }
        return value
    }

    /// Reads one value from a line of JSON Lines; same rules as `parse`.
    public static func parse(line: ArraySlice<UInt8>) throws -> JSONData {
        try parse(Data(line))
    }

    private mutating func skipBOM() {
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { position = 3 }
    }

    private mutating func skipSpace() {
        while position < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[position]) { position += 1 }
    }

    private func failure(_ reason: String) -> JSONSyntaxError {
        let line = bytes[..<min(position, bytes.count)].reduce(1) { $1 == 0x0A ? $0 + 1 : $0 }
        return JSONSyntaxError(reason: reason, offset: position, line: line)
    }

    private mutating func value() throws -> JSONData {
        skipSpace()
        guard position < bytes.count else { throw failure("unexpected end of the text") }
        switch bytes[position] {
        case UInt8(ascii: "{"): return try nested { try $0.object() }
        case UInt8(ascii: "["): return try nested { try $0.array() }
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "t"): try literal("true"); return .bool(true)
        case UInt8(ascii: "f"): try literal("false"); return .bool(false)
        case UInt8(ascii: "n"): try literal("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try number()
        default: throw failure("unexpected character")
        }
    }

    private mutating func nested(_ read: (inout JSONReader) throws -> JSONData) throws -> JSONData {
        depth += 1
        defer { depth -= 1 }
        guard depth <= Self.maximumDepth else { throw failure("nested more than \(Self.maximumDepth) levels") }
        return try read(&self)
    }

    private mutating func literal(_ word: String) throws {
        let expected = Array(word.utf8)
        guard bytes.count - position >= expected.count, Array(bytes[position..<position + expected.count]) == expected else {
            throw failure("unexpected character")
        }
        position += expected.count
    }

    private mutating func object() throws -> JSONData {
        position += 1
        var pairs: [(key: String, value: JSONData)] = []
        var indexByKey: [String: Int] = [:]
        skipSpace()
        if position < bytes.count, bytes[position] == UInt8(ascii: "}") { position += 1; return .object(pairs) }
        while true {
            skipSpace()
            guard position < bytes.count, bytes[position] == UInt8(ascii: "\"") else { throw failure("expected a key in quotes") }
            let key = try string()
            skipSpace()
            guard position < bytes.count, bytes[position] == UInt8(ascii: ":") else { throw failure("expected ':'") }
            position += 1
            let item = try value()
            if let index = indexByKey[key] {
                pairs[index].value = item
            } else {
                indexByKey[key] = pairs.count
                pairs.append((key, item))
            }
            skipSpace()
            guard position < bytes.count else { throw failure("expected ',' or '}'") }
            if bytes[position] == UInt8(ascii: ",") { position += 1; continue }
            if bytes[position] == UInt8(ascii: "}") { position += 1; return .object(pairs) }
            throw failure("expected ',' or '}'")
        }
    }

    private mutating func array() throws -> JSONData {
        position += 1
        var items: [JSONData] = []
        skipSpace()
        if position < bytes.count, bytes[position] == UInt8(ascii: "]") { position += 1; return .array(items) }
        while true {
            items.append(try value())
            skipSpace()
            guard position < bytes.count else { throw failure("expected ',' or ']'") }
            if bytes[position] == UInt8(ascii: ",") { position += 1; continue }
            if bytes[position] == UInt8(ascii: "]") { position += 1; return .array(items) }
            throw failure("expected ',' or ']'")
        }
    }

    private mutating func number() throws -> JSONData {
        let start = position
        var integral = true
        if bytes[position] == UInt8(ascii: "-") { position += 1 }
        let digits = { (reader: inout JSONReader) -> Int in
            let first = reader.position
            while reader.position < reader.bytes.count, (48...57).contains(reader.bytes[reader.position]) { reader.position += 1 }
            return reader.position - first
        }
        guard digits(&self) > 0 else { throw failure("expected a digit") }
        if position < bytes.count, bytes[position] == UInt8(ascii: ".") {
            integral = false
            position += 1
            guard digits(&self) > 0 else { throw failure("expected a digit after '.'") }
        }
        if position < bytes.count, bytes[position] == UInt8(ascii: "e") || bytes[position] == UInt8(ascii: "E") {
            integral = false
            position += 1
            if position < bytes.count, bytes[position] == UInt8(ascii: "+") || bytes[position] == UInt8(ascii: "-") { position += 1 }
            guard digits(&self) > 0 else { throw failure("expected a digit in the exponent") }
        }
        let text = String(decoding: bytes[start..<position], as: UTF8.self)
        if integral, let value = Int(text) { return .int(value) }
        guard let value = Double(text) else { throw failure("unreadable number") }
        return .double(value)
    }

    private mutating func string() throws -> String {
        position += 1
        var buffer: [UInt8] = []
        while position < bytes.count {
            let byte = bytes[position]
            switch byte {
            case UInt8(ascii: "\""):
                position += 1
                return String(decoding: buffer, as: UTF8.self)
            case UInt8(ascii: "\\"):
                position += 1
                guard position < bytes.count else { throw failure("unfinished escape") }
                let escaped = bytes[position]
                position += 1
                switch escaped {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): buffer.append(escaped)
                case UInt8(ascii: "b"): buffer.append(0x08)
                case UInt8(ascii: "f"): buffer.append(0x0C)
                case UInt8(ascii: "n"): buffer.append(0x0A)
                case UInt8(ascii: "r"): buffer.append(0x0D)
                case UInt8(ascii: "t"): buffer.append(0x09)
                case UInt8(ascii: "u"): buffer.append(contentsOf: Array(String(try unicodeEscape()).utf8))
                default: throw failure("unknown escape")
                }
            case 0..<0x20:
                throw failure("control character in a string")
            default:
                buffer.append(byte)
                position += 1
            }
        }
        throw failure("unfinished string")
    }

    private mutating func hex4() throws -> UInt32 {
        guard bytes.count - position >= 4,
              let value = UInt32(String(decoding: bytes[position..<position + 4], as: UTF8.self), radix: 16) else {
            throw failure("expected four hex digits after \\u")
        }
        position += 4
        return value
    }

    private mutating func unicodeEscape() throws -> Character {
        let first = try hex4()
        if (0xD800...0xDBFF).contains(first), bytes.count - position >= 6,
           bytes[position] == UInt8(ascii: "\\"), bytes[position + 1] == UInt8(ascii: "u") {
            let saved = position
            position += 2
            let second = try hex4()
            if (0xDC00...0xDFFF).contains(second),
               let scalar = Unicode.Scalar(0x10000 + ((first - 0xD800) << 10) + (second - 0xDC00)) {
                return Character(scalar)
            }
            position = saved
        }
        return Character(Unicode.Scalar(first) ?? "\u{FFFD}")
    }
}
