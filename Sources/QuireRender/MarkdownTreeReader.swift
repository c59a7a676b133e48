import CCMark

/// Copies a cmark node tree into `MarkdownBlock` and `MarkdownInline` values.
struct MarkdownTreeReader {
    /// Hands out the next footnote number (definitions come in the order cmark-gfm numbered them).
    let footnotes: () -> Int
    /// The wikilinks set aside before parsing and the text each shows, if any.
    var noteLinks: (placeholders: SourcePlaceholders, texts: [String])?

    private func literal(_ node: OpaquePointer) -> String {
        guard let noteLinks else { return Node.literal(node) }
        return noteLinks.placeholders.restored(Node.literal(node))
    }

    func blocks(of parent: OpaquePointer, depth: Int) -> [MarkdownBlock] {
        Node.children(parent).compactMap { block($0, depth: depth + 1) }
    }

    private func block(_ node: OpaquePointer, depth: Int) -> MarkdownBlock? {
        if depth > MarkdownDocument.maximumDepth { return .paragraph([.text(Node.plainText(node))]) }
        switch NodeKind(node) {
        case .paragraph: return .paragraph(inlines(of: node, depth: depth))
        case .heading: return .heading(level: Int(cmark_node_get_heading_level(node)), inlines(of: node, depth: depth))
        case .quote: return .quote(blocks(of: node, depth: depth))
        case .list:
            let items = Node.children(node).map { item in
                MarkdownListItem(task: NodeKind(item) == .taskItem ? cmark_gfm_extensions_get_tasklist_item_checked(item) : nil,
                                 blocks: blocks(of: item, depth: depth + 1))
            }
            return .list(ordered: cmark_node_get_list_type(node) == CMARK_ORDERED_LIST,
                         start: Int(cmark_node_get_list_start(node)), tight: cmark_node_get_list_tight(node) != 0, items: items)
        case .code:
            return .code(info: cmark_node_get_fence_info(node).map { String(cString: $0) } ?? "", text: literal(node))
        case .html: return .html(literal(node))
        case .thematicBreak: return .thematicBreak
        case .footnoteDefinition: return .footnoteDefinition(number: footnotes(), blocks(of: node, depth: depth))
        case .table: return table(node, depth: depth)
        case .customBlock: return .paragraph([.text(Node.plainText(node))])
        default: return nil
        }
    }

    private func table(_ node: OpaquePointer, depth: Int) -> MarkdownBlock {
        let columns = Int(cmark_gfm_extensions_get_table_columns(node))
        var alignments: [TableAlignment] = []
        if let raw = cmark_gfm_extensions_get_table_alignments(node) {
            for column in 0..<columns {
                switch raw[column] {
                case UInt8(ascii: "l"): alignments.append(.left)
                case UInt8(ascii: "c"): alignments.append(.center)
                case UInt8(ascii: "r"): alignments.append(.right)
                default: alignments.append(.none)
                }
            }
        }
        var rows = Node.children(node).map { row in Node.children(row).map { inlines(of: $0, depth: depth + 2) } }
        let header = rows.isEmpty ? [] : rows.removeFirst()
        return .table(alignments: alignments, header: header, rows: rows)
    }

    func inlines(of parent: OpaquePointer, depth: Int) -> [MarkdownInline] {
        Node.children(parent).flatMap { inline($0, depth: depth + 1) }
    }

    private func inline(_ node: OpaquePointer, depth: Int) -> [MarkdownInline] {
        if NodeKind(node) == .text, let noteLinks, SourcePlaceholders.occur(in: Node.literal(node)) {
            return noteLinks.placeholders.pieces(Node.literal(node)).map { piece in
                switch piece {
                case .text(let text): return .text(text)
                case .placeholder(let index): return .noteLink(noteLinks.texts[noteLinks.placeholders.used[index].index])
                }
            }
        }
        return single(node, depth: depth).map { [$0] } ?? []
    }

    private func single(_ node: OpaquePointer, depth: Int) -> MarkdownInline? {
        if depth > MarkdownDocument.maximumDepth * 2 { return .text(Node.plainText(node)) }
        switch NodeKind(node) {
        case .text: return .text(Node.literal(node))
        case .softBreak: return .softBreak
        case .lineBreak: return .lineBreak
        case .codeSpan: return .code(literal(node))
        case .htmlInline: return .html(literal(node))
        case .emphasis: return .emphasis(inlines(of: node, depth: depth))
        case .strong: return .strong(inlines(of: node, depth: depth))
        case .strikethrough: return .strikethrough(inlines(of: node, depth: depth))
        case .link: return .link(destination: Node.url(node), title: Node.title(node), children: inlines(of: node, depth: depth))
        case .image: return .image(source: Node.url(node), title: Node.title(node), alt: inlines(of: node, depth: depth))
        case .footnoteReference: return .footnoteReference(Int(Node.literal(node)) ?? 0)
        case .customInline: return .text(Node.plainText(node))
        default: return nil
        }
    }
}
