import Foundation
import QuireCore

/// How a position's `character` counts: UTF-16 code units (the LSP default) or UTF-8 bytes
/// (when the client offers it, negotiated in `initialize`).
public enum PositionEncoding: String, Sendable {
    case utf16 = "utf-16"
    case utf8 = "utf-8"
}

/// A zero-based line and character, as the protocol carries it.
public struct Position: Equatable, Comparable, Sendable {
    public var line: Int
    public var character: Int

    /// Creates a position.
    public init(line: Int, character: Int) {
        self.line = line
        self.character = character
    }

    /// Orders by line, then character.
    public static func < (lhs: Position, rhs: Position) -> Bool {
        (lhs.line, lhs.character) < (rhs.line, rhs.character)
    }

    /// Reads `{line, character}`; nil when either is missing or negative.
    init?(_ json: JSON?) {
        guard let line = json?["line"]?.int, let character = json?["character"]?.int,
              line >= 0, character >= 0 else { return nil }
        self.init(line: line, character: character)
    }

    var json: JSON { .object([("line", .int(line)), ("character", .int(character))]) }
}

/// A range between two positions (end exclusive).
public struct TextRange: Equatable, Sendable {
    public var start: Position
    public var end: Position

    /// Creates a range.
    public init(start: Position, end: Position) {
        self.start = start
        self.end = end
    }

    /// Reads `{start, end}`; nil when malformed or reversed.
    init?(_ json: JSON?) {
        guard let start = Position(json?["start"]), let end = Position(json?["end"]), start <= end else { return nil }
        self.init(start: start, end: end)
    }

    var json: JSON { .object([("start", start.json), ("end", end.json)]) }
}

/// The text of one open buffer, kept as UTF-8 bytes with the byte offset of every line start,
/// edited incrementally as the client sends changes. A value.
public struct TextDocument: Sendable {
    /// The document's bytes.
    public private(set) var bytes: [UInt8]
    /// The byte offset of each line's first byte (line 0 at 0). Lines end at `\n`.
    public private(set) var lineStarts: [Int]
    /// The client's version number.
    public var version: Int
    /// How positions count characters.
    public let encoding: PositionEncoding

    /// A document holding `text`.
    public init(text: String, version: Int, encoding: PositionEncoding) {
        bytes = Array(text.utf8)
        lineStarts = Self.lineStarts(bytes)
        self.version = version
        self.encoding = encoding
    }

    /// The text.
    public var text: String { String(decoding: bytes, as: UTF8.self) }

    /// The bytes as `Data`.
    public var data: Data { Data(bytes) }

    /// The number of lines (a final line without a line break counts).
    public var lineCount: Int { lineStarts.count }

    private static func lineStarts(_ bytes: [UInt8]) -> [Int] {
        var starts = [0]
        for (index, byte) in bytes.enumerated() where byte == 0x0A { starts.append(index + 1) }
        return starts
    }

    /// Replaces `range` (nil: the whole text) with `text`; positions past a line's end or the
    /// document's end are clamped, as the specification asks.
    public mutating func apply(range: TextRange?, text: String) {
        guard let range else {
            bytes = Array(text.utf8)
            lineStarts = Self.lineStarts(bytes)
            return
        }
        let lower = offset(of: range.start)
        let upper = max(lower, offset(of: range.end))
        let inserted = Array(text.utf8)
        bytes.replaceSubrange(lower..<upper, with: inserted)
        // Only line starts after the edit move; recompute those inside it.
        let firstLine = line(containing: lower)
        var starts = Array(lineStarts[0...firstLine])
        var index = lower
        let delta = inserted.count - (upper - lower)
        let scanEnd = lower + inserted.count
        while index < scanEnd {
            if bytes[index] == 0x0A { starts.append(index + 1) }
            index += 1
        }
        for start in lineStarts[(firstLine + 1)...] where start > upper { starts.append(start + delta) }
        lineStarts = starts
    }

