import CCMark

/// Obsidian's callouts in a parsed document: a block quote whose first line is `[!type]`, then
/// an optional fold mark (`+` open, `-` closed) and title (`> [!tip]- Read me`), becomes
/// `<div class="callout" data-callout="tip">` with a title (the type's label, `Tip`, when none
/// is written) and its content; a foldable one holds a `<details>` (open for `+`). Callouts
/// nest as block quotes do. No `[!tip]` text is left on the page.
enum CalloutBlocks {
    /// What the first line of a block quote says about its callout.
    struct Header: Equatable {
        /// The type as written, lowercased (`tip`, `warning`, `my-type`).
        var type: String
        /// `+`, `-` or nil.
        var fold: Character?
        /// The text after the mark on the first text node, its leading spaces dropped.
        var titleStart: String
    }

    /// The header of a callout whose first text node reads `text`; nil when it is none.
    static func header(_ text: String) -> Header? {
        guard text.hasPrefix("[!"), let close = text.firstIndex(of: "]") else { return nil }
        let type = text[text.index(text.startIndex, offsetBy: 2)..<close]
        guard !type.isEmpty, type.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" }) else { return nil }
        var rest = text[text.index(after: close)...]
        var fold: Character?
        if let first = rest.first, first == "+" || first == "-" {
            fold = first
            rest = rest.dropFirst()
        }
        guard rest.isEmpty || rest.first == " " || rest.first == "\t" else { return nil }
        while let space = rest.first, space == " " || space == "\t" { rest = rest.dropFirst() }
        return Header(type: type.lowercased(), fold: fold, titleStart: String(rest))
    }

    /// The label shown for a type without a title: its first letter capitalized, `-` and `_`
    /// made spaces (`tip` → `Tip`, `my-type` → `My type`).
    static func label(of type: String) -> String {
        let spaced = type.map { $0 == "-" || $0 == "_" ? " " : String($0) }.joined()
        return spaced.prefix(1).uppercased() + spaced.dropFirst()
    }

    /// Turns each block quote of `quotes` that starts as a callout into one.
    static func render(_ quotes: [OpaquePointer]) {
        for quote in quotes { render(quote) }
    }

    private static func render(_ quote: OpaquePointer) {
        guard let paragraph = cmark_node_first_child(quote), NodeKind(paragraph) == .paragraph,
              let first = cmark_node_first_child(paragraph), NodeKind(first) == .text,
              let header = header(Node.literal(first)),
              let callout = cmark_node_new(CMARK_NODE_CUSTOM_BLOCK),
              let title = cmark_node_new(CMARK_NODE_CUSTOM_BLOCK),
              let content = cmark_node_new(CMARK_NODE_CUSTOM_BLOCK) else { return }
        let type = HTMLText.escape(header.type)
        let foldAttribute = header.fold.map { " data-callout-fold=\"\($0)\"" } ?? ""
        let details = header.fold.map { $0 == "+" ? "<details open>" : "<details>" } ?? ""
        cmark_node_set_on_enter(callout, "<div class=\"callout\" data-callout=\"\(type)\"\(foldAttribute)>\(details)")
        cmark_node_set_on_exit(callout, header.fold == nil ? "</div>" : "</details></div>")
        let titleTag = header.fold == nil ? "div" : "summary"
        cmark_node_set_on_enter(title, "<\(titleTag) class=\"callout-title\">")
        cmark_node_set_on_exit(title, "</\(titleTag)>")
        cmark_node_set_on_enter(content, "<div class=\"callout-content\">")
        cmark_node_set_on_exit(content, "</div>")
        cmark_node_append_child(callout, title)
        cmark_node_append_child(callout, content)

        // The title: the rest of the first text node and the inlines up to the first line break.
        cmark_node_set_literal(first, header.titleStart)
        var node: OpaquePointer? = first
        while let current = node, NodeKind(current) != .softBreak, NodeKind(current) != .lineBreak {
            node = cmark_node_next(current)
            cmark_node_unlink(current)
            cmark_node_append_child(title, current)
        }
        if let lineBreak = node {
            cmark_node_unlink(lineBreak)
            cmark_node_free(lineBreak)
        }
        if Node.plainText(title).trimmingSpaces().isEmpty {
            while let child = cmark_node_first_child(title) {
                cmark_node_unlink(child)
                cmark_node_free(child)
            }
            if let labelNode = cmark_node_new(CMARK_NODE_TEXT) {
                cmark_node_set_literal(labelNode, label(of: header.type))
                cmark_node_append_child(title, labelNode)
            }
        }
        // The content: what is left of the first paragraph, then the quote's other blocks.
        if cmark_node_first_child(paragraph) == nil {
            cmark_node_unlink(paragraph)
            cmark_node_free(paragraph)
        }
        while let child = cmark_node_first_child(quote) {
            cmark_node_unlink(child)
            cmark_node_append_child(content, child)
        }
        cmark_node_insert_before(quote, callout)
        cmark_node_unlink(quote)
        cmark_node_free(quote)
    }
}
