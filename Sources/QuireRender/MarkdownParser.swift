/// Parses Markdown (a note's body, without front matter) with cmark-gfm: CommonMark plus tables,
/// task lists, strikethrough, autolinks and footnotes.
public enum MarkdownParser {
    /// The blocks of `markdown`. Never fails: text cmark cannot allocate for reads as one paragraph.
    public static func blocks(_ markdown: String) -> [MarkdownBlock] {
        guard let document = MarkdownDocument(markdown: markdown) else { return [.paragraph([.text(markdown)])] }
        return document.blocks()
    }
}
