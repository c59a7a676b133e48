import Foundation

/// The headings a line or paragraph makes (ATX and setext), read by `MarkdownBlocks` and the
/// readers of anchors, titles and outlines.
extension MarkdownBlocks {
    /// The level and text (trimmed, a closing run of `#` dropped; maybe empty) of an ATX
    /// heading (`#` to `######`, then a space, a tab or the end) whose first `#` is at
    /// `content.lowerBound`; nil for any other text.
    static func atxHeading(_ bytes: UnsafeBufferPointer<UInt8>, _ content: Range<Int>) -> (level: Int, text: Range<Int>)? {
        var index = content.lowerBound
        while index < content.upperBound, bytes[index] == UInt8(ascii: "#") { index += 1 }
        let level = index - content.lowerBound
        guard (1...6).contains(level), index == content.upperBound || bytes[index] == 0x20 || bytes[index] == 0x09 else {
            return nil
        }
        var text = trimmed(bytes, index..<content.upperBound)
        var closing = text.upperBound
        while closing > text.lowerBound, bytes[closing - 1] == UInt8(ascii: "#") { closing -= 1 }
        if closing == text.lowerBound || bytes[closing - 1] == 0x20 || bytes[closing - 1] == 0x09 {
            text = trimmed(bytes, text.lowerBound..<closing)
        }
        return (level, text)
    }

    /// The text of a setext heading: its lines' content, trimmed, joined by spaces.
    static func setextText(_ bytes: UnsafeBufferPointer<UInt8>, _ heading: [Range<Int>]) -> String {
        heading.map { String(decoding: UnsafeBufferPointer(rebasing: bytes[trimmed(bytes, $0)]), as: UTF8.self) }
            .joined(separator: " ")
    }

    /// `range` without spaces and tabs at either end.
    static func trimmed(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Range<Int> {
        var lower = range.lowerBound, upper = range.upperBound
        while lower < upper, bytes[lower] == 0x20 || bytes[lower] == 0x09 { lower += 1 }
        while upper > lower, bytes[upper - 1] == 0x20 || bytes[upper - 1] == 0x09 { upper -= 1 }
        return lower..<upper
    }
}
