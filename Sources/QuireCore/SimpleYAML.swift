import Foundation

/// Reads the front matter most notes have without libyaml: top-level `key: value` lines of an
/// ASCII key and a one-line plain or quoted scalar, a one-line flow list (`tags: [a, "b"]`) or
/// a block list of one-line items (`- a`, under the key or indented). Anything else — blank
/// lines, comments, tabs, control characters, multi-line scalars, escapes, anchors, aliases,
/// tags, nested collections, a key of another shape, an indicator where a scalar starts — is
/// declined (nil), and `YAMLReader` asks libyaml instead. What it returns is what
/// `YAMLReader.readWithLibYAML` returns for the same text, byte spans included (a generative
/// test compares both on random front matter).
enum SimpleYAML {
    /// The longest key read here (libyaml refuses a simple key over 1,024 characters).
    static let maximumKeyBytes = 512

    /// The entries of `bytes` (valid UTF-8), or nil when the text is not of the simple shape.
    static func read(_ bytes: UnsafeBufferPointer<UInt8>, timeZone: TimeZone) -> YAMLReadResult? {
        var reader = Reader(bytes: bytes, timeZone: timeZone)
        return reader.entries().map { YAMLReadResult(entries: $0) }
    }

    private struct Reader {
        let bytes: UnsafeBufferPointer<UInt8>
        let timeZone: TimeZone
        var index = 0

        /// A scalar read: its text, typed value, style and span.
        struct Scalar {
            var text: String
            var value: FrontMatterValue
            var style: YAMLEntry.Style
            var start: Int
            var end: Int
        }

        mutating func entries() -> [YAMLEntry]? {
            var entries: [YAMLEntry] = []
            while index < bytes.count {
                guard let entry = entry() else { return nil }
                entries.append(entry)
            }
            return entries.isEmpty ? nil : entries
        }

        /// One `key: value` line (and the block list under it).
        private mutating func entry() -> YAMLEntry? {
            let keyStart = index
            guard isKeyStart(bytes[index]) else { return nil }
            index += 1
            while index < bytes.count, isKeyByte(bytes[index]) { index += 1 }
            let keyEnd = index
            guard keyEnd - keyStart <= SimpleYAML.maximumKeyBytes, index < bytes.count, bytes[index] == 0x3A else {
                return nil
            }
            index += 1
            let key = text(keyStart..<keyEnd)
            let spaces = skipSpaces()
            if atLineEnd() {
                skipLineEnd()
                return blockList(key: key, keyStart: keyStart, keyEnd: keyEnd)
            }
            guard spaces > 0 else { return nil }
            if bytes[index] == 0x5B { return flowList(key: key, keyStart: keyStart, keyEnd: keyEnd) }
            guard let scalar = scalar(flow: false) else { return nil }
            skipSpaces()
            guard atLineEnd() else { return nil }
            skipLineEnd()
            guard nextLineIsKey() else { return nil }
            return YAMLEntry(key: key, value: scalar.value, scalarText: scalar.text, style: scalar.style,
                             keyStart: keyStart, keyEnd: keyEnd, valueStart: scalar.start, valueEnd: scalar.end,
                             contentEnd: scalar.end)
        }

        /// The value of a key with nothing after its colon: a block list of one-line scalars on
        /// the lines that follow (all at one indentation), or null.
        private mutating func blockList(key: String, keyStart: Int, keyEnd: Int) -> YAMLEntry? {
            var items: [FrontMatterValue] = []
            var indent: Int?
            var valueStart = keyEnd, contentEnd = keyEnd
            while index < bytes.count {
                let lineStart = index
                let spaces = skipSpaces()
                guard index < bytes.count, bytes[index] == 0x2D else {
                    index = lineStart
                    break
                }
                guard indent == nil || indent == spaces else { return nil }
                indent = spaces
                if items.isEmpty { valueStart = index }
                index += 1
                guard skipSpaces() > 0, !atLineEnd(), let item = scalar(flow: false) else { return nil }
                items.append(item.value)
                contentEnd = item.end
                skipSpaces()
                guard atLineEnd() else { return nil }
                skipLineEnd()
            }
            guard nextLineIsKey() else { return nil }
            if items.isEmpty {
                return YAMLEntry(key: key, value: .null, scalarText: "", style: .plain, keyStart: keyStart,
                                 keyEnd: keyEnd, valueStart: keyEnd, valueEnd: keyEnd, contentEnd: keyEnd)
            }
            // libyaml ends a block list where the next key starts (or at the end of the text).
            return YAMLEntry(key: key, value: .list(items), scalarText: nil, style: .blockSequence,
                             keyStart: keyStart, keyEnd: keyEnd, valueStart: valueStart, valueEnd: index,
                             contentEnd: contentEnd)
        }

