/// Renders Markdown for a terminal: headings, emphasis, lists and task lists, code blocks,
/// quotes, tables, footnotes and links (numbered, their destinations listed at the end), wrapped
/// to a width in columns (wide CJK characters count two). With `color` off the output is plain
/// text with the same layout and no escape sequence; control characters in the note are never
/// passed to the terminal.
public struct TerminalRenderer: Sendable {
    /// The width to wrap to, in columns (at least 20).
    public var width: Int
    /// Whether to write ANSI styles.
    public var color: Bool

    /// Creates a renderer for `width` columns.
    public init(width: Int, color: Bool) {
        self.width = max(20, width)
        self.color = color
    }

    /// The rendered text of `markdown` (a note's body), ending in a newline unless empty;
    /// `noteLinks` are its wikilinks (UTF-8 byte ranges in `markdown`), shown as the given text in
    /// the style of a link. `%%` comments are left out.
    public func render(_ markdown: String, noteLinks: [(range: Range<Int>, text: String)] = []) -> String {
        let stripped = CommentFreeSource(markdown)
        let links = noteLinks.compactMap { link in stripped.moved(link.range).map { (range: $0, text: link.text) } }
        return render(blocks: MarkdownParser.blocks(stripped.markdown, noteLinks: links))
    }

    /// The rendered text of parsed blocks.
    public func render(blocks: [MarkdownBlock]) -> String {
        let layout = TerminalLayout()
        var lines = layout.lines(blocks, width: width, tight: false, depth: 0)
        if !layout.links.isEmpty {
            lines.append(StyledLine())
            for (number, destination) in layout.links.enumerated() {
                let marker = "[\(number + 1)] "
                let wrapped = TerminalWrapper(width: max(10, width - marker.count)).wrap([StyledSpan(text: destination, style: .dim)])
                lines += Self.hanging(wrapped, first: [StyledSpan(text: marker, style: .dim)], width: marker.count)
            }
        }
        guard !lines.isEmpty else { return "" }
        return lines.map { $0.rendered(color: color) }.joined(separator: "\n") + "\n"
    }

    /// Lines indented under a first-line marker.
    static func hanging(_ lines: [StyledLine], first: [StyledSpan], width: Int) -> [StyledLine] {
        let markerWidth = first.reduce(0) { $0 + DisplayWidth.of($1.text) }
        let pad = [StyledSpan(text: String(repeating: " ", count: max(0, width - markerWidth)), style: [])]
        let indent = [StyledSpan(text: String(repeating: " ", count: width), style: [])]
        guard !lines.isEmpty else { return [StyledLine(first)] }
        return lines.enumerated().map { index, line in
            if index == 0 { return line.prefixed(by: first + pad) }
            return line.spans.isEmpty ? line : line.prefixed(by: indent)
        }
    }

    /// `text` with control characters (which could drive the terminal) shown as U+FFFD.
    static func sanitized(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: isControl) else { return text }
        var result = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            result.append(isControl(scalar) ? "\u{FFFD}" : scalar)
        }
        return String(result)
    }

    private static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        let value = scalar.value
        return (value < 0x20 && value != 0x0A && value != 0x09) || (0x7F...0x9F).contains(value)
    }
}