    /// The line holding byte `offset`.
    public func line(containing offset: Int) -> Int {
        var low = 0
        var high = lineStarts.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if lineStarts[middle] <= offset { low = middle } else { high = middle - 1 }
        }
        return low
    }

    /// The byte range of line `line` without its line break (`\n` or `\r\n`).
    public func lineRange(_ line: Int) -> Range<Int> {
        guard line < lineStarts.count else { return bytes.count..<bytes.count }
        let start = lineStarts[line]
        var end = line + 1 < lineStarts.count ? lineStarts[line + 1] - 1 : bytes.count
        if end > start && bytes[end - 1] == 0x0D { end -= 1 }
        return start..<max(start, end)
    }

    /// The text of line `line` without its line break.
    public func lineText(_ line: Int) -> String {
        String(decoding: bytes[lineRange(line)], as: UTF8.self)
    }

    /// The number of bytes of the UTF-8 sequence `lead` starts.
    static func scalarLength(lead byte: UInt8) -> Int {
        byte < 0x80 ? 1 : byte < 0xE0 ? 2 : byte < 0xF0 ? 3 : 4
    }

    /// The byte offset of `position` (clamped to the line's end and the document's end).
    public func offset(of position: Position) -> Int {
        guard position.line < lineStarts.count else { return bytes.count }
        let range = lineRange(position.line)
        switch encoding {
        case .utf8:
            var offset = min(range.lowerBound + position.character, range.upperBound)
            while offset > range.lowerBound && offset < range.upperBound && bytes[offset] & 0xC0 == 0x80 { offset -= 1 }
            return offset
        case .utf16:
            var units = 0
            var offset = range.lowerBound
            while offset < range.upperBound && units < position.character {
                let byte = bytes[offset]
                let length = Self.scalarLength(lead: byte)
                units += length == 4 ? 2 : 1
                offset = min(range.upperBound, offset + length)
            }
            return offset
        }
    }

    /// The position of byte `offset`.
    public func position(of offset: Int) -> Position {
        let clamped = min(max(0, offset), bytes.count)
        let line = line(containing: clamped)
        let start = lineStarts[line]
        switch encoding {
        case .utf8: return Position(line: line, character: clamped - start)
        case .utf16:
            var units = 0
            var index = start
            while index < clamped {
                let byte = bytes[index]
                let length = Self.scalarLength(lead: byte)
                units += length == 4 ? 2 : 1
                index += length
            }
            return Position(line: line, character: units)
        }
    }

    /// The range covering bytes `range`.
    public func range(of range: Range<Int>) -> TextRange {
        TextRange(start: position(of: range.lowerBound), end: position(of: range.upperBound))
    }

    /// The range covering the whole document.
    public var fullRange: TextRange { range(of: 0..<bytes.count) }

    /// The one edit that turns this text into `new`: the bytes both share at the start and
    /// at the end are left out, so an edit of a few bytes is a small `TextEdit`. Nil when equal.
    public func minimalEdit(to new: [UInt8]) -> (range: TextRange, text: String)? {
        guard new != bytes else { return nil }
        var prefix = 0
        let shortest = min(bytes.count, new.count)
        while prefix < shortest && bytes[prefix] == new[prefix] { prefix += 1 }
        var suffix = 0
        while suffix < shortest - prefix && bytes[bytes.count - 1 - suffix] == new[new.count - 1 - suffix] { suffix += 1 }
        // Cut on character boundaries (a shared lead byte must not split a scalar).
        while prefix > 0 && prefix < bytes.count && bytes[prefix] & 0xC0 == 0x80 { prefix -= 1 }
        while suffix > 0 && bytes.count - suffix < bytes.count && bytes[bytes.count - suffix] & 0xC0 == 0x80 { suffix -= 1 }
        let oldRange = prefix..<(bytes.count - suffix)
        let inserted = String(decoding: new[prefix..<(new.count - suffix)], as: UTF8.self)
        return (range(of: oldRange), inserted)
    }

    /// The edits that turn this text into `new`, one per run of changed lines (not overlapping,
    /// in order): a rename that restamps a note's `updatedAt` and rewrites a link far below it
    /// gives two small edits, where one edit from the stamp to the link re-inserted every line
    /// between (editors lose marks, folds and the cursor in it). Lines are matched by their
    /// longest common subsequence while the changed region is small enough (a million line
    /// pairs); past that, one edit as `minimalEdit` gives it.
    public func minimalEdits(to new: [UInt8]) -> [(range: TextRange, text: String)] {
        guard let whole = minimalEdit(to: new) else { return [] }
        let oldStart = offset(of: whole.range.start), oldEnd = offset(of: whole.range.end)
        let newEnd = new.count - (bytes.count - oldEnd)
        func lines(_ text: ArraySlice<UInt8>) -> [Range<Int>] {
            var result: [Range<Int>] = []
            var start = text.startIndex
            for index in text.indices where text[index] == 0x0A {
                result.append(start..<(index + 1))
                start = index + 1
            }
            if start < text.endIndex { result.append(start..<text.endIndex) }
            return result
        }
        let old = lines(bytes[oldStart..<oldEnd]), fresh = lines(new[oldStart..<newEnd])
        guard old.count > 1 || fresh.count > 1, old.count * fresh.count <= 1_000_000 else { return [whole] }
        // table[i][j]: the longest common run of old[i...] and fresh[j...], by whole lines.
        var table = [[Int32]](repeating: [Int32](repeating: 0, count: fresh.count + 1), count: old.count + 1)
        for i in stride(from: old.count - 1, through: 0, by: -1) {
            for j in stride(from: fresh.count - 1, through: 0, by: -1) {
                table[i][j] = bytes[old[i]].elementsEqual(new[fresh[j]]) ? table[i + 1][j + 1] + 1 : max(table[i + 1][j], table[i][j + 1])
            }
        }
        var edits: [(range: TextRange, text: String)] = []
        var (i, j) = (0, 0)
        var hunk: (old: Int, fresh: Int)?  // where the current run of changes starts
        func close() {
            guard let start = hunk else { return }
            let from = start.old < old.count ? old[start.old].lowerBound : oldEnd
            let to = i < old.count ? old[i].lowerBound : oldEnd
            let newFrom = start.fresh < fresh.count ? fresh[start.fresh].lowerBound : newEnd
            let newTo = j < fresh.count ? fresh[j].lowerBound : newEnd
            edits.append((range(of: from..<to), String(decoding: new[newFrom..<newTo], as: UTF8.self)))
            hunk = nil
        }
        while i < old.count || j < fresh.count {
            if i < old.count, j < fresh.count, bytes[old[i]].elementsEqual(new[fresh[j]]) {
                close()
                i += 1
                j += 1
            } else {
                if hunk == nil { hunk = (i, j) }
                if j < fresh.count && (i == old.count || table[i][j + 1] >= table[i + 1][j]) { j += 1 } else { i += 1 }
            }
        }
        close()
        return edits
    }
}
