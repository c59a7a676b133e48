import Foundation

/// The context a backlink or an unlinked mention is shown with, cut from its line's UTF-8
/// bytes: the line trimmed of white space and line breaks (as Foundation's
/// `CharacterSet.whitespacesAndNewlines` has them, the zero-width space included) and, when
/// longer than `VaultLinks.contextLength` characters, cut to that many around the first
/// occurrence of the focus (ignoring case), trimmed of white space again, with "…" where it was
/// cut. The text is Foundation's (`VaultLinks.unicodeContext`), worked out without it where
/// that is sure to give the same: an ASCII line by bytes; any other by the standard library's
/// characters, the focus found by bytes when it is ASCII and no character beside it or
/// elsewhere on the line could fold to ASCII letters; every other line (rare: a focus not in
/// ASCII, ß or ﬁ on the line, invalid UTF-8) by Foundation.
enum LineContext {
    /// The context of the line `bytes` (no line break inside) around `focus`.
    static func cut(_ bytes: UnsafeRawBufferPointer, around focus: String) -> String {
        let length = VaultLinks.contextLength
        var first = 0, end = bytes.count
        while first < end {
            let size = spaceLength(bytes, at: first)
            guard size > 0 else { break }
            first += size
        }
        while end > first {
            let size = spaceLength(bytes, endingAt: end, from: first)
            guard size > 0 else { break }
            end -= size
        }
        let line = UnsafeRawBufferPointer(rebasing: bytes[first..<end])
        guard line.count > length else { return String(decoding: line, as: UTF8.self) }
        var focusBytes = Array(focus.utf8)
        let asciiFocus = focusBytes.allSatisfy { $0 < 0x80 }
        if asciiFocus, !line.contains(where: { $0 >= 0x80 || $0 == 0x0D }) {
            return asciiCut(line, focus: focusBytes, length: length)
        }
        focusBytes = focusBytes.map(lowered)
        guard asciiFocus, !mayFoldToASCII(line), let text = String(validating: line, as: UTF8.self) else {
            return VaultLinks.unicodeContext(String(decoding: line, as: UTF8.self), around: focus)
        }
        let found = asciiRange(of: focusBytes, in: line)
        if let found, (found > 0 && line[found - 1] >= 0x80)
            || (found + focusBytes.count < line.count && line[found + focusBytes.count] >= 0x80) {
            // Beside a character that is not ASCII (a combining mark may join it): Foundation
            // decides whether it matches.
            return VaultLinks.unicodeContext(text, around: focus)
        }
        let count = text.count
        guard count > length else { return text }
        let center = found.map { text.distance(from: text.startIndex, to: text.utf8.index(text.utf8.startIndex, offsetBy: $0)) } ?? 0
        let start = max(0, min(center - length / 3, count - length))
        let lower = text.index(text.startIndex, offsetBy: start)
        let upper = text.index(lower, offsetBy: length)
        let scalars = text.unicodeScalars[lower..<upper]
        var from = scalars.startIndex, to = scalars.endIndex
        while from < to, isSpace(scalars[from]) { from = scalars.index(after: from) }
        while to > from, isSpace(scalars[scalars.index(before: to)]) { to = scalars.index(before: to) }
        return (start > 0 ? "…" : "") + String(scalars[from..<to]) + (upper < text.endIndex ? "…" : "")
    }

    /// An ASCII line without carriage returns: one byte a character.
    private static func asciiCut(_ line: UnsafeRawBufferPointer, focus: [UInt8], length: Int) -> String {
        let center = asciiRange(of: focus.map(lowered), in: line) ?? 0
        let start = max(0, min(center - length / 3, line.count - length))
        var lower = start, upper = start + length
        let cutEnd = upper < line.count
        // `.whitespaces` holds, of ASCII, the space and the tab.
        while lower < upper, line[lower] == 0x20 || line[lower] == 0x09 { lower += 1 }
        while upper > lower, line[upper - 1] == 0x20 || line[upper - 1] == 0x09 { upper -= 1 }
        return (start > 0 ? "…" : "") + String(decoding: UnsafeRawBufferPointer(rebasing: line[lower..<upper]), as: UTF8.self)
            + (cutEnd ? "…" : "")
    }

