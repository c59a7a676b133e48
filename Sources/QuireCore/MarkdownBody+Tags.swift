import Foundation

extension MarkdownBody {
    /// Reads the inline tags of a body (`inlineTags`) from the lines it reads as text, given one
    /// stretch at a time in order (`forEachLine`), so that a pass over a body that serves other
    /// readers too can gather them (`NoteParser`).
    struct TagReader {
        /// The tags read so far, in order of appearance, duplicates (ignoring case) dropped.
        private(set) var tags: [String] = []
        private var seen = Set<String>()
        /// Whether the stretch read last ended inside an HTML tag.
        private var inHTMLTag = false
        /// Where the stretch read last ended.
        private var previousEnd: Int

        /// A reader for a body that starts at byte `start`.
        init(from start: Int) {
            previousEnd = start
        }

        /// Reads the next stretch of a line read as text.
        mutating func read(_ bytes: UnsafeBufferPointer<UInt8>, _ line: Range<Int>) {
            guard let base = bytes.baseAddress else { return }
            // A blank line (or a code block) ends an HTML tag left open, as it ends an HTML block.
            if inHTMLTag, bytes[previousEnd..<line.lowerBound].lazy.filter({ $0 == 0x0A }).count > 1 { inHTMLTag = false }
            previousEnd = line.upperBound
            guard inHTMLTag || memchr(base + line.lowerBound, Int32(UInt8(ascii: "#")), line.count) != nil
                    || memchr(base + line.lowerBound, Int32(UInt8(ascii: "<")), line.count) != nil else { return }
            for tag in MarkdownBody.tagsOfLine(bytes, line, inHTMLTag: &inHTMLTag) where seen.insert(tag.lowercased()).inserted {
                tags.append(tag)
            }
        }
    }
}
