import Foundation

/// Where a note's front matter lies, by line, found by the one fence rule every reader of notes
/// uses (`FrontMatterLayout`: `---` … `---` or `...` for YAML, `+++` … `+++` for TOML, a BOM
/// skipped, no front matter without a closing fence): for editors, which work by line.
public struct FrontMatterSpan: Equatable, Sendable {
    /// The kind of front matter (`.none` when there is none).
    public let format: FrontMatterFormat
    /// The 0-based lines between the fences; empty when there is no front matter.
    public let contentLines: Range<Int>

    /// The span of the note file or buffer `bytes`.
    public init(bytes: [UInt8]) {
        let layout = bytes.withUnsafeBufferPointer { FrontMatterLayout.split($0) }
        format = layout.format
        guard layout.format != .none else {
            contentLines = 0..<0
            return
        }
        let first = bytes[..<layout.contentStart].lazy.filter { $0 == 0x0A }.count
        let fence = first + bytes[layout.contentStart..<layout.contentEnd].lazy.filter { $0 == 0x0A }.count
        contentLines = first..<fence
    }
}
