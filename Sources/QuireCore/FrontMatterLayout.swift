import Foundation

/// Where the parts of a note file lie, in bytes: an optional UTF-8 BOM, the opening fence line,
/// the front-matter text, the closing fence line and the body. Found by scanning raw bytes.
struct FrontMatterLayout: Equatable, Sendable {
    /// 3 when the file starts with a UTF-8 BOM, else 0.
    var bomLength = 0
    /// The kind of front matter found (`.none` also when the closing fence is missing).
    var format = FrontMatterFormat.none
    /// The first byte of the front-matter text (after the opening fence line).
    var contentStart = 0
    /// The byte after the front-matter text (the start of the closing fence line).
    var contentEnd = 0
    /// The first byte of the body (after the closing fence line and its line break).
    var bodyStart = 0
    /// Whether the file's first line ends with CRLF (new lines are written the same way).
    var usesCRLF = false
    /// Whether the closing fence line ends with a line break (false: fence at end of file).
    var closingFenceHasLineBreak = true
    /// The file line (1-based) of the first line of the front-matter text.
    var contentFirstLine = 2

    /// A whole file of YAML (no fences, no body), such as `.quire/config.yml`.
    static func bare(_ bytes: UnsafeBufferPointer<UInt8>) -> FrontMatterLayout {
        var layout = split(bytes)
        layout.format = .yaml
        layout.contentStart = layout.bomLength
        layout.contentEnd = bytes.count
        layout.bodyStart = bytes.count
        layout.contentFirstLine = 1
        return layout
    }

    /// Splits `bytes` into BOM, front matter and body.
    static func split(_ bytes: UnsafeBufferPointer<UInt8>) -> FrontMatterLayout {
        var layout = FrontMatterLayout()
        let count = bytes.count
        if count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { layout.bomLength = 3 }
        let start = layout.bomLength
        layout.contentStart = start
        layout.contentEnd = start
        layout.bodyStart = start
        let firstEnd = lineEnd(bytes, from: start)
        layout.usesCRLF = firstEnd < count && firstEnd > start && bytes[firstEnd - 1] == 0x0D
        let fence: UInt8
        if isFence(bytes, start: start, end: firstEnd, mark: UInt8(ascii: "-")) {
            fence = UInt8(ascii: "-")
        } else if isFence(bytes, start: start, end: firstEnd, mark: UInt8(ascii: "+")) {
            fence = UInt8(ascii: "+")
        } else {
            return layout
        }
        guard firstEnd < count else { return layout }
        var lineStart = firstEnd + 1
        while lineStart <= count {
            let end = lineEnd(bytes, from: lineStart)
            let closes = isFence(bytes, start: lineStart, end: end, mark: fence)
                || (fence == UInt8(ascii: "-") && isFence(bytes, start: lineStart, end: end, mark: UInt8(ascii: ".")))
            if closes {
                layout.format = fence == UInt8(ascii: "+") ? .toml : .yaml
                layout.contentStart = firstEnd + 1
                layout.contentEnd = lineStart
                layout.bodyStart = end < count ? end + 1 : count
                layout.closingFenceHasLineBreak = end < count
                return layout
            }
            if end >= count { break }
            lineStart = end + 1
        }
        return layout
    }

    /// The index of the next `\n` at or after `from`, or `bytes.count`.
    static func lineEnd(_ bytes: UnsafeBufferPointer<UInt8>, from: Int) -> Int {
        guard from < bytes.count, let base = bytes.baseAddress else { return bytes.count }
        guard let hit = memchr(base + from, 0x0A, bytes.count - from) else { return bytes.count }
        return UnsafePointer(hit.assumingMemoryBound(to: UInt8.self)) - base
    }

    /// Whether `bytes[start..<end]` is three `mark` characters followed only by spaces, tabs or `\r`.
    private static func isFence(_ bytes: UnsafeBufferPointer<UInt8>, start: Int, end: Int, mark: UInt8) -> Bool {
        guard end - start >= 3, bytes[start] == mark, bytes[start + 1] == mark, bytes[start + 2] == mark
        else { return false }
        var index = start + 3
        while index < end {
            let byte = bytes[index]
            guard byte == 0x20 || byte == 0x09 || byte == 0x0D else { return false }
            index += 1
        }
        return true
    }
}
