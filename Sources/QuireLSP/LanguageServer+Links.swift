import Foundation
import QuireCore
import QuireSearch

extension LanguageServer {
    /// A resolver over the catalog with the open buffers' names in place of their files'.
    func linkResolver() -> LinkResolver? {
        guard let session else { return nil }
        let entries = documents.values.compactMap { $0.path.flatMap { session.directory.entry($0) } }
        return session.resolver(open: entries)
    }

    /// The link under `position` in an open note, with the note's path.
    func link(at params: DocumentPosition) throws(ResponseError) -> (open: OpenDocument, path: String, link: NoteLink)? {
        let open = try openDocument(params)
        guard let position = params.position else { throw .invalidParams("position is missing") }
        guard let path = open.path else { return nil }
        let offset = open.document.offset(of: position)
        let links = LinkExtractor.links(in: open.document.data)
        guard let link = links.first(where: { $0.range.lowerBound <= offset && offset < $0.range.upperBound }) else { return nil }
        return (open, path, link)
    }

    /// The location a link leads to inside its target: the heading's or block's line, else the top.
    func location(of link: NoteLink, in target: String) -> JSON? {
        guard let session else { return nil }
        var line = 0
        if let text = noteText(target) {
            if let heading = link.heading {
                let headings = MarkdownOutline(text).headings
                line = NoteAnchors(headings: headings.map(\.text)).headingIndex(of: heading).map { headings[$0].line } ?? 0
            } else if let block = link.blockID?.lowercased() {
                line = (0..<text.lineCount).first { text.lineText($0).lowercased().hasSuffix("^" + block) } ?? 0
            }
        }
        let here = Position(line: line, character: 0)
        return Location(uri: uri(of: target, session: session), range: TextRange(start: here, end: here)).json
    }

    /// The URI of a note: as the client spelt it when the note is open, else made from the path.
    func uri(of path: String, session: VaultSession) -> String {
        documents.values.first { $0.path.map { ExactPath.same($0, path) } ?? false }?.uri ?? session.uri(ofPath: path)
    }

    /// `textDocument/definition`: the note, heading or block a link leads to; every candidate of
    /// an ambiguous link.
    func definition(_ params: DocumentPosition) throws(ResponseError) -> JSON {
        guard let (_, path, link) = try link(at: params), let resolver = linkResolver(), let session else { return .null }
        switch resolver.resolve(link, from: path) {
        case .note(let target): return location(of: link, in: target) ?? .null
        case .attachment(let file):
            return Location.top(of: session.uri(ofPath: file)).json
        case .ambiguous(let candidates): return .array(candidates.compactMap { location(of: link, in: $0) })
        case .unresolved: return .null
        }
    }

    /// `textDocument/references`: the backlinks of the note a link under the cursor leads to, or
    /// of the note itself. Files on disk answer from the catalog's index; open buffers are read
    /// as they are now.
    func references(_ params: DocumentPosition, id: JSON) throws(ResponseError) -> JSON {
        let open = try openDocument(params)
        guard let session, let resolver = linkResolver(), var target = open.path else { return .array([]) }
        if let (_, path, link) = try link(at: params) {
            guard let linked = resolver.resolve(link, from: path).notePath else { return .array([]) }
            target = linked
        }
        var found: [(path: String, range: TextRange)] = []
        let openPaths = Set(documents.values.compactMap(\.path))
        var texts: [String: TextDocument] = [:]
        for backlink in session.catalog.backlinks(of: target, attachments: session.attachments)
        where !openPaths.contains(backlink.source) {
            if isCancelled(id) { throw .cancelled }
            if texts[backlink.source] == nil { texts[backlink.source] = noteText(backlink.source) }
            guard let text = texts[backlink.source], backlink.link.range.upperBound <= text.bytes.count else { continue }
            found.append((backlink.source, text.range(of: backlink.link.range)))
        }
        for document in documents.values {
            guard let source = document.path else { continue }
            for link in LinkExtractor.links(in: document.document.data)
            where resolver.resolve(link, from: source).notePath == target {
                found.append((source, document.document.range(of: link.range)))
            }
        }
        found.sort { ($0.path, $0.range.start) < ($1.path, $1.range.start) }
        return .array(found.map { Location(uri: uri(of: $0.path, session: session), range: $0.range).json })
    }

