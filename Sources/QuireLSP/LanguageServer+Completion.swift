import Foundation
import QuireCore

extension LanguageServer {
    /// The most items one completion answer lists (the list is marked incomplete beyond).
    static let completionLimit = 50

    /// `textDocument/completion`: notes after `[[`, headings after `[[Note#`, tags after `#`,
    /// front-matter keys and the values already used for a key.
    func completion(_ params: DocumentPosition, id: JSON) throws(ResponseError) -> JSON {
        let open = try openDocument(params)
        guard let position = params.position else { throw .invalidParams("position is missing") }
        guard let source = open.path, session != nil else { return .array([]) }
        let document = open.document
        let cursor = document.offset(of: position)
        let lineStart = document.lineRange(position.line).lowerBound
        let before = String(decoding: document.bytes[lineStart..<cursor], as: UTF8.self)
        let lines = FrontMatterLines(document)
        let items: [CompletionItem]
        var incomplete = false
        let inFrontMatter = lines.contains(line: position.line)
        if inFrontMatter && Self.openLink(before) == nil {
            items = frontMatterCompletion(before: before, line: position.line, lines: lines, document: document, cursor: cursor,
                                          source: source)
        } else if !inFrontMatter && Self.isInCode(document, cursor) {
            items = []  // nothing in code is a link or a tag (as quire reads notes)
        } else if let link = Self.openLink(before) {
            // A link in a front-matter value (`related: "[[Other note]]"`) is a link too.
            if let hash = link.firstIndex(of: "#") {
                items = headingCompletion(note: String(link[..<hash]), typed: String(link[link.index(after: hash)...]),
                                          document: document, cursor: cursor, source: source)
            } else {
                (items, incomplete) = noteCompletion(typed: link, document: document, source: source, cursor: cursor, id: id)
            }
        } else if let tag = Self.typedTag(before) {
            items = tagCompletion(typed: tag, document: document, cursor: cursor)
        } else {
            items = []
        }
        return CompletionList(isIncomplete: incomplete, items: items).json
    }

    /// Whether `cursor` is in code, where quire reads no link or tag: a fenced or indented code
    /// block, or a code span (`MarkdownBody`, as `LinkExtractor` reads a note).
    nonisolated static func isInCode(_ document: TextDocument, _ cursor: Int) -> Bool {
        let data = document.data
        let bodyStart = NoteParser.bodyOffset(of: data)
        guard cursor >= bodyStart else { return false }
        return data.withUnsafeBytes { raw in
            let bytes = raw.bindMemory(to: UInt8.self)
            var readable: Range<Int>?
            MarkdownBody.forEachReadableLine(of: bytes, from: bodyStart) { line in
                if line.lowerBound <= cursor && cursor <= line.upperBound { readable = line; return false }
                return line.lowerBound <= cursor
            }
            guard let line = readable else { return true }
            return MarkdownBody.codeSpans(in: bytes, line: line).contains { $0.lowerBound < cursor && cursor < $0.upperBound }
        }
    }

    /// How many bytes after the cursor the rest of an existing link's target takes (up to its
    /// `]]`, `|` or `#`), and what ends it: accepting a completion in the middle of a link
    /// replaces its whole target (the old tail stayed behind it), and keeps a label or heading.
    /// Only inside a link: its `]]` must follow on the line, with no `[` before it (typing `[[`
    /// in front of `text #tag` must not eat the text up to the `#`).
    static func linkTail(_ document: TextDocument, _ cursor: Int) -> (length: Int, end: UInt8?) {
        let bytes = document.bytes
        var index = cursor
        var stop: (length: Int, end: UInt8)?  // the first `|` or `#`
        while index < bytes.count {
            let byte = bytes[index]
            if byte == 0x0A || byte == UInt8(ascii: "[") { return (0, nil) }
            if byte == UInt8(ascii: "]") {
                guard index + 1 < bytes.count && bytes[index + 1] == UInt8(ascii: "]") else { return (0, nil) }
                return stop ?? (index - cursor, byte)
            }
            if stop == nil && (byte == UInt8(ascii: "|") || byte == UInt8(ascii: "#")) { stop = (index - cursor, byte) }
            index += 1
        }
        return (0, nil)
    }

    /// The text typed after an unclosed `[[` on the line before the cursor, if any.
    static func openLink(_ before: String) -> Substring? {
        guard let open = before.range(of: "[[", options: .backwards) else { return nil }
        let typed = before[open.upperBound...]
        guard !typed.contains("]"), !typed.contains("|") else { return nil }
        return typed
    }

