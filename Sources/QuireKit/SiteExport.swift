import Foundation
import QuireCore
import QuireRender
import QuireSearch

/// `quire export --html DIR`: the vault as a static site — a page per note rendered by
/// cmark-gfm, links and embeds leading to the pages and to copied attachments, backlinks on
/// every page, an index by folder and by tag, and a client-side search (a JSON index and a small
/// script). Nothing is loaded from elsewhere. The site is built in a folder beside the
/// destination and moved into place at the end, so a failed export leaves the old site whole.
public enum SiteExport {
    /// The file that marks a folder as a site quire wrote (it may be replaced).
    static let marker = SiteLayout.assetFolder + "/site.txt"

    /// Exports the notes the vault's git ignore rules (read with `environment`) do not hide.
    public static func run(vault: Vault, environment: [String: String], options: SiteExportOptions) throws -> SiteExportReport {
        try run(vault: vault, rules: GitIgnoreRules.of(vault, environment: environment), options: options)
    }

    /// Exports the notes `rules` do not hide.
    public static func run(vault: Vault, rules: (any IgnoreRules)?, options: SiteExportOptions) throws -> SiteExportReport {
        let destination = options.destination.standardizedFileURL
        try SiteFiles.check(destination: destination, vault: vault, marker: marker)
        let ignore = rules.flatMap { try? $0.ignoreMatcher() }
        let listing = try vault.listing(ignore: ignore)
        let read: [(Note, Data)] = try listing.notes.map { path in
            let data = try vault.readData(path)
            return (NoteParser.parse(data, path: path), data)
        }
        let attachments = try SiteFiles.attachments(of: vault, ignore: ignore, skipping: destination)
        let table = LinkTargetTable(notes: read.map { LinkTargetTable.Entry(path: $0.0.path, title: $0.0.title, aliases: $0.0.aliases) },
                                    attachments: attachments)
        let notes = read.filter { options.includeDrafts || !$0.0.draft }
        let map = SiteLinkMap(resolver: LinkResolver(index: table), published: Set(notes.map { ExactPath($0.0.path) }),
                              notes: read, rawHTML: options.rawHTML)
        let siteTitle = options.title ?? vault.root.lastPathComponent
        let index = SiteIndex(notes: notes.map(\.0), siteTitle: siteTitle)

        // Links first: every page needs its backlinks.
        let links = notes.map { map.links(of: $0.0, data: $0.1, page: SiteLayout.page(ofNote: $0.0.path)) }
        // By bytes: two names equal under Unicode normalization are two notes with backlinks of their own.
        var backlinks: [ExactPath: [(source: Note, line: Int, data: Data)]] = [:]
        for ((note, data), noteLinks) in zip(notes, links) {
            for target in noteLinks.targets { backlinks[ExactPath(target.path), default: []].append((note, target.line, data)) }
        }

        let staging = try SiteFiles.staging(for: destination)
        do {
            let template = SiteTemplate(siteTitle: siteTitle)
            var searchEntries: [SiteSearchEntry] = []
            let copied = SiteFiles.Collected()
            for ((note, _), noteLinks) in zip(notes, links) {
                let page = SiteLayout.page(ofNote: note.path)
                let renderer = HTMLRenderer(replacements: noteLinks.replacements, rawHTML: options.rawHTML) { url, _ in
                    let rewrite = map.destination(url, from: note.path, page: page)
                    if case .url = rewrite, let attachment = map.attachment(url, from: note.path) { copied.paths.insert(attachment) }
                    return rewrite
                }
                let body = renderer.render(note.body)
                let sources = (backlinks[ExactPath(note.path)] ?? []).sorted { ExactPath.precedes($0.source.path, $1.source.path) }
                let pageValue = SiteNotePage(
                    path: page, title: note.title, folder: index.folderLink(note.folder, from: page), facts: index.facts(of: note),
                    tags: index.tagLinks(note.tags, from: page), body: body,
                    backlinks: sources.map { source in
                        SiteLink(text: source.source.title, href: SiteLayout.href(to: SiteLayout.page(ofNote: source.source.path), from: page),
                                 context: SiteIndex.context(line: source.line, in: source.data, links: source.source.links))
                    })
                try SiteFiles.write(template.notePage(pageValue), to: page, in: staging)
                searchEntries.append(SiteSearchEntry(note: note, page: page, text: body.text))
                copied.paths.formUnion(noteLinks.attachments)
            }
            let copiedAttachments = Set(attachments).intersection(copied.paths)
            for attachment in copiedAttachments.sorted() {
                try SiteFiles.copy(attachment, of: vault, to: SiteLayout.file(ofAttachment: attachment), in: staging)
            }
            try SiteFiles.write(template.indexPage(path: "index.html", heading: siteTitle, summary: index.summary, sections: index.folderSections()),
                                to: "index.html", in: staging)
            try SiteFiles.write(template.indexPage(path: "tags.html", heading: "Tags", summary: index.tagSummary, sections: index.tagSections()),
                                to: "tags.html", in: staging)
            try SiteFiles.write(template.searchPage(path: "search.html"), to: "search.html", in: staging)
            let json = try SiteSearchEntry.json(searchEntries)
            try SiteFiles.write(json, to: SiteLayout.assetFolder + "/search-index.json", in: staging)
            try SiteFiles.write("window.quireSearchIndex = " + json + ";\n", to: SiteLayout.assetFolder + "/search-index.js", in: staging)
            try SiteFiles.write(SiteAssets.stylesheet, to: SiteLayout.assetFolder + "/style.css", in: staging)
            try SiteFiles.write(SiteAssets.searchScript, to: SiteLayout.assetFolder + "/search.js", in: staging)
            try SiteFiles.write("A site written by 'quire export --html'. The next export replaces the files listed in "
                                + "\(SiteManifest.path) and keeps every other file in this folder.\n", to: marker, in: staging)
            var written = try SiteManifest.listing(staging)
            written.files.insert(SiteManifest.path)
            try SiteFiles.write(written.text, to: SiteManifest.path, in: staging)
            // The old site's own files: those its manifest lists, or, written by a quire without
            // one, those of the layout quire writes.
            let previous = SiteManifest.read(in: destination)
            let kept = try SiteFiles.replace(destination, with: staging) { path in
                previous.map { $0.files.contains(path) } ?? SiteManifest.isOlderSiteFile(path)
            }
            let broken = links.flatMap(\.broken).sorted { ($0.source, $0.line) < ($1.source, $1.line) }
            return SiteExportReport(destination: destination, pages: notes.count, attachments: copiedAttachments.count,
                                    draftsLeftOut: read.count - notes.count, brokenLinks: broken, keptFiles: kept)
        } catch {
            try? FileManager.default.removeItem(at: staging)
            throw error
        }
    }
}