    private static func lowered(_ byte: UInt8) -> UInt8 { (0x41...0x5A).contains(byte) ? byte | 0x20 : byte }

    /// Where the lowercased ASCII `focus` first occurs in `line`, ignoring ASCII case (nil for
    /// none or an empty focus).
    private static func asciiRange(of focus: [UInt8], in line: UnsafeRawBufferPointer) -> Int? {
        guard let head = focus.first, focus.count <= line.count else { return nil }
        var position = 0
        while position <= line.count - focus.count {
            if lowered(line[position]) == head {
                var matched = 1
                while matched < focus.count, lowered(line[position + matched]) == focus[matched] { matched += 1 }
                if matched == focus.count { return position }
            }
            position += 1
        }
        return nil
    }

    /// Whether the line holds a character whose case folding holds ASCII letters (ß, ſ, İ, ı, ŉ,
    /// ǰ, ẖ–ẚ, ẞ, the Kelvin sign, the ligatures ﬀ–ﬆ): Foundation may match an ASCII focus there.
    private static func mayFoldToASCII(_ line: UnsafeRawBufferPointer) -> Bool {
        var index = 0
        while index + 1 < line.count {
            let lead = line[index], next = line[index + 1]
            switch lead {
            case 0xC3 where next == 0x9F, 0xC4 where next == 0xB0 || next == 0xB1, 0xC5 where next == 0x89 || next == 0xBF,
                 0xC7 where next == 0xB0:
                return true
            case 0xE1 where next == 0xBA && index + 2 < line.count && (0x96...0x9E).contains(line[index + 2]),
                 0xE2 where next == 0x84 && index + 2 < line.count && line[index + 2] == 0xAA,
                 0xEF where next == 0xAC && index + 2 < line.count && (0x80...0x86).contains(line[index + 2]):
                return true
            default:
                index += 1
            }
        }
        return false
    }

    /// Whether a scalar is in `CharacterSet.whitespaces` (the tab, Unicode's space separators and,
    /// as Foundation has it, the zero-width space).
    static func isSpace(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x09, 0x20, 0xA0, 0x1680, 0x2000...0x200B, 0x202F, 0x205F, 0x3000: return true
        default: return false
        }
    }

    /// The length of the white-space or line-break scalar that starts at `index`, 0 for none.
    private static func spaceLength(_ bytes: UnsafeRawBufferPointer, at index: Int) -> Int {
        for size in 1...3 where index + size <= bytes.count {
            if isSpace(bytes, index, size) { return size }
        }
        return 0
    }

    /// The length of the white-space or line-break scalar that ends at `end` (not before
    /// `start`), 0 for none.
    private static func spaceLength(_ bytes: UnsafeRawBufferPointer, endingAt end: Int, from start: Int) -> Int {
        for size in 1...3 where end - size >= start {
            if isSpace(bytes, end - size, size) { return size }
        }
        return 0
    }

    /// Whether the `size` bytes at `index` are one white-space or line-break scalar
    /// (`CharacterSet.whitespacesAndNewlines`): its lead byte is there, so whatever comes before
    /// it decodes apart.
    private static func isSpace(_ bytes: UnsafeRawBufferPointer, _ index: Int, _ size: Int) -> Bool {
        let lead = bytes[index]
        switch size {
        case 1: return lead == 0x20 || lead == 0x09 || (0x0A...0x0D).contains(lead)
        case 2: return lead == 0xC2 && (bytes[index + 1] == 0xA0 || bytes[index + 1] == 0x85)
        default:
            let second = bytes[index + 1], third = bytes[index + 2]
            switch (lead, second) {
            case (0xE1, 0x9A): return third == 0x80
            case (0xE2, 0x80): return (0x80...0x8B).contains(third) || third == 0xAF || third == 0xA8 || third == 0xA9
            case (0xE2, 0x81): return third == 0x9F
            case (0xE3, 0x80): return third == 0x80
            default: return false
            }
        }
    }
}
