import CCMark

/// A Markdown text parsed by cmark-gfm with the GitHub extensions (tables, task lists,
/// strikethrough, autolinks) and footnotes. Owns the cmark node tree: it is freed in `deinit`,
/// and no pointer into it leaves this module.
final class MarkdownDocument {
    /// The document node (owned: freed with `cmark_node_free` in `deinit`).
    let root: OpaquePointer
    /// The extensions the text was parsed with, for the HTML renderer (a list cmark owns in
    /// `parser`; valid while `parser` lives).
    let extensions: UnsafeMutablePointer<cmark_llist>?
    private let parser: OpaquePointer

    /// Blocks nested deeper than this (a thousand `>` in a row) are read as plain text, so
    /// hostile input cannot exhaust the stack of the recursive walks.
    static let maximumDepth = 48

    /// The extensions attached to every parser.
    static let extensionNames = ["table", "tasklist", "strikethrough", "autolink"]

    private static let registered: Bool = {
        cmark_gfm_core_extensions_ensure_registered()
        return true
    }()

    /// Parses `markdown`; nil when cmark cannot allocate its parser. With `CMARK_OPT_UNSAFE` (raw
    /// HTML kept) GitHub's tag filter is attached too.
    init?(markdown: String, options: Int32 = CMARK_OPT_FOOTNOTES) {
        _ = Self.registered
        guard let parser = cmark_parser_new(options) else { return nil }
        let unsafe = options & CMARK_OPT_UNSAFE != 0
        for name in Self.extensionNames + (unsafe ? ["tagfilter"] : []) {
            if let syntax = cmark_find_syntax_extension(name) { cmark_parser_attach_syntax_extension(parser, syntax) }
        }
        var bytes = Array(markdown.utf8)
        bytes.withUnsafeMutableBufferPointer { buffer in
            buffer.baseAddress?.withMemoryRebound(to: CChar.self, capacity: buffer.count) {
                cmark_parser_feed(parser, $0, buffer.count)
            }
        }
        guard let root = cmark_parser_finish(parser) else {
            cmark_parser_free(parser)
            return nil
        }
        cmark_consolidate_text_nodes(root)
        self.parser = parser
        self.root = root
        self.extensions = cmark_parser_get_syntax_extensions(parser)
    }

    deinit {
        cmark_node_free(root)
        cmark_parser_free(parser)
    }

    /// The document as Swift values; `noteLinks` turns the placeholders of wikilinks set aside
    /// before parsing into `.noteLink` values with their texts.
    func blocks(noteLinks: (placeholders: SourcePlaceholders, texts: [String])? = nil) -> [MarkdownBlock] {
        var footnotes = 0
        var reader = MarkdownTreeReader(footnotes: { footnotes += 1; return footnotes })
        reader.noteLinks = noteLinks
        return reader.blocks(of: root, depth: 0)
    }
}

/// A node's type, with the extension types told apart by name.
enum NodeKind: Equatable {
    case document, quote, list, item, taskItem, code, html, customBlock, paragraph, heading, thematicBreak
    case footnoteDefinition, table, tableRow, tableCell
    case text, softBreak, lineBreak, codeSpan, htmlInline, customInline, emphasis, strong, strikethrough
    case link, image, footnoteReference, other

    init(_ node: OpaquePointer) {
        switch cmark_node_get_type(node) {
        case CMARK_NODE_DOCUMENT: self = .document
        case CMARK_NODE_BLOCK_QUOTE: self = .quote
        case CMARK_NODE_LIST: self = .list
        case CMARK_NODE_ITEM:
            self = cmark_node_get_type_string(node).map { String(cString: $0) } == "tasklist" ? .taskItem : .item
        case CMARK_NODE_CODE_BLOCK: self = .code
        case CMARK_NODE_HTML_BLOCK: self = .html
        case CMARK_NODE_CUSTOM_BLOCK: self = .customBlock
        case CMARK_NODE_PARAGRAPH: self = .paragraph
        case CMARK_NODE_HEADING: self = .heading
        case CMARK_NODE_THEMATIC_BREAK: self = .thematicBreak
        case CMARK_NODE_FOOTNOTE_DEFINITION: self = .footnoteDefinition
        case CMARK_NODE_TEXT: self = .text
        case CMARK_NODE_SOFTBREAK: self = .softBreak
        case CMARK_NODE_LINEBREAK: self = .lineBreak
        case CMARK_NODE_CODE: self = .codeSpan
        case CMARK_NODE_HTML_INLINE: self = .htmlInline
        case CMARK_NODE_CUSTOM_INLINE: self = .customInline
        case CMARK_NODE_EMPH: self = .emphasis
        case CMARK_NODE_STRONG: self = .strong
        case CMARK_NODE_LINK: self = .link
        case CMARK_NODE_IMAGE: self = .image
        case CMARK_NODE_FOOTNOTE_REFERENCE: self = .footnoteReference
        default:
            switch cmark_node_get_type_string(node).map({ String(cString: $0) }) {
            case "table": self = .table
            case "table_header", "table_row": self = .tableRow
            case "table_cell": self = .tableCell
            case "strikethrough": self = .strikethrough
            case "tasklist": self = .taskItem
            default: self = .other
            }
        }
    }
}

/// Small readers of one node (borrowed pointers: valid while their document lives).
enum Node {
    static func children(_ node: OpaquePointer) -> [OpaquePointer] {
        var result: [OpaquePointer] = []
        var child = cmark_node_first_child(node)
        while let current = child {
            result.append(current)
            child = cmark_node_next(current)
        }
        return result
    }

    static func literal(_ node: OpaquePointer) -> String {
        cmark_node_get_literal(node).map { String(cString: $0) } ?? ""
    }

    static func url(_ node: OpaquePointer) -> String {
        cmark_node_get_url(node).map { String(cString: $0) } ?? ""
    }

    static func title(_ node: OpaquePointer) -> String {
        cmark_node_get_title(node).map { String(cString: $0) } ?? ""
    }

    /// All the text under `node` (text, code, breaks as spaces), walked without recursion.
    static func plainText(_ node: OpaquePointer) -> String {
        guard let iterator = cmark_iter_new(node) else { return "" }
        defer { cmark_iter_free(iterator) }
        var text = ""
        while case let event = cmark_iter_next(iterator), event != CMARK_EVENT_DONE {
            guard event == CMARK_EVENT_ENTER, let current = cmark_iter_get_node(iterator) else { continue }
            switch NodeKind(current) {
            case .text, .codeSpan: text += literal(current)
            case .code:
                if !text.isEmpty && text.last != " " { text += " " }
                text += literal(current)
            case .softBreak, .lineBreak: text += " "
            case .paragraph, .heading, .customBlock, .tableCell, .item, .taskItem, .quote, .footnoteDefinition, .html, .thematicBreak:
                if !text.isEmpty && text.last != " " && text.last != "\n" { text += " " }
            default: break
            }
        }
        return text
    }
}
