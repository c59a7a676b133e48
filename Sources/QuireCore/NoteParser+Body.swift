import Foundation

extension NoteParser {
    /// Reads what a valid UTF-8 body says beyond its text in one pass over its lines
    /// (`MarkdownBlocks`): the words a person reads (`WordCounter.countReadable`), the inline
    /// tags (`MarkdownBody.inlineTags`, after the front matter's) and the links and anchors of
    /// the whole file (`LinkExtractor.scan`, front matter first) — each as its own reader
    /// finds them, the block structure read once instead of once for each.
    static func readBody(_ bytes: UnsafeBufferPointer<UInt8>, layout: FrontMatterLayout, into note: inout Note) {
        guard let base = bytes.baseAddress else { return }
        let start = layout.bodyStart
        var links = LinkExtractor.Walk(bytes: bytes, layout: layout)
        let hasHash = memchr(base + start, Int32(UInt8(ascii: "#")), bytes.count - start) != nil
        var tags = MarkdownBody.TagReader(from: start)
        var words = 0
        MarkdownBlocks.forEachLine(of: bytes, from: start) { line in
            links.read(line)
            guard line.isRead || line.kind == .html else { return true }
            let isRead = line.isRead
            _ = line.forEachVisible { stretch in
                words += WordCounter.countReadable(bytes, line: stretch)
                if isRead && hasHash { tags.read(bytes, stretch) }
                return true
            }
            return true
        }
        note.words = words
        note.tags = NoteFields.merging(note.tags, tags.tags)
        let scan = links.scan
        note.links = scan.links
        note.anchors = scan.anchors
    }

    /// The same for a body that is not valid UTF-8: its tags are read from the text as decoded
    /// (with replacement characters, `note.body`), its words and links from the bytes.
    static func readRepairedBody(_ bytes: UnsafeBufferPointer<UInt8>, layout: FrontMatterLayout, into note: inout Note) {
        note.words = WordCounter.countReadable(utf8: UnsafeBufferPointer(rebasing: bytes[layout.bodyStart...]))
        note.tags = NoteFields.merging(note.tags, MarkdownBody.inlineTags(in: note.body))
        let links = LinkExtractor.scan(bytes)
        note.links = links.links
        note.anchors = links.anchors
    }
}