    /// `textDocument/hover` on a link: the linked note's title, path, tags and first lines.
    func hover(_ params: DocumentPosition) throws(ResponseError) -> JSON {
        guard let (open, path, link) = try link(at: params), let resolver = linkResolver(), let session else { return .null }
        var text: String
        switch resolver.resolve(link, from: path) {
        case .note(let target):
            let entry = session.directory.entry(target)
            text = "**\(entry?.title ?? target)** — `\(target)`"
            if let tags = entry?.tags, !tags.isEmpty { text += "\n\n" + tags.map { "#" + $0 }.joined(separator: " ") }
            if let aliases = entry?.aliases, !aliases.isEmpty { text += "\n\naliases: " + aliases.joined(separator: ", ") }
            if let body = noteText(target).map(Self.firstLines), !body.isEmpty { text += "\n\n---\n\n" + body }
        case .attachment(let file): text = "attachment `\(file)`"
        case .ambiguous(let candidates):
            text = "**ambiguous link**: " + candidates.map { "`\($0)`" }.joined(separator: ", ")
        case .unresolved: text = "**no note** is named `\(link.target)` — a code action creates it"
        }
        return Hover(markdown: text, range: open.document.range(of: link.range)).json
    }

    /// The first lines of a note's body (after the front matter), at most 8 lines and 600 bytes.
    static func firstLines(_ document: TextDocument) -> String {
        let frontMatter = FrontMatterLines(document)
        var line = frontMatter.contentLines.isEmpty ? 0 : frontMatter.contentLines.upperBound + 1
        var lines: [String] = []
        var size = 0
        while line < document.lineCount && lines.count < 8 && size < 600 {
            let text = document.lineText(line)
            if !(lines.isEmpty && text.trimmingCharacters(in: .whitespaces).isEmpty) {
                lines.append(text)
                size += text.utf8.count
            }
            line += 1
        }
        while lines.last?.trimmingCharacters(in: .whitespaces).isEmpty == true { lines.removeLast() }
        return lines.joined(separator: "\n")
    }

    /// Broken, ambiguous and dangling-anchor links of an open note.
    func linkDiagnostics(_ document: TextDocument, path: String) -> [Diagnostic] {
        guard let resolver = linkResolver() else { return [] }
        let scan = LinkExtractor.scan(document.data)
        var found: [Diagnostic] = []
        for link in scan.links {
            let range = document.range(of: link.range)
            let target = JSON.object([("target", .string(link.target))])
            switch resolver.resolve(link, from: path) {
            case .unresolved:
                found.append(Diagnostic(severity: 2, range: range, code: "broken-link",
                                        message: "no note or file is named '\(link.target)'", data: target))
            case .ambiguous(let candidates):
                found.append(Diagnostic(severity: 2, range: range, code: "ambiguous-link",
                                        message: "'\(link.target)' names several notes: \(candidates.joined(separator: ", "))",
                                        data: .array(candidates.map { .string($0) })))
            case .note(let note):
                let anchors = note == path ? scan.anchors : noteText(note).map { LinkExtractor.scan($0.data).anchors }
                if LinkResolver.anchorStatus(of: link, in: anchors) == .missing {
                    let what = link.heading.map { "heading '\($0)'" } ?? "block '^\(link.blockID ?? "")'"
                    found.append(Diagnostic(severity: 2, range: range, code: "missing-anchor",
                                            message: "\(note) has no \(what)"))
                }
            case .attachment: break
            }
        }
        return found
    }
}
