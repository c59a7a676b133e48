import Foundation
import QuireCore
import QuireRender

/// Where the links of the notes lead in a generated site: wikilinks and embeds become
/// replacements for the HTML renderer, Markdown links and images are rewritten to the pages and
/// copied files; what leads nowhere is shown as text and reported. Resolution is QuireCore's
/// `LinkResolver` (Obsidian's rules).
struct SiteLinkMap {
    let resolver: LinkResolver
    /// Vault paths of the notes that get a page (by their bytes: two names equal under Unicode
    /// normalization are two notes, one of them perhaps a draft).
    let published: Set<ExactPath>
    /// Each note's headings with the `id` each gets on its page, for `#heading` fragments.
    let headings: [ExactPath: [(text: String, anchor: String)]]
    /// The notes by path with the bytes they were read from, for transcluded embeds.
    let notes: [ExactPath: (note: Note, data: Data)]
    /// Whether raw HTML goes to the pages (an embed's content is rendered as its page is).
    let rawHTML: Bool

    /// How deep embeds are transcluded into embeds; deeper ones (and one that would transclude
    /// a note into itself) are links.
    static let maximumEmbedDepth = 4

    init(resolver: LinkResolver, published: Set<ExactPath>, notes: [(Note, Data)], rawHTML: Bool = false) {
        self.resolver = resolver
        self.published = published
        self.rawHTML = rawHTML
        self.notes = Dictionary(notes.map { (ExactPath($0.0.path), (note: $0.0, data: $0.1)) }, uniquingKeysWith: { first, _ in first })
        headings = self.notes.mapValues { entry in
            var maker = HeadingAnchor()
            return entry.note.anchors.headings.map { ($0, maker.next($0)) }
        }
    }

    /// File extensions shown as images when embedded.
    static let imageExtensions: Set<String> = ["png", "jpg", "jpeg", "gif", "svg", "webp", "avif", "bmp", "ico"]

    /// Everything the page of one note needs from its links.
    struct NoteLinks {
        var replacements: [HTMLReplacement] = []
        var broken: [SiteBrokenLink] = []
        var attachments: Set<String> = []
        /// Published notes this one links to, with the line of the first link (for backlinks).
        var targets: [(path: String, line: Int)] = []
    }

    /// The links of `note` (read from `data`), whose page is at site path `page`.
    func links(of note: Note, data: Data, page: String) -> NoteLinks {
        var result = NoteLinks()
        var seenTargets = Set<ExactPath>()
        for link in note.links {
            let resolution = resolver.resolve(link, from: note.path)
            if let target = resolution.notePath, !ExactPath.same(target, note.path), published.contains(ExactPath(target)),
               seenTargets.insert(ExactPath(target)).inserted {
                result.targets.append((target, link.line))
            }
            if case .attachment(let path) = resolution { result.attachments.insert(path) }
            if let reason = Self.brokenReason(resolution, published: published) {
                result.broken.append(SiteBrokenLink(source: note.path, line: link.line, text: link.displayText, reason: reason))
            }
        }
        result.replacements = replacements(of: note, data: data, page: page, embedding: [note.path])
        return result
    }

    /// What the wikilinks of `note` (read from `data`) become on the page `page`, inside the
    /// embeds of the notes `embedding` (the outermost first).
    func replacements(of note: Note, data: Data, page: String, embedding: [String]) -> [HTMLReplacement] {
        NoteBodyLinks.wikilinks(of: note, data: data).map { link, range in
            let resolution = resolver.resolve(link, from: note.path)
            return HTMLReplacement(range: range, content: content(of: link, resolution: resolution, page: page, embedding: embedding))
        }
    }

    /// The HTML an embed of the note at `path` transcludes on `page` (the whole note, a section
    /// or a block: `EmbedFragment`); nil when it is too deep, would transclude a note into
    /// itself, or names no heading or block there.
    private func transcluded(_ link: NoteLink, path: String, page: String, embedding: [String]) -> String? {
        guard embedding.count <= Self.maximumEmbedDepth, !embedding.contains(where: { ExactPath.same($0, path) }),
              let target = notes[ExactPath(path)], let markdown = EmbedFragment.markdown(of: link, in: target.note.body) else { return nil }
        let whole = link.heading == nil && link.blockID == nil
        let text = markdown.hasPrefix("---") ? "\n" + markdown : markdown
        let data = whole ? target.data : Data(text.utf8)
        let note = whole ? target.note : NoteParser.parse(data, path: path)
        var renderer = HTMLRenderer(replacements: replacements(of: note, data: data, page: page, embedding: embedding + [path]),
                                    rawHTML: rawHTML) { url, _ in destination(url, from: path, page: page) }
        renderer.headingIDs = false
        return renderer.render(note.body).html
    }

    /// The width and height an image embed's label asks for (`|300`, `|300x200`, after an alt
    /// text too: `|a cat|300`), and the alt text left; nil sizes when it asks for none.
    static func imageSize(_ label: String?) -> (alt: String?, width: Int?, height: Int?) {
        guard let label else { return (nil, nil, nil) }
        var parts = label.split(separator: "|", omittingEmptySubsequences: false).map(String.init)
        let size = (parts.last ?? "").split(separator: "x", omittingEmptySubsequences: false).map { Int($0.trimmingCharacters(in: .whitespaces)) }
        guard (1...2).contains(size.count), let width = size[0], width > 0, size.count == 1 || (size[1] ?? 0) > 0 else {
            return (label, nil, nil)
        }
        parts.removeLast()
        return (parts.isEmpty ? nil : parts.joined(separator: "|"), width, size.count == 2 ? size[1] : nil)
    }

