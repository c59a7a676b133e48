import Foundation

extension JSON {
    /// How deep arrays and objects may nest when read: deeper text is refused, so hostile input
    /// cannot exhaust the stack.
    public static let maximumDepth = 256

    /// Reads one JSON value filling all of `bytes` (whitespace and a UTF-8 byte order mark
    /// around it allowed). Invalid UTF-8 and lone surrogate escapes in strings become U+FFFD,
    /// never trusted; anything else that is not JSON throws where reading stopped.
    public static func parse<Bytes: Collection<UInt8>>(_ bytes: Bytes) throws(JSONSyntaxError) -> JSON {
        var reader = JSONReader(Array(bytes))
        return try reader.document()
    }
}

/// The reader behind `JSON.parse`: one pass over the bytes, recursion bounded by
/// `JSON.maximumDepth`.
struct JSONReader {
    private let bytes: [UInt8]
    private var position = 0
    private var depth = 0

    init(_ bytes: [UInt8]) {
        self.bytes = bytes
    }

    /// The one value of the text, with nothing but whitespace after it.
    mutating func document() throws(JSONSyntaxError) -> JSON {
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { position = 3 }
        let value = try value()
        skipSpace()
        guard position == bytes.count else { throw failure("unexpected text after the value") }
        return value
    }

    private mutating func skipSpace() {
        while position < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[position]) { position += 1 }
    }

    private func failure(_ reason: String) -> JSONSyntaxError {
        let offset = min(position, bytes.count)
        let line = bytes[..<offset].reduce(1) { $1 == 0x0A ? $0 + 1 : $0 }
        return JSONSyntaxError(reason: reason, offset: offset, line: line)
    }

    private func at(_ character: Unicode.Scalar) -> Bool {
        position < bytes.count && bytes[position] == UInt8(ascii: character)
    }

    private mutating func value() throws(JSONSyntaxError) -> JSON {
        skipSpace()
        guard position < bytes.count else { throw failure("unexpected end of the text") }
        switch bytes[position] {
        case UInt8(ascii: "{"), UInt8(ascii: "["):
            depth += 1
            defer { depth -= 1 }
            guard depth <= JSON.maximumDepth else { throw failure("nested more than \(JSON.maximumDepth) levels") }
            return bytes[position] == UInt8(ascii: "{") ? try object() : try array()
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "t"): try literal("true"); return .bool(true)
        case UInt8(ascii: "f"): try literal("false"); return .bool(false)
        case UInt8(ascii: "n"): try literal("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try number()
        default: throw failure("unexpected character")
        }
    }

    private mutating func literal(_ word: String) throws(JSONSyntaxError) {
        let expected = word.utf8
        guard bytes.count - position >= expected.count,
              bytes[position..<position + expected.count].elementsEqual(expected) else {
            throw failure("unexpected character")
        }
        position += expected.count
    }

    private mutating func object() throws(JSONSyntaxError) -> JSON {
        position += 1
        var members: [(String, JSON)] = []
        var indexByKey: [String: Int] = [:]
        skipSpace()
        if at("}") {
            position += 1
            return .object(members)
        }
        while true {
            skipSpace()
            guard at("\"") else { throw failure("expected a key in quotes") }
            let key = try string()
            skipSpace()
            guard at(":") else { throw failure("expected ':'") }
            position += 1
            let item = try value()
            if let index = indexByKey[key] {
                members[index].1 = item
            } else {
                indexByKey[key] = members.count
                members.append((key, item))
            }
            skipSpace()
            guard position < bytes.count else { throw failure("expected ',' or '}'") }
            if at(",") { position += 1; continue }
            if at("}") { position += 1; return .object(members) }
            throw failure("expected ',' or '}'")
        }
    }

    private mutating func array() throws(JSONSyntaxError) -> JSON {
        position += 1
        var items: [JSON] = []
        skipSpace()
        if at("]") {
            position += 1
            return .array(items)
        }
        while true {
            items.append(try value())
            skipSpace()
            guard position < bytes.count else { throw failure("expected ',' or ']'") }
            if at(",") { position += 1; continue }
            if at("]") { position += 1; return .array(items) }
            throw failure("expected ',' or ']'")
        }
    }

    /// The number of digits skipped.
    private mutating func digits() -> Int {
        let first = position
        while position < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[position]) { position += 1 }
        return position - first
    }

    private mutating func number() throws(JSONSyntaxError) -> JSON {
        let start = position
        var integral = true
        if at("-") { position += 1 }
        guard digits() > 0 else { throw failure("expected a digit") }
        if at(".") {
            integral = false
            position += 1
            guard digits() > 0 else { throw failure("expected a digit after '.'") }
        }
        if at("e") || at("E") {
            integral = false
            position += 1
            if at("+") || at("-") { position += 1 }
            guard digits() > 0 else { throw failure("expected a digit in the exponent") }
        }
        let text = String(decoding: bytes[start..<position], as: UTF8.self)
        if integral, let value = Int(text) { return .int(value) }
        guard let value = Double(text) else { throw failure("unreadable number") }
        return .double(value)
    }

    /// A string's text; the reader stands on its opening quote.
    private mutating func string() throws(JSONSyntaxError) -> String {
        position += 1
        var buffer: [UInt8] = []
        while position < bytes.count {
            // A run of plain bytes is copied at once.
            let runStart = position
            while position < bytes.count, bytes[position] >= 0x20, bytes[position] != UInt8(ascii: "\""),
                  bytes[position] != UInt8(ascii: "\\") { position += 1 }
            buffer.append(contentsOf: bytes[runStart..<position])
            guard position < bytes.count else { break }
            switch bytes[position] {
            case UInt8(ascii: "\""):
                position += 1
                return String(decoding: buffer, as: UTF8.self)
            case UInt8(ascii: "\\"):
                position += 1
                try escape(into: &buffer)
            default:
                throw failure("control character in a string")
            }
        }
        throw failure("unfinished string")
    }

    /// One escape after its backslash.
    private mutating func escape(into buffer: inout [UInt8]) throws(JSONSyntaxError) {
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
        case UInt8(ascii: "u"): buffer.append(contentsOf: String(try unicodeEscape()).utf8)
        default:
            position -= 1
            throw failure("unknown escape")
        }
    }

    private mutating func hex4() throws(JSONSyntaxError) -> UInt32 {
        guard bytes.count - position >= 4 else { throw failure("expected four hex digits after \\u") }
        var value: UInt32 = 0
        for byte in bytes[position..<position + 4] {
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: throw failure("expected four hex digits after \\u")
            }
            value = value << 4 | UInt32(digit)
        }
        position += 4
        return value
    }

    /// The character of a `\u` escape (a surrogate pair when one follows); a lone surrogate is
    /// U+FFFD.
    private mutating func unicodeEscape() throws(JSONSyntaxError) -> Unicode.Scalar {
        let first = try hex4()
        if (0xD800...0xDBFF).contains(first), bytes.count - position >= 6,
           bytes[position] == UInt8(ascii: "\\"), bytes[position + 1] == UInt8(ascii: "u") {
            let saved = position
            position += 2
            let second = try hex4()
            if (0xDC00...0xDFFF).contains(second),
               let scalar = Unicode.Scalar(0x10000 + ((first - 0xD800) << 10) + (second - 0xDC00)) {
                return scalar
            }
            // Not a low surrogate: it is read again as an escape of its own.
            position = saved
        }
        return Unicode.Scalar(first) ?? "\u{FFFD}"
    }
}
