import Foundation

/// One link written in a note file: a wikilink (`[[target#heading|label]]`, `![[embed]]`) or a
/// Markdown link (`[label](path.md#heading "title")`, `![alt](image.png)`), in the body or in a
/// front-matter string value. Found by `LinkExtractor`; a value (no file handle).
///
/// Byte ranges are offsets into the whole file (the BOM and front matter included), so a
/// rewriter can replace `targetRange` alone and leave every other byte as it was.
public struct NoteLink: Sendable, Equatable, Hashable {
    /// How a link is written.
    public enum Style: String, Sendable, Equatable, Hashable, CaseIterable {
        /// `[[target]]`, `[[target|label]]`, `[[target#heading]]`, `[[target#^block]]`.
        case wiki
        /// `[label](path)`, `[label](<path with spaces>)`, `[label](path "title")`.
        case markdown
    }

    /// Where a link is written.
    public enum Location: Sendable, Equatable, Hashable {
        /// In the Markdown body.
        case body
        /// In the value of this front-matter key (`related: "[[X]]"`, or a list of such).
        case frontMatter(key: String)
    }

    /// Wikilink or Markdown link.
    public var style: Style
    /// Whether the link is an embed (`![[x]]`, `![alt](x)`).
    public var isEmbed: Bool
    /// Body or front matter.
    public var location: Location
    /// The target as it is written, without the fragment (`#heading`, `#^block`) and, for a
    /// Markdown link, without angle brackets and title: still URL-encoded (`My%20Note.md`).
    /// Exactly the bytes of `targetRange`. Empty for a link into the same note (`[[#heading]]`).
    public var rawTarget: String
    /// The target as a path or name: `rawTarget` with URL encoding decoded (Markdown links
    /// only; a wikilink is never encoded). What `LinkResolver` resolves.
    public var target: String
    /// The heading the link points at (`[[note#Heading]]`, `[x](note.md#heading)`; decoded),
    /// nested headings joined with `#` as written (`A#B`); nil when there is none.
    public var heading: String?
    /// The block id the link points at (`[[note#^block-id]]`), without `^`; nil when none.
    public var blockID: String?
    /// The label (`[[target|label]]`, the text of `[label](…)`); nil for a bare wikilink.
    public var label: String?
    /// The title of a Markdown link (`(path "title")`), unescaped; nil when there is none.
    public var title: String?
    /// Whether a Markdown link's destination is written in angle brackets (`(<a b.md>)`).
    public var isAngleBracketed: Bool
    /// The bytes of the whole link in the file (`[[…]]`, `![[…]]`, `[…](…)`).
    public var range: Range<Int>
    /// The bytes of `rawTarget` in the file (an empty range at the fragment or the closing
    /// bracket when the target is empty).
    public var targetRange: Range<Int>
    /// The bytes of the fragment after the target (`#heading`, `#^block`, `#` included); nil
    /// when there is none.
    public var fragmentRange: Range<Int>?
    /// The bytes of the label in the file; nil when there is none.
    public var labelRange: Range<Int>?
    /// The 1-based line of the file the link starts on.
    public var line: Int
    /// The 1-based column (in bytes, within the line) the link starts at.
    public var column: Int

    /// Creates a link value (`LinkExtractor` makes them from files).
    public init(style: Style, isEmbed: Bool = false, location: Location = .body, rawTarget: String,
                target: String, heading: String? = nil, blockID: String? = nil, label: String? = nil,
                title: String? = nil, isAngleBracketed: Bool = false, range: Range<Int>,
                targetRange: Range<Int>, fragmentRange: Range<Int>? = nil, labelRange: Range<Int>? = nil,
                line: Int, column: Int = 1) {
        self.style = style
        self.isEmbed = isEmbed
        self.location = location
        self.rawTarget = rawTarget
        self.target = target
        self.heading = heading
        self.blockID = blockID
        self.label = label
        self.title = title
        self.isAngleBracketed = isAngleBracketed
        self.range = range
        self.targetRange = targetRange
        self.fragmentRange = fragmentRange
        self.labelRange = labelRange
        self.line = line
        self.column = column
    }

    /// Whether the link points into its own note (`[[#heading]]`, `[x](#heading)`).
    public var isSelfLink: Bool { target.isEmpty }

    /// Whether the target names a file other than a note: it has an extension and that
    /// extension is not `.md` (`image.png`, `paper.pdf`). `[[v1.2 notes]]` has none that
    /// counts: an extension here is 1–5 letters or digits with at least one letter.
    public var pointsAtAttachment: Bool {
        LinkTarget.attachmentExtension(of: target) != nil
    }

    /// The link as a person reads it: `[[target#heading|label]]` or `[label](target)`.
    public var displayText: String {
        let fragment = heading.map { "#" + $0 } ?? blockID.map { "#^" + $0 } ?? ""
        switch style {
        case .wiki:
            return (isEmbed ? "!" : "") + "[[" + target + fragment + (label.map { "|" + $0 } ?? "") + "]]"
        case .markdown:
            return (isEmbed ? "!" : "") + "[" + (label ?? "") + "](" + rawTarget + fragment + ")"
        }
    }
}