    /// The tag typed after a `#` that starts a word (not a heading mark), if any.
    static func typedTag(_ before: String) -> Substring? {
        guard let hash = before.lastIndex(of: "#") else { return nil }
        let typed = before[before.index(after: hash)...]
        guard typed.allSatisfy({ $0.isLetter || $0.isNumber || "_-/".contains($0) }) else { return nil }
        if hash > before.startIndex {
            let previous = before[before.index(before: hash)]
            guard previous == " " || previous == "\t" || previous == "(" || previous == "," else { return nil }
        } else if typed.isEmpty {
            return nil  // A `#` alone at the start of a line begins a heading.
        }
        return typed
    }

    /// A text edit replacing `range` with `text`, as a completion item carries it.
    private func edit(_ document: TextDocument, _ range: Range<Int>, _ text: String) -> TextEdit {
        TextEdit(range: document.range(of: range), newText: text)
    }

    private func noteCompletion(typed: Substring, document: TextDocument, source: String, cursor: Int,
                                id: JSON) -> ([CompletionItem], Bool) {
        guard let session else { return ([], false) }
        let form = session.directory.linkForm
        let matcher = FuzzyMatch(String(typed))
        guard let ranked = session.directory.rank(matcher, limit: Self.completionLimit, stop: { isCancelled(id) }) else {
            return ([], true)
        }
        // The whole link is written, from its `[[` (a Markdown link replaces the brackets).
        let start = cursor - typed.utf8.count - 2
        // The rest of the target and the `]]` after the cursor go too (an editor closed the
        // brackets, or the cursor is inside a link); a `|label` or `#heading` stays, after a
        // wikilink written without its `]]`.
        let tail = Self.linkTail(document, cursor)
        let end = cursor + (tail.end == UInt8(ascii: "]") ? tail.length + 2 : tail.length)
        let keepsRest = tail.end == UInt8(ascii: "|") || tail.end == UInt8(ascii: "#")
        let items: [CompletionItem] = ranked.hits.enumerated().map { rank, hit in
            let entry = hit.note.entry
            var about: [String] = []
            if !entry.aliases.isEmpty { about.append("aliases: " + entry.aliases.joined(separator: ", ")) }
            if !entry.tags.isEmpty { about.append("tags: " + entry.tags.map { "#" + $0 }.joined(separator: " ")) }
            let sortText = String(format: "%04d", rank)
            var link = form.link(to: entry.path, title: entry.title, from: source, uniqueName: session.directory.nameCount(entry.path) == 1)
            if keepsRest && link.hasPrefix("[[") && link.hasSuffix("]]") { link.removeLast(2) }  // its `|label]]` follows
            // Clients filter on the text the edit replaces, which starts with the brackets.
            return CompletionItem(label: entry.title, kind: 17, detail: entry.path, filterText: "[[" + hit.name, sortText: sortText,
                                  documentation: about.isEmpty ? nil : about.joined(separator: "\n"),
                                  textEdit: edit(document, start..<end, link))
        }
        return (items, ranked.total > Self.completionLimit)
    }

    /// Headings of the note `name` names; of `source` itself for `[[#`.
    private func headingCompletion(note name: String, typed: String, document: TextDocument, cursor: Int,
                                   source: String) -> [CompletionItem] {
        guard let target = resolveNote(name, from: source) else { return [] }
        let matcher = FuzzyMatch(typed)
        let start = cursor - typed.utf8.count
        let tail = Self.linkTail(document, cursor)
        // The rest of the heading and the `]]` go; before a `|label` only the rest of the heading.
        // The heading goes in as Obsidian writes it (`Part 1: Basics` → `Part 1 Basics`).
        let (end, suffix) = tail.end == UInt8(ascii: "]") ? (cursor + tail.length + 2, "]]")
            : tail.end == UInt8(ascii: "|") ? (cursor + tail.length, "") : (cursor, "]]")
        return noteText(target).map(MarkdownOutline.init)?.headings.filter { !$0.text.isEmpty }.compactMap { heading in
            guard matcher.score(FuzzyMatch.prepare(heading.text)) != nil else { return nil }
            return CompletionItem(label: heading.text, kind: 22,
                                  detail: String(repeating: "#", count: heading.level) + " in " + target,
                                  textEdit: edit(document, start..<end, NoteAnchors.linkText(heading.text) + suffix))
        } ?? []
    }

    private func tagCompletion(typed: Substring, document: TextDocument, cursor: Int) -> [CompletionItem] {
        guard let session else { return [] }
        let matcher = FuzzyMatch(String(typed))
        let start = cursor - typed.utf8.count
        return session.directory.tags().filter { matcher.score(FuzzyMatch.prepare($0.name)) != nil }
            .prefix(Self.completionLimit).map { tag in
                CompletionItem(label: tag.name, kind: 14, detail: "\(tag.count) note\(tag.count == 1 ? "" : "s")",
                               textEdit: edit(document, start..<cursor, tag.name))
            }
    }
}
