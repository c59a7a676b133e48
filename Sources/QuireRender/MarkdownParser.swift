/// Parses Markdown (a note's body, without front matter) with cmark-gfm: CommonMark plus tables,
/// task lists, strikethrough, autolinks and footnotes.
public enum MarkdownParser {
    /// The blocks of `markdown`. Never fails: text cmark cannot allocate for reads as one paragraph.
    public static func blocks(_ markdown: String) -> [MarkdownBlock] {
        guard let document = MarkdownDocument(markdown: markdown) else { return [.paragraph([.text(markdown)])] }
        return document.blocks()
    }

    /// The blocks of `markdown`, with the wikilinks at `noteLinks` (UTF-8 byte ranges, each with
    /// the text it shows) read as `.noteLink` inlines; one in code stays code.
    public static func blocks(_ markdown: String, noteLinks: [(range: Range<Int>, text: String)]) -> [MarkdownBlock] {
        guard !noteLinks.isEmpty else { return blocks(markdown) }
        let placeholders = SourcePlaceholders(markdown, ranges: noteLinks.map(\.range))
        guard let document = MarkdownDocument(markdown: placeholders.source) else { return [.paragraph([.text(markdown)])] }
        return document.blocks(noteLinks: (placeholders, noteLinks.map(\.text)))
    }
}
