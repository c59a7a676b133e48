import Foundation
import QuireCore

/// How a vault writes its links, so that a link quire inserts looks like the user's own:
/// `[[file-name]]` (Obsidian's "shortest path"), `[[Note Title]]`, or `[Title](relative/path.md)`.
public enum LinkForm: String, Sendable, Equatable {
    /// A wikilink naming the file (its path when the name is not unique).
    case wikiName
    /// A wikilink naming the note's title.
    case wikiTitle
    /// A Markdown link with the path relative to the linking note.
    case markdown

    /// The form most of `links` use (ties, and a vault without links: `wikiName`). A wikilink
    /// counts as naming a title when its target is a note's title and no note's file name.
    public static func usual(links: [NoteLink], titleKeys: Set<String>, stemKeys: Set<String>) -> LinkForm {
        var tally = Tally()
        tally.add(links)
        return tally.usual(titleKeys: titleKeys, stemKeys: stemKeys)
    }

    /// The links of many notes counted note by note (`usual(links:…)` without holding them all):
    /// Markdown links, and wikilinks by target key.
    public struct Tally: Sendable {
        private var markdown = 0
        private var wikiTargets: [String: Int] = [:]

        /// An empty count.
        public init() {}

        /// Counts `links` (embeds, self links and links to attachments are not counted).
        public mutating func add(_ links: [NoteLink]) {
            for link in links where !link.isEmbed && !link.isSelfLink && !link.pointsAtAttachment {
                switch link.style {
                case .markdown: markdown += 1
                case .wiki: wikiTargets[LinkResolver.key(link.target), default: 0] += 1
                }
            }
        }

        /// The form most of the counted links use (as `LinkForm.usual(links:…)`).
        public func usual(titleKeys: Set<String>, stemKeys: Set<String>) -> LinkForm {
            var counts: [LinkForm: Int] = [.markdown: markdown]
            for (key, count) in wikiTargets {
                counts[titleKeys.contains(key) && !stemKeys.contains(key) ? .wikiTitle : .wikiName, default: 0] += count
            }
            return [LinkForm.wikiName, .wikiTitle, .markdown].max { counts[$0, default: 0] < counts[$1, default: 0] } ?? .wikiName
        }
    }

    /// The link text to the note at `path` titled `title`, written in the note at `source`;
    /// `uniqueName` says whether no other note has the file name. A title that cannot stand in
    /// a wikilink (`|`, `#`, brackets) falls back to the file name.
    public func link(to path: String, title: String, from source: String, uniqueName: Bool) -> String {
        let stem = LinkPathText.withoutExtension(LinkPathText.fileName(of: path))
        switch self {
        case .wikiTitle where !title.contains(where: { "|#^[]\n".contains($0) }):
            return "[[" + title + "]]"
        case .wikiName, .wikiTitle:
            return "[[" + (uniqueName ? stem : LinkPathText.withoutExtension(path)) + "]]"
        case .markdown:
            let relative = LinkTarget.relativePath(to: path, from: NoteParser.folder(of: source))
            let label = title.replacingOccurrences(of: "]", with: "\\]").replacingOccurrences(of: "[", with: "\\[")
            return "[" + label + "](" + LinkPathText.destination(relative, angle: false, like: "") + ")"
        }
    }
}
