import Foundation

/// Raw HTML blocks as CommonMark starts and ends them (spec 4.6): the seven start conditions,
/// read at a line's first byte past its indentation. Their lines hold no links, tags or
/// headings for quire, as in Obsidian (`<td>#fff</td>` is no tag).
extension MarkdownBlocks {
    /// What ends an HTML block.
    enum HTMLBlockEnd: Equatable {
        /// `</script>`, `</pre>`, `</style>` or `</textarea>` on a line (kind 1).
        case closingRawTag
        /// `-->` (kind 2), `?>` (3), `>` (4), `]]>` (5).
        case marker(String)
        /// A blank line (kinds 6 and 7).
        case blankLine
    }

    /// The tags whose blocks end only at their closing tag.
    private static let rawTags = ["script", "pre", "style", "textarea"]

    /// The block-level tag names of kind 6.
    private static let blockTags: Set<String> = [
        "address", "article", "aside", "base", "basefont", "blockquote", "body", "caption", "center", "col", "colgroup",
        "dd", "details", "dialog", "dir", "div", "dl", "dt", "fieldset", "figcaption", "figure", "footer", "form",
        "frame", "frameset", "h1", "h2", "h3", "h4", "h5", "h6", "head", "header", "hr", "html", "iframe", "legend",
        "li", "link", "main", "menu", "menuitem", "nav", "noframes", "ol", "optgroup", "option", "p", "param",
        "search", "section", "summary", "table", "tbody", "td", "tfoot", "th", "thead", "title", "tr", "track", "ul",
    ]

    /// The end of the HTML block that starts at `line.lowerBound` (a `<`), nil when none does;
    /// `interrupting` a paragraph, kind 7 (any other whole tag alone on its line) cannot.
    static func htmlBlockStart(_ bytes: UnsafeBufferPointer<UInt8>, _ line: Range<Int>, interrupting: Bool) -> HTMLBlockEnd? {
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[line.lowerBound..<min(line.upperBound, line.lowerBound + 512)]),
                          as: UTF8.self)
        let lower = text.lowercased()
        if lower.hasPrefix("<!--") { return .marker("-->") }
        if lower.hasPrefix("<?") { return .marker("?>") }
        if lower.hasPrefix("<![cdata[") { return .marker("]]>") }
        if lower.hasPrefix("<!"), lower.dropFirst(2).first?.isASCII == true, lower.dropFirst(2).first?.isLetter == true {
            return .marker(">")
        }
        let closing = lower.hasPrefix("</")
        let nameStart = lower.dropFirst(closing ? 2 : 1)
        let name = String(nameStart.prefix { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-") })
        guard let first = name.first, first.isLetter else { return nil }
        let after = nameStart.dropFirst(name.count)
        let endsName = after.isEmpty || after.first == " " || after.first == "\t" || after.first == ">" || after.hasPrefix("/>")
        if !closing, Self.rawTags.contains(name), endsName { return .closingRawTag }
        if Self.blockTags.contains(name), endsName { return .blankLine }
        // Kind 7: one whole open or closing tag, then only spaces.
        guard !interrupting, !Self.rawTags.contains(name), let close = after.firstIndex(of: ">") else { return nil }
        let attributes = after[..<close]
        guard attributes.isEmpty || attributes.first == " " || attributes.first == "\t" || attributes == "/" || attributes.last == "/",
              !closing || attributes.allSatisfy({ $0 == " " || $0 == "\t" }),
              after[after.index(after: close)...].allSatisfy({ $0 == " " || $0 == "\t" }) else { return nil }
        return .blankLine
    }

    /// Whether `line` holds what ends a block that ends at a marker or a closing raw tag.
    static func ends(_ blockEnd: HTMLBlockEnd, _ bytes: UnsafeBufferPointer<UInt8>, _ line: Range<Int>) -> Bool {
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[line]), as: UTF8.self)
        switch blockEnd {
        case .blankLine: return false
        case .marker(let marker): return text.contains(marker)
        case .closingRawTag:
            let lower = text.lowercased()
            return Self.rawTags.contains { lower.contains("</" + $0 + ">") }
        }
    }
}
