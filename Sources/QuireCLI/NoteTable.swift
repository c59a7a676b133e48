import Foundation
import QuireCore

/// The human table of notes: pin mark, updated date, title (and draft mark), color label, path
/// and tags, in aligned columns. With a terminal width (`TerminalText.columns`), long titles
/// are cut with `…` so that paths fit, and every line is cut to the width.
struct NoteTable {
    private let context: CommandContext
    private let vault: Vault
    private let columns: Int?
    private let titleWidth: Int
    private let colorWidth: Int
    private let pathWidth: Int

    /// Lays out the columns for `notes`.
    init(_ notes: [Note], context: CommandContext, vault: Vault) {
        self.context = context
        self.vault = vault
        columns = TerminalText.columns(environment: context.environment, output: context.output)
        colorWidth = notes.map { TerminalText.width($0.color ?? "") }.max() ?? 0
        pathWidth = notes.map { TerminalText.width(context.displayPath($0.path, vault: vault)) }.max() ?? 0
        let longest = notes.map { TerminalText.width(Self.title($0)) + ($0.draft ? Self.draftMark.count : 0) }.max() ?? 0
        if let columns {
            // Room for the path and the start of the tags: titles are cut before paths are.
            let tagsWidth = min(notes.map { TerminalText.width(Self.tags($0)) }.max() ?? 0, Self.reservedTagsWidth)
            let rest = Self.dateWidth + 2 + (colorWidth > 0 ? colorWidth + 2 : 0) + pathWidth + (tagsWidth > 0 ? tagsWidth + 2 : 0)
            titleWidth = min(longest, max(columns - rest, Self.minimumTitleWidth))
        } else {
            titleWidth = longest
        }
    }

    static let dateWidth = 20
    static let minimumTitleWidth = 12
    static let reservedTagsWidth = 16
    static let draftMark = " (draft)"

    /// The tags as shown: `#a #b`.
    static func tags(_ note: Note) -> String {
        TerminalText.visible(note.tags.map { "#\($0)" }.joined(separator: " "))
    }

    /// A title on one line.
    static func title(_ note: Note) -> String {
        TerminalText.visible(note.title.split(whereSeparator: \.isNewline).joined(separator: " "))
    }

    /// The line of `note`.
    func line(_ note: Note) -> String {
        let output = context.output
        let pin = note.pinned ? "★" : " "
        let date = note.updatedAt.map(DateText.short) ?? String(repeating: " ", count: 16)
        let mark = note.draft ? Self.draftMark : ""
        let title = TerminalText.cut(Self.title(note), to: titleWidth - mark.count)
        let tags = Self.tags(note)
        let path = context.displayPath(note.path, vault: vault)
        var cells: [(text: String, style: String)] = [
            ("\(pin) ", ""), (date, "2"), ("  ", ""), (title, "1"), (mark, "33"),
            (String(repeating: " ", count: max(0, titleWidth - TerminalText.width(title) - mark.count)), ""),
        ]
        if colorWidth > 0 { cells += [("  ", ""), (TerminalText.pad(note.color ?? "", to: colorWidth), "35")] }
        cells += [("  ", ""), (tags.isEmpty ? path : TerminalText.pad(path, to: pathWidth), "2")]
        if !tags.isEmpty { cells += [("  ", ""), (tags, "36")] }
        if let columns, cells.reduce(0, { $0 + TerminalText.width($1.text) }) > columns {
            // Cut where the width runs out, the last column showing `…`.
            var budget = columns
            var kept: [(text: String, style: String)] = []
            for cell in cells {
                let cellWidth = TerminalText.width(cell.text)
                if cellWidth < budget {
                    kept.append(cell)
                    budget -= cellWidth
                    continue
                }
                var start = TerminalText.prefix(cell.text, columns: budget - 1)
                while start.hasSuffix(" ") { start.removeLast() }
                // A whole value followed by `…` would look cut itself: a space sets them apart.
                let whole = !start.isEmpty && start == cell.text.trimmingCharacters(in: .whitespaces)
                kept.append((start, cell.style))
                kept.append((whole && TerminalText.width(start) + 2 <= budget ? " …" : "…", ""))
                break
            }
            cells = kept
        }
        var text = cells.map { $0.style.isEmpty || $0.text.isEmpty ? $0.text : output.styled($0.text, $0.style) }.joined()
        while text.hasSuffix(" ") { text.removeLast() }
        return text
    }

    /// The columns a line under a note (a snippet, indented by 4) may take, if limited.
    var detailColumns: Int? { columns.map { max(0, $0 - 4) } }
}