    /// Why a resolution leads to no page or file of the site; nil when it does.
    static func brokenReason(_ resolution: LinkResolution, published: Set<ExactPath>) -> String? {
        switch resolution {
        case .note(let path): return published.contains(ExactPath(path)) ? nil : "not published"
        case .attachment: return nil
        case .ambiguous(let candidates): return "ambiguous: " + candidates.joined(separator: ", ")
        case .unresolved: return "unresolved"
        }
    }

    private func content(of link: NoteLink, resolution: LinkResolution, page: String, embedding: [String]) -> HTMLReplacement.Content {
        let shown = NoteBodyLinks.shownText(link)
        switch resolution {
        case .note(let path):
            guard published.contains(ExactPath(path)) else { return .text(shown, cssClass: "unpublished-link", title: "not published") }
            if link.isEmbed, let html = transcluded(link, path: path, page: page, embedding: embedding) {
                return .embed(html: html, source: link.displayText)
            }
            let fragment = link.heading.flatMap { anchor(of: $0, in: path) }
            return .link(href: SiteLayout.href(to: SiteLayout.page(ofNote: path), from: page, fragment: fragment), text: shown,
                         cssClass: link.isEmbed ? "embed" : "wikilink")
        case .attachment(let path):
            let href = SiteLayout.href(to: SiteLayout.file(ofAttachment: path), from: page)
            let fileExtension = LinkTarget.attachmentExtension(of: path) ?? ""
            if link.isEmbed && Self.imageExtensions.contains(fileExtension) {
                let size = Self.imageSize(link.label)
                return .image(source: href, alt: size.alt ?? (path.split(separator: "/").last.map(String.init) ?? path),
                              width: size.width, height: size.height)
            }
            return .link(href: href, text: shown, cssClass: "attachment")
        case .ambiguous(let candidates):
            return .text(shown, cssClass: "broken-link", title: "ambiguous: " + candidates.joined(separator: ", "))
        case .unresolved:
            return .text(shown, cssClass: "broken-link", title: "no note or file named \u{201C}\(link.target)\u{201D}")
        }
    }

    /// What a Markdown link or image destination of the note at `source` becomes.
    func destination(_ url: String, from source: String, page: String) -> DestinationRewrite? {
        guard !url.isEmpty, !Self.hasScheme(url), !url.hasPrefix("//") else { return nil }
        let parts = url.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
        let path = parts[0]
        let fragment = parts.count > 1 ? (parts[1].removingPercentEncoding ?? parts[1]) : nil
        if path.isEmpty {
            guard let fragment, !fragment.isEmpty else { return nil }
            return anchor(of: fragment, in: source).map { .url("#" + HTMLText.urlPath($0)) }
        }
        let target = path.removingPercentEncoding ?? path
        switch resolver.resolve(target: target, from: source) {
        case .note(let notePath):
            guard published.contains(ExactPath(notePath)) else { return .broken(title: "not published") }
            let anchor = fragment.flatMap { $0.isEmpty ? nil : self.anchor(of: $0, in: notePath) }
            return .url(SiteLayout.href(to: SiteLayout.page(ofNote: notePath), from: page, fragment: anchor))
        case .attachment(let attachment):
            return .url(SiteLayout.href(to: SiteLayout.file(ofAttachment: attachment), from: page))
        case .ambiguous(let candidates):
            return .broken(title: "ambiguous: " + candidates.joined(separator: ", "))
        case .unresolved:
            return .broken(title: "no note or file named \u{201C}\(target)\u{201D}")
        }
    }

    /// The attachment a Markdown destination leads to, if it leads to one.
    func attachment(_ url: String, from source: String) -> String? {
        let path = String(url.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)[0])
        guard !path.isEmpty else { return nil }
        if case .attachment(let attachment) = resolver.resolve(target: path.removingPercentEncoding ?? path, from: source) { return attachment }
        return nil
    }

    /// The `id` a heading of the note at `path` gets on its page (`A#B` names heading `B`,
    /// matched by `NoteAnchors.headingIndex`, the rule `check` uses); the slug of the text when
    /// the note has no such heading; nil for a block id (`^id`: the page has no anchor for
    /// blocks, the link leads to the page).
    func anchor(of heading: String, in path: String) -> String? {
        let wanted = heading.split(separator: "#").last.map(String.init) ?? heading
        if wanted.hasPrefix("^") || wanted.isEmpty { return nil }
        let headings = headings[ExactPath(path)] ?? []
        if let index = NoteAnchors(headings: headings.map(\.text)).headingIndex(of: heading) { return headings[index].anchor }
        return HeadingAnchor.slug(wanted)
    }

    /// Whether a URL starts with a scheme (`https:`, `mailto:`).
    static func hasScheme(_ url: String) -> Bool {
        guard let colon = url.firstIndex(of: ":"), colon != url.startIndex else { return false }
        let scheme = url[..<colon]
        return scheme.first?.isLetter == true && scheme.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "+" || $0 == "-" || $0 == ".") }
    }
}
