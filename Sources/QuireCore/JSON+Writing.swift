import Foundation

extension JSON {
    /// How a value is written as text. Strings are always escaped the same minimal way (`"`,
    /// `\`, `\n`, `\r`, `\t` by name, other control characters as `\u00XX`, everything else as
    /// UTF-8); non-finite doubles, which JSON cannot hold, are written `null`.
    public struct Style: Sendable, Equatable {
        /// Spaces per level of nesting, each member and element on its own line with `": "`
        /// after keys; nil writes everything on one line with no spaces.
        public var indent: Int?
        /// Whether a double with no fraction and a magnitude below 10¹⁵ is written as an integer
        /// (`3`, as for a reader), rather than as Swift writes it (`3.0`, so that reading the
        /// text again gives a double).
        public var wholeDoublesAsIntegers: Bool

        /// A style; the defaults are `compact`'s.
        public init(indent: Int? = nil, wholeDoublesAsIntegers: Bool = false) {
            self.indent = indent
            self.wholeDoublesAsIntegers = wholeDoublesAsIntegers
        }

        /// One line, no spaces, every double as Swift writes it: reading it gives the same value
        /// (`1.5e+20`, `3.0`).
        public static let compact = Style()
    }

    /// The value as UTF-8 text in `style`.
    public func encoded(_ style: Style) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(256)
        write(into: &out, style: style, level: 0)
        return out
    }

    /// The value as UTF-8 text in `style`, as it is written nested `level` containers deep in a
    /// larger value (its inner lines indented for that depth; the first line's indentation is
    /// the container's): a long array can be written element by element, with no tree of it.
    public func encoded(_ style: Style, level: Int) -> [UInt8] {
        var out: [UInt8] = []
        write(into: &out, style: style, level: level)
        return out
    }

    /// The value as text in `style`.
    public func rendered(_ style: Style) -> String {
        String(decoding: encoded(style), as: UTF8.self)
    }

    private func write(into out: inout [UInt8], style: Style, level: Int) {
        switch self {
        case .null: out.append(contentsOf: "null".utf8)
        case let .bool(value): out.append(contentsOf: (value ? "true" : "false").utf8)
        case let .int(number): out.append(contentsOf: String(number).utf8)
        case let .double(number): out.append(contentsOf: Self.text(of: number, style: style).utf8)
        case let .string(text): Self.writeString(text, into: &out)
        case let .array(items):
            Self.writeContainer(open: "[", close: "]", count: items.count, into: &out, style: style, level: level) { index, out in
                items[index].write(into: &out, style: style, level: level + 1)
            }
        case let .object(members):
            Self.writeContainer(open: "{", close: "}", count: members.count, into: &out, style: style, level: level) { index, out in
                Self.writeString(members[index].0, into: &out)
                out.append(UInt8(ascii: ":"))
                if style.indent != nil { out.append(UInt8(ascii: " ")) }
                members[index].1.write(into: &out, style: style, level: level + 1)
            }
        }
    }

    private static func text(of number: Double, style: Style) -> String {
        guard number.isFinite else { return "null" }
        if style.wholeDoublesAsIntegers, number.rounded() == number, abs(number) < 1e15 { return String(Int(number)) }
        return String(number)
    }

    /// `open`, the `count` elements written by `element` (separated by commas, each on its own
    /// indented line in an indented style), `close`. An empty container is `open` + `close`.
    private static func writeContainer(open: Unicode.Scalar, close: Unicode.Scalar, count: Int, into out: inout [UInt8],
                                       style: Style, level: Int, element: (Int, inout [UInt8]) -> Void) {
        out.append(UInt8(ascii: open))
        guard count > 0 else {
            out.append(UInt8(ascii: close))
            return
        }
        for index in 0..<count {
            if index > 0 { out.append(UInt8(ascii: ",")) }
            if let indent = style.indent { newLine(indent * (level + 1), into: &out) }
            element(index, &out)
        }
        if let indent = style.indent { newLine(indent * level, into: &out) }
        out.append(UInt8(ascii: close))
    }

    private static func newLine(_ spaces: Int, into out: inout [UInt8]) {
        out.append(0x0A)
        out.append(contentsOf: repeatElement(UInt8(ascii: " "), count: spaces))
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)

    /// `text` in quotes, escaped minimally (see `Style`).
    private static func writeString(_ text: String, into out: inout [UInt8]) {
        writeBytes(text.utf8, into: &out)
    }

    /// The UTF-8 text `bytes` in quotes, escaped as a string value is (see `Style`): what a
    /// front end writing a long list by bytes appends, with no `JSON` value made.
    public static func writeString(utf8 bytes: UnsafeRawBufferPointer, into out: inout [UInt8]) {
        writeBytes(bytes, into: &out)
    }

    private static func writeBytes<Bytes: Sequence<UInt8>>(_ bytes: Bytes, into out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        for byte in bytes {
            switch byte {
            case UInt8(ascii: "\""): out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\"")])
            case UInt8(ascii: "\\"): out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\\")])
            case 0x0A: out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "n")])
            case 0x0D: out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "r")])
            case 0x09: out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "t")])
            case 0..<0x20:
                out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0"),
                                        hexDigits[Int(byte >> 4)], hexDigits[Int(byte & 0x0F)]])
            default: out.append(byte)
            }
        }
        out.append(UInt8(ascii: "\""))
    }
}
