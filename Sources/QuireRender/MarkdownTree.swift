/// One inline element of a Markdown document, as cmark-gfm parsed it (a value: no C pointers).
public indirect enum MarkdownInline: Equatable, Sendable {
    /// Literal text.
    case text(String)
    /// A line break in the source that is no hard break (shown as a space).
    case softBreak
    /// A hard line break (two spaces or a backslash at the end of a line).
    case lineBreak
    /// A code span.
    case code(String)
    /// Raw inline HTML, as written.
    case html(String)
    /// `*emphasis*`.
    case emphasis([MarkdownInline])
    /// `**strong emphasis**`.
    case strong([MarkdownInline])
    /// `~~strikethrough~~`.
    case strikethrough([MarkdownInline])
    /// A link (also an autolink) with its destination, title and text.
    case link(destination: String, title: String, children: [MarkdownInline])
    /// An image with its source, title and alternative text.
    case image(source: String, title: String, alt: [MarkdownInline])
    /// A footnote reference, numbered as its definition is (1-based, in order of first use).
    case footnoteReference(Int)
    /// A link to another note written as a wikilink (`[[X|label]]`), with the text it shows.
    case noteLink(String)
}

/// How a table column is aligned.
public enum TableAlignment: Equatable, Sendable {
    case none, left, center, right
}

/// One item of a list: its blocks, and for a task list item whether it is checked.
public struct MarkdownListItem: Equatable, Sendable {
    /// nil for an ordinary item; true or false for `- [x]` / `- [ ]`.
    public var task: Bool?
    /// The item's content.
    public var blocks: [MarkdownBlock]

    /// Creates an item.
    public init(task: Bool?, blocks: [MarkdownBlock]) {
        self.task = task
        self.blocks = blocks
    }
}

/// One block of a Markdown document, as cmark-gfm parsed it (a value: no C pointers).
public indirect enum MarkdownBlock: Equatable, Sendable {
    /// A paragraph.
    case paragraph([MarkdownInline])
    /// A heading of level 1–6.
    case heading(level: Int, [MarkdownInline])
    /// A block quote.
    case quote([MarkdownBlock])
    /// A list: ordered ones start at `start`; a tight list has no blank lines between items.
    case list(ordered: Bool, start: Int, tight: Bool, items: [MarkdownListItem])
    /// A fenced or indented code block with its info string (`swift`, or empty).
    case code(info: String, text: String)
    /// A raw HTML block, as written.
    case html(String)
    /// `---`.
    case thematicBreak
    /// A table: the alignment of each column, the header cells and the body rows.
    case table(alignments: [TableAlignment], header: [[MarkdownInline]], rows: [[[MarkdownInline]]])
    /// A footnote definition with its number (cmark-gfm moves them to the end, in order of use).
    case footnoteDefinition(number: Int, [MarkdownBlock])
}
