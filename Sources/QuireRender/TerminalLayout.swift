import Foundation

/// The layout of one rendering: blocks to styled lines, collecting link destinations.
final class TerminalLayout {
    /// Link destinations in order of first use; a link shows its 1-based number.
    private(set) var links: [String] = []

    private static let bullets = ["•", "◦", "▪"]

    func lines(_ blocks: [MarkdownBlock], width: Int, tight: Bool, depth: Int) -> [StyledLine] {
        var result: [StyledLine] = []
        for (index, block) in blocks.enumerated() {
            let blockLines = lines(block, width: max(10, width), depth: depth)
            if index > 0 && !(tight && Self.isTightJoinable(block, after: blocks[index - 1])) { result.append(StyledLine()) }
            result += blockLines
        }
        return result
    }

    /// In a tight list item, a paragraph and a nested list follow each other without a blank line.
    private static func isTightJoinable(_ block: MarkdownBlock, after previous: MarkdownBlock) -> Bool {
        switch (previous, block) {
        case (.paragraph, .list), (.list, .paragraph), (.paragraph, .paragraph): return true
        default: return false
        }
    }

    private func lines(_ block: MarkdownBlock, width: Int, depth: Int) -> [StyledLine] {
        let wrapper = TerminalWrapper(width: width)
        switch block {
        case .paragraph(let inlines):
            return wrapper.wrap(spans(inlines, []))
        case .heading(let level, let inlines):
            let style: TerminalStyle = level == 1 ? [.bold, .heading, .underline] : [.bold, .heading]
            let marker = StyledSpan(text: String(repeating: "#", count: max(1, min(6, level))) + " ", style: [.heading, .dim])
            return wrapper.wrap([marker] + spans(inlines, style))
        case .quote(let blocks):
            let inner = lines(blocks, width: width - 2, tight: false, depth: depth)
            return inner.map { line in
                line.prefixed(by: [StyledSpan(text: line.spans.isEmpty ? "│" : "│ ", style: .dim)])
            }
        case .list(let ordered, let start, let tight, let items):
            return list(ordered: ordered, start: start, tight: tight, items: items, width: width, depth: depth)
        case .code(_, let text):
            var codeLines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            if codeLines.last == "" { codeLines.removeLast() }
            return codeLines.map { line in
                let expanded = TerminalRenderer.sanitized(line.replacingOccurrences(of: "\t", with: "    "))
                return StyledLine([StyledSpan(text: "    ", style: []), StyledSpan(text: expanded, style: .code)])
            }
        case .html(let raw):
            var htmlLines = raw.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            if htmlLines.last == "" { htmlLines.removeLast() }
            return htmlLines.map { StyledLine([StyledSpan(text: TerminalRenderer.sanitized($0), style: .dim)]) }
        case .thematicBreak:
            return [StyledLine([StyledSpan(text: String(repeating: "─", count: width), style: .dim)])]
        case .table(let alignments, let header, let rows):
            let table = TerminalTable(alignments: alignments,
                                      header: header.map { spans($0, .bold) },
                                      rows: rows.map { $0.map { spans($0, []) } })
            return table.lines(width: width)
        case .footnoteDefinition(let number, let blocks):
            let marker = "[^\(number)]"
            let markerWidth = marker.count + 1
            let inner = lines(blocks, width: width - markerWidth, tight: true, depth: depth)
            return TerminalRenderer.hanging(inner, first: [StyledSpan(text: marker, style: .dim)], width: markerWidth)
        }
    }

    private func list(ordered: Bool, start: Int, tight: Bool, items: [MarkdownListItem], width: Int, depth: Int) -> [StyledLine] {
        let markers: [String] = items.indices.map { index in
            ordered ? "\(start + index)." : Self.bullets[depth % Self.bullets.count]
        }
        let markerWidth = (markers.map(\.count).max() ?? 1) + 1
        var result: [StyledLine] = []
        for (index, item) in items.enumerated() {
            if index > 0 && !tight { result.append(StyledLine()) }
            // A task item shows its box instead of a bullet (after the number in an ordered list).
            var first: [StyledSpan] = []
            var itemWidth = 0
            if ordered || item.task == nil {
                let marker = ordered ? String(repeating: " ", count: markerWidth - 1 - markers[index].count) + markers[index] : markers[index]
                first.append(StyledSpan(text: marker + " ", style: .dim))
                itemWidth = markerWidth
            }
            if let checked = item.task {
                first.append(StyledSpan(text: checked ? "[x]" : "[ ]", style: checked ? [.done, .bold] : .bold))
                itemWidth += 4
            }
            let inner = lines(item.blocks, width: width - itemWidth, tight: tight, depth: depth + 1)
            result += TerminalRenderer.hanging(inner, first: first, width: itemWidth)
        }
        return result
    }

    /// Inline elements as styled spans; a hard break is `"\n"`.
    func spans(_ inlines: [MarkdownInline], _ style: TerminalStyle) -> [StyledSpan] {
        var result: [StyledSpan] = []
        for inline in inlines {
            switch inline {
            case .text(let text): result.append(StyledSpan(text: TerminalRenderer.sanitized(text), style: style))
            case .softBreak: result.append(StyledSpan(text: " ", style: style))
            case .lineBreak: result.append(StyledSpan(text: "\n", style: style))
            case .code(let text):
                result.append(StyledSpan(text: TerminalRenderer.sanitized(text.replacingOccurrences(of: "\n", with: " ")), style: style.union(.code)))
            case .html(let raw): result.append(StyledSpan(text: TerminalRenderer.sanitized(raw), style: style.union(.dim)))
            case .emphasis(let children): result += spans(children, style.union(.italic))
            case .strong(let children): result += spans(children, style.union(.bold))
            case .strikethrough(let children): result += spans(children, style.union(.strike))
            case .link(let destination, _, let children):
                let label = spans(children, style.union([.link, .underline]))
                result += label
                let text = label.map(\.text).joined()
                let isAutolink = destination == text || destination == "mailto:" + text || destination == "http://" + text
                if !isAutolink && !destination.hasPrefix("#") && !destination.isEmpty {
                    result.append(StyledSpan(text: "[\(number(of: destination))]", style: style.union(.dim)))
                }
            case .image(let source, _, let alt):
                let altText = spans(alt, []).map(\.text).joined()
                result.append(StyledSpan(text: altText.isEmpty ? "[image]" : "[image: \(altText)]", style: style.union(.italic)))
                if !source.isEmpty { result.append(StyledSpan(text: "[\(number(of: source))]", style: style.union(.dim))) }
            case .noteLink(let text):
                result.append(StyledSpan(text: TerminalRenderer.sanitized(text), style: style.union([.link, .underline])))
            case .footnoteReference(let number):
                result.append(StyledSpan(text: "[^\(number)]", style: style.union(.dim)))
            }
        }
        return result
    }

    private func number(of destination: String) -> Int {
        let clean = TerminalRenderer.sanitized(destination)
        if let index = links.firstIndex(of: clean) { return index + 1 }
        links.append(clean)
        return links.count
    }
}
