import CCMark

/// Obsidian's block ids (`text ^block-id`, `![[x.png]]^figure`, `^id` alone under a block) are
/// anchors, not text: a page shows none, as Obsidian's reading view does.
enum BlockIDMarks {
    /// Takes the block id off the end of each text node under `root` that ends a line with one;
    /// a paragraph left empty goes.
    static func hide(in root: OpaquePointer) {
        var texts: [OpaquePointer] = []
        if let iterator = cmark_iter_new(root) {
            defer { cmark_iter_free(iterator) }
            while case let event = cmark_iter_next(iterator), event != CMARK_EVENT_DONE {
                guard event == CMARK_EVENT_ENTER, let node = cmark_iter_get_node(iterator), NodeKind(node) == .text,
                      Node.literal(node).contains("^") else { continue }
                texts.append(node)
            }
        }
        for node in texts {
            let literal = Node.literal(node)
            guard let caret = literal.lastIndex(of: "^") else { continue }
            let id = literal[literal.index(after: caret)...]
            guard !id.isEmpty, id.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-") }) else { continue }
            let next = cmark_node_next(node)
            guard next.map({ [.softBreak, .lineBreak].contains(NodeKind($0)) }) ?? true else { continue }
            let before = literal[..<caret]
            guard before.isEmpty ? cmark_node_previous(node) != nil || cmark_node_next(node) == nil
                    : before.last == " " || before.last == "\t" else { continue }
            var kept = String(before)
            while kept.last == " " || kept.last == "\t" { kept.removeLast() }
            cmark_node_set_literal(node, kept)
            if let parent = cmark_node_parent(node), NodeKind(parent) == .paragraph, Node.plainText(parent).trimmingSpaces().isEmpty,
               cmark_node_first_child(parent) == node, cmark_node_next(node) == nil {
                cmark_node_unlink(parent)
                cmark_node_free(parent)
            }
        }
    }
}
