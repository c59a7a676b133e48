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

    init(resolver: LinkResolver, published: Set<ExactPath>, anchors: [ExactPath: NoteAnchors]) {
        self.resolver = resolver
        self.published = published
        headings = anchors.mapValues { noteAnchors in
            var maker = HeadingAnchor()
            return noteAnchors.headings.map { ($0, maker.next($0)) }
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
        for (link, range) in NoteBodyLinks.wikilinks(of: note, data: data) {
            let resolution = resolver.resolve(link, from: note.path)
            result.replacements.append(HTMLReplacement(range: range, content: content(of: link, resolution: resolution, page: page)))
        }
        return result
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

    private func content(of link: NoteLink, resolution: LinkResolution, page: String) -> HTMLReplacement.Content {
        let shown = NoteBodyLinks.shownText(link)
        switch resolution {
        case .note(let path):
            guard published.contains(ExactPath(path)) else { return .text(shown, cssClass: "unpublished-link", title: "not published") }
            let fragment = link.heading.flatMap { anchor(of: $0, in: path) }
            return .link(href: SiteLayout.href(to: SiteLayout.page(ofNote: path), from: page, fragment: fragment), text: shown,
                         cssClass: link.isEmbed ? "embed" : "wikilink")
        case .attachment(let path):
            let href = SiteLayout.href(to: SiteLayout.file(ofAttachment: path), from: page)
            let fileExtension = LinkTarget.attachmentExtension(of: path) ?? ""
            if link.isEmbed && Self.imageExtensions.contains(fileExtension) {
                return .image(source: href, alt: link.label ?? (path.split(separator: "/").last.map(String.init) ?? path))
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
