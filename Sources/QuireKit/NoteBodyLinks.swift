import Foundation
import QuireCore
import QuireRender

/// A note's wikilinks as stretches of its body, and the text each shows.
enum NoteBodyLinks {
    /// The body's wikilinks (`note.links` read from `data`) with their byte ranges in
    /// `note.body`; none when the body is not the file's tail byte for byte (a file that is not
    /// valid UTF-8, read lossily).
    static func wikilinks(of note: Note, data: Data) -> [(link: NoteLink, range: Range<Int>)] {
        let bodyBytes = note.body.utf8.count
        let offset = data.count - bodyBytes
        guard offset >= 0, data.suffix(bodyBytes).elementsEqual(note.body.utf8) else { return [] }
        return note.links.compactMap { link in
            guard link.style == .wiki, link.location == .body, link.range.lowerBound >= offset else { return nil }
            return (link, (link.range.lowerBound - offset)..<(link.range.upperBound - offset))
        }
    }

    /// What a wikilink shows: its label, else its target (`target › heading`), or the heading of
    /// a link into its own note.
    static func shownText(_ link: NoteLink) -> String {
        if let label = link.label { return label }
        if link.isSelfLink { return link.heading ?? link.blockID.map { "^" + $0 } ?? "" }
        return link.heading.map { "\(link.target) › \($0)" } ?? link.target
    }
}

/// A note rendered for reading (`quire show NOTE --render`).
public enum NoteRendering {
    /// The body of `note` (read from `data`) formatted for a terminal `width` columns wide, its
    /// wikilinks shown as their labels in the style of links.
    public static func terminal(_ note: Note, data: Data, width: Int, color: Bool) -> String {
        let links = NoteBodyLinks.wikilinks(of: note, data: data).map { ($0.range, NoteBodyLinks.shownText($0.link)) }
        return TerminalRenderer(width: width, color: color).render(note.body, noteLinks: links)
    }
}