        /// `[a, "b", c]` on the rest of the line.
        private mutating func flowList(key: String, keyStart: Int, keyEnd: Int) -> YAMLEntry? {
            let valueStart = index
            index += 1
            var items: [FrontMatterValue] = []
            skipSpaces()
            if index < bytes.count, bytes[index] != 0x5D {
                while true {
                    guard index < bytes.count, let item = scalar(flow: true) else { return nil }
                    items.append(item.value)
                    skipSpaces()
                    guard index < bytes.count else { return nil }
                    if bytes[index] == 0x5D { break }
                    guard bytes[index] == 0x2C else { return nil }
                    index += 1
                    guard skipSpaces() > 0 else { return nil }
                }
            }
            guard index < bytes.count, bytes[index] == 0x5D else { return nil }
            index += 1
            let valueEnd = index
            skipSpaces()
            guard atLineEnd() else { return nil }
            skipLineEnd()
            guard nextLineIsKey() else { return nil }
            return YAMLEntry(key: key, value: .list(items), scalarText: nil, style: .flowCollection,
                             keyStart: keyStart, keyEnd: keyEnd, valueStart: valueStart, valueEnd: valueEnd,
                             contentEnd: valueEnd)
        }

        /// A plain, single-quoted or double-quoted scalar on the rest of the line (in a flow
        /// list: up to a `,` or `]`), nil for any other shape.
        private mutating func scalar(flow: Bool) -> Scalar? {
            let start = index
            let first = bytes[start]
            if first == 0x22 || first == 0x27 {
                index += 1
                while index < bytes.count, bytes[index] != first {
                    // No escapes (a backslash in double quotes, `''` in single ones), no line break.
                    guard isPlainByte(at: index), bytes[index] != 0x5C else { return nil }
                    index += 1
                }
                guard index < bytes.count else { return nil }
                index += 1
                if first == 0x27, index < bytes.count, bytes[index] == 0x27 { return nil }
                let text = text(start + 1..<index - 1)
                return Scalar(text: text, value: .string(text), style: first == 0x22 ? .doubleQuoted : .singleQuoted,
                              start: start, end: index)
            }
            guard startsPlain(at: start) else { return nil }
            var end = start
            while index < bytes.count, bytes[index] != 0x0A {
                let byte = bytes[index]
                guard isPlainByte(at: index) else { return nil }
                if flow && (byte == 0x2C || byte == 0x5D) { break }
                if flow && (byte == 0x5B || byte == 0x7B || byte == 0x7D || byte == 0x3A || byte == 0x23) { return nil }
                if byte == 0x3A && (index + 1 == bytes.count || bytes[index + 1] == 0x20 || bytes[index + 1] == 0x0A) {
                    return nil  // a mapping inside the value
                }
                if byte == 0x23 && bytes[index - 1] == 0x20 { return nil }  // a comment
                index += 1
                if byte != 0x20 { end = index }
            }
            index = end
            let text = text(start..<end)
            return Scalar(text: text, value: ScalarResolver.resolve(plain: text, timeZone: timeZone), style: .plain,
                          start: start, end: end)
        }

        /// Whether a plain scalar may start at `position`: not at an indicator, nor at `-` before
        /// white space or the line's end.
        private func startsPlain(at position: Int) -> Bool {
            switch bytes[position] {
            case 0x2C, 0x5B, 0x5D, 0x7B, 0x7D, 0x23, 0x26, 0x2A, 0x21, 0x7C, 0x3E, 0x27, 0x22, 0x25, 0x40, 0x60, 0x3F,
                 0x3A, 0x20, 0x0A:
                return false
            case 0x2D:
                return position + 1 < bytes.count && bytes[position + 1] != 0x20 && bytes[position + 1] != 0x0A
            default:
                return isPlainByte(at: position)
            }
        }

        /// Whether the byte at `position` may stand in a scalar here: printable ASCII or a
        /// character outside ASCII that libyaml reads as printable and no line break (not C1
        /// controls, U+2028, U+2029, a byte-order mark, U+FFFE or U+FFFF).
        private func isPlainByte(at position: Int) -> Bool {
            let byte = bytes[position]
            if byte < 0x80 { return byte >= 0x20 && byte != 0x7F }
            guard position + 1 < bytes.count else { return true }
            let next = bytes[position + 1]
            switch byte {
            case 0xC2: return next >= 0xA0
            case 0xE2: return !(next == 0x80 && position + 2 < bytes.count && (bytes[position + 2] == 0xA8 || bytes[position + 2] == 0xA9))
            case 0xEF:
                guard position + 2 < bytes.count else { return true }
                let last = bytes[position + 2]
                return !(next == 0xBB && last == 0xBF) && !(next == 0xBF && (last == 0xBE || last == 0xBF))
            default: return true
            }
        }

        /// Whether the next line (if any) starts with a key, at no indentation.
        private func nextLineIsKey() -> Bool {
            index == bytes.count || isKeyStart(bytes[index])
        }

        private func isKeyStart(_ byte: UInt8) -> Bool {
            (byte | 0x20 >= 0x61 && byte | 0x20 <= 0x7A) || byte == 0x5F
        }

        private func isKeyByte(_ byte: UInt8) -> Bool {
            isKeyStart(byte) || (byte >= 0x30 && byte <= 0x39) || byte == 0x2D
        }

        @discardableResult
        private mutating func skipSpaces() -> Int {
            let start = index
            while index < bytes.count, bytes[index] == 0x20 { index += 1 }
            return index - start
        }

        private func atLineEnd() -> Bool {
            index == bytes.count || bytes[index] == 0x0A
        }

        private mutating func skipLineEnd() {
            if index < bytes.count { index += 1 }
        }

        private func text(_ range: Range<Int>) -> String {
            String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self)
        }
    }
}
