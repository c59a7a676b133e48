import Foundation
import QuireCore
import QuireRender
import QuireSearch

/// The site's index pages: notes by folder and by tag, and the facts line of each note.
struct SiteIndex {
    let notes: [Note]
    let siteTitle: String
    /// Each folder's anchor on `index.html`.
    private let folderAnchors: [String: String]
    /// Each tag's (lowercased) anchor on `tags.html` and the spelling shown.
    private let tagAnchors: [String: (anchor: String, shown: String)]
    /// Days as pages show them (one formatter for the site: making one costs more than a page).

    init(notes: [Note], siteTitle: String) {
        self.notes = notes
        self.siteTitle = siteTitle
        var anchors = HeadingAnchor()
        var folders: [String: String] = [:]
        for folder in Set(notes.map(\.folder)).sorted() { folders[folder] = anchors.next("folder " + folder) }
        folderAnchors = folders
        var tags: [String: (String, String)] = [:]
        var tagAnchorMaker = HeadingAnchor()
        let spellings = Dictionary(NameCount.counting(notes.map(\.tags)).map { ($0.name.lowercased(), $0.name) },
                                   uniquingKeysWith: { first, _ in first })
        for key in spellings.keys.sorted() { tags[key] = (tagAnchorMaker.next("tag " + key), spellings[key] ?? key) }
        tagAnchors = tags
    }

    var summary: String { "\(notes.count) \(notes.count == 1 ? "note" : "notes") in \(folderAnchors.count) \(folderAnchors.count == 1 ? "folder" : "folders")." }

    var tagSummary: String { "\(tagAnchors.count) \(tagAnchors.count == 1 ? "tag" : "tags")." }

    private static func ordered(_ notes: [Note]) -> [Note] {
        notes.sorted { ($0.title.lowercased(), $0.path) < ($1.title.lowercased(), $1.path) }
    }

    private func link(to note: Note, from page: String) -> SiteLink {
        SiteLink(text: note.title, href: SiteLayout.href(to: SiteLayout.page(ofNote: note.path), from: page))
    }

    /// `index.html`: a section per folder (the top level first), notes by title.
    func folderSections() -> [SiteSection] {
        let byFolder = Dictionary(grouping: notes, by: \.folder)
        return byFolder.keys.sorted().map { folder in
            SiteSection(title: folder.isEmpty ? "Top level" : folder, anchor: folderAnchors[folder] ?? "folder",
                        links: Self.ordered(byFolder[folder] ?? []).map { link(to: $0, from: "index.html") })
        }
    }

    /// `tags.html`: a section per tag (case ignored), notes by title.
    func tagSections() -> [SiteSection] {
        var byTag: [String: [Note]] = [:]
        for note in notes {
            for tag in Set(note.tags.map { $0.lowercased() }) { byTag[tag, default: []].append(note) }
        }
        return byTag.keys.sorted().map { key in
            SiteSection(title: "#" + (tagAnchors[key]?.shown ?? key), anchor: tagAnchors[key]?.anchor ?? "tag",
                        links: Self.ordered(byTag[key] ?? []).map { link(to: $0, from: "tags.html") })
        }
    }

    /// The link from a page to its folder's section of the index; nil for the top level.
    func folderLink(_ folder: String, from page: String) -> SiteLink? {
        guard !folder.isEmpty else { return nil }
        return SiteLink(text: folder, href: SiteLayout.href(to: "index.html", from: page, fragment: folderAnchors[folder]))
    }

    /// The links from a page to its tags' sections.
    func tagLinks(_ tags: [String], from page: String) -> [SiteLink] {
        tags.map { tag in
            SiteLink(text: tag, href: SiteLayout.href(to: "tags.html", from: page, fragment: tagAnchors[tag.lowercased()]?.anchor))
        }
    }

    /// Dates, project and draft, as a page shows them under the title.
    func facts(of note: Note) -> [String] {
        var facts: [String] = []
        if let created = note.createdAt { facts.append("created " + QuireClock.day(created)) }
        if let updated = note.updatedAt { facts.append("updated " + QuireClock.day(updated)) }
        if let project = note.project { facts.append("project: " + project) }
        if note.draft { facts.append("draft") }
        return facts
    }

    /// The line a link is on, as a short context: its links shown as their text (`[[X|label]]` →
    /// `label`), list, number and quote marks dropped, cut at 200 characters.
    static func context(line: Int, in data: Data, links: [NoteLink]) -> String {
        let file = [UInt8](data)
        var current = 1
        var start = 0
        while current < line, let newline = file[start...].firstIndex(of: 0x0A) {
            current += 1
            start = newline + 1
        }
        let end = file[start...].firstIndex(of: 0x0A) ?? file.count
        var bytes: [UInt8] = []
        var position = start
        for link in links.sorted(by: { $0.range.lowerBound < $1.range.lowerBound })
        where link.range.lowerBound >= position && link.range.upperBound <= end {
            bytes += file[position..<link.range.lowerBound]
            bytes += Array((link.style == .wiki ? NoteBodyLinks.shownText(link) : link.label ?? "").utf8)
            position = link.range.upperBound
        }
        bytes += file[position..<end]
        var text = String(decoding: bytes, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        while let first = text.first, "-*+>#".contains(first) { text = String(text.dropFirst()).trimmingCharacters(in: .whitespaces) }
        if let marker = text.range(of: #"^[0-9]{1,9}[.)] "#, options: .regularExpression) { text.removeSubrange(marker) }
        return text.count > 200 ? String(text.prefix(199)) + "…" : text
    }
}

/// One note in the search index (`_quire/search-index.json`).
struct SiteSearchEntry: Codable {
    var title: String
    /// The page's URL from the site's root.
    var url: String
    var folder: String
    var tags: [String]
    /// The note's text without markup (at most 50,000 characters).
    var text: String

    init(note: Note, page: String, text: String) {
        title = note.title
        url = HTMLText.urlPath(page)
        folder = note.folder
        tags = note.tags
        self.text = text.count > 50_000 ? String(text.prefix(50_000)) : text
    }

    static func json(_ entries: [SiteSearchEntry]) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(entries), as: UTF8.self)
    }
}
