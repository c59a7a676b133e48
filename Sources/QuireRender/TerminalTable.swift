/// A table laid out in terminal columns: ` │ ` between columns, a rule under the header, cells
/// aligned as the table says; when the table is wider than the line, the widest columns give up
/// width and their cells wrap.
struct TerminalTable {
    let alignments: [TableAlignment]
    let header: [[StyledSpan]]
    let rows: [[[StyledSpan]]]

    private static let separator = " │ "

    func lines(width: Int) -> [StyledLine] {
        let columnCount = max(header.count, rows.map(\.count).max() ?? 0)
        guard columnCount > 0 else { return [] }
        let all = [header] + rows
        var widths = (0..<columnCount).map { column in
            all.map { row in column < row.count ? Self.naturalWidth(row[column]) : 0 }.max() ?? 0
        }
        widths = widths.map { max(1, $0) }
        let available = width - Self.separator.count * (columnCount - 1)
        // Take a column from the widest until the table fits (each keeps at least 3 columns).
        while widths.reduce(0, +) > available, let widest = widths.indices.max(by: { widths[$0] < widths[$1] }), widths[widest] > 3 {
            widths[widest] -= 1
        }
        var result = rowLines(header, widths: widths)
        let rule = widths.map { String(repeating: "─", count: $0) }.joined(separator: "─┼─")
        result.append(StyledLine([StyledSpan(text: rule, style: .dim)]))
        for row in rows { result += rowLines(row, widths: widths) }
        return result
    }

    private static func naturalWidth(_ spans: [StyledSpan]) -> Int {
        spans.map { span in
            span.text.split(separator: "\n", omittingEmptySubsequences: false).map { DisplayWidth.of(String($0)) }.max() ?? 0
        }.reduce(0, +)
    }

    private func rowLines(_ row: [[StyledSpan]], widths: [Int]) -> [StyledLine] {
        let cells: [[StyledLine]] = widths.indices.map { column in
            column < row.count ? TerminalWrapper(width: widths[column]).wrap(row[column]) : []
        }
        let height = max(1, cells.map(\.count).max() ?? 1)
        return (0..<height).map { lineIndex in
            var spans: [StyledSpan] = []
            for column in widths.indices {
                if column > 0 { spans.append(StyledSpan(text: Self.separator, style: .dim)) }
                let cellLine = lineIndex < cells[column].count ? cells[column][lineIndex] : StyledLine()
                let slack = max(0, widths[column] - cellLine.width)
                let alignment = column < alignments.count ? alignments[column] : .none
                let before = alignment == .right ? slack : alignment == .center ? slack / 2 : 0
                spans.append(StyledSpan(text: String(repeating: " ", count: before), style: []))
                spans += cellLine.spans
                spans.append(StyledSpan(text: String(repeating: " ", count: slack - before), style: []))
            }
            return StyledLine(spans)
        }
    }
}
