import Foundation
import QuireCore
import QuireKit

/// A `WorkspaceEdit` as `documentChanges`: text edits, file creations and renames, in order.
struct WorkspaceEditBuilder: Sendable {
    /// One step of the edit (LSP `TextDocumentEdit`, `CreateFile`, `RenameFile`).
    enum Change: Sendable {
        /// Edits of the document at `uri`; `version` nil: not open in the editor.
        case edit(uri: String, version: Int?, edits: [TextEdit])
        /// A new file (never over an existing one).
        case create(uri: String)
        /// A file moved, over an existing one only when `overwrite`.
        case rename(oldUri: String, newUri: String, overwrite: Bool)

        var json: JSON {
            switch self {
            case let .edit(uri, version, edits):
                .object([("textDocument", .object([("uri", .string(uri)), ("version", version.map { .int($0) } ?? .null)])),
                         ("edits", .array(edits.map(\.json)))])
            case .create(let uri):
                .object([("kind", .string("create")), ("uri", .string(uri)),
                         ("options", .object([("overwrite", .bool(false)), ("ignoreIfExists", .bool(false))]))])
            case let .rename(old, new, overwrite):
                .object([("kind", .string("rename")), ("oldUri", .string(old)), ("newUri", .string(new)),
                         ("options", .object([("overwrite", .bool(overwrite)), ("ignoreIfExists", .bool(false))]))])
            }
        }
    }

    private(set) var changes: [Change] = []

    /// Edits of the document at `uri` (`version` nil: not open in the editor).
    mutating func edit(_ uri: String, version: Int?, _ edits: [(range: TextRange, text: String)]) {
        guard !edits.isEmpty else { return }
        changes.append(.edit(uri: uri, version: version, edits: edits.map { TextEdit(range: $0.range, newText: $0.text) }))
    }

    /// Creates the file at `uri` with `text` (never over an existing file).
    mutating func create(_ uri: String, text: String) {
        changes.append(.create(uri: uri))
        let top = TextRange(start: Position(line: 0, character: 0), end: Position(line: 0, character: 0))
        edit(uri, version: nil, [(top, text)])
    }

    /// Renames the file at `old` to `new`: never over an existing file, unless `overwrite` (a
    /// buffer following its note to where a sync moved it, its text merged with the file there).
    mutating func rename(_ old: String, _ new: String, overwrite: Bool = false) {
        changes.append(.rename(oldUri: old, newUri: new, overwrite: overwrite))
    }

    var json: JSON { .object([("documentChanges", .array(changes.map(\.json)))]) }
}

extension LanguageServer {
    /// Whether the client applies file operations of `kind` (`create`, `rename`) in edits
    /// (announcing them implies `documentChanges`: Neovim 0.7 names only the operations).
    func clientSupports(_ kind: String) -> Bool {
        clientCapabilities["workspace"]?["workspaceEdit"]?["resourceOperations"]?.array?.contains(.string(kind)) == true
    }

    /// Code actions on links: create the note of an unresolved link under the cursor; extract
    /// a selection into a new note with a link in its place.
    func linkActions(_ open: OpenDocument, path: String, range: TextRange) throws(ResponseError) -> [CodeAction] {
        guard let session, clientSupports("create") else { return [] }
        var actions: [CodeAction] = []
        let document = open.document
        let lower = document.offset(of: range.start)
        let upper = document.offset(of: range.end)
        let now = try now()
        if let resolver = linkResolver() {
            for link in LinkExtractor.links(in: document.data)
            where link.range.lowerBound <= upper && lower <= link.range.upperBound && !link.pointsAtAttachment
                && resolver.resolve(link, from: path) == .unresolved {
                guard let plan = try? NewNotePlan.forLink(target: link.target, vault: session.vault, now: now) else { continue }
                var edit = WorkspaceEditBuilder()
                edit.create(session.uri(ofPath: plan.path), text: String(decoding: plan.data, as: UTF8.self))
                actions.append(CodeAction(title: "Create note '\(plan.title)' (\(plan.path))", kind: "quickfix", effect: .edit(edit)))
            }
        }
        let body = FrontMatterLines(document).contentLines
        if upper > lower, !(body.contains(range.start.line) || body.contains(range.end.line)) {
            let text = String(decoding: document.bytes[lower..<upper], as: UTF8.self)
            do {
                let plan = try NewNotePlan.extracting(text, from: path, vault: session.vault, now: now)
                let link = session.directory.linkForm.link(to: plan.path, title: plan.title, from: path,
                                                           uniqueName: session.directory.nameCount(plan.path) == 0)
                var edit = WorkspaceEditBuilder()
                edit.create(session.uri(ofPath: plan.path), text: String(decoding: plan.data, as: UTF8.self))
                edit.edit(open.uri, version: document.version, [(document.range(of: lower..<upper), link)])
                actions.append(CodeAction(title: "Extract into a new note '\(plan.title)'", kind: "refactor.extract",
                                          effect: .edit(edit)))
            } catch {
                options.log("no extraction: \(error)")
            }
        }
        return actions
    }

    /// `textDocument/prepareRename`: on a link (its target note) or on the note's title (the
    /// `title:` value, or the first `# heading` of a note without one).
    func prepareRename(_ params: DocumentPosition) throws(ResponseError) -> JSON {
        guard let (path, range, _) = try renameTarget(params), let session else { return .null }
        return PrepareRenameResult(range: range, placeholder: session.directory.entry(path)?.title ?? "").json
    }

    /// What a rename at the cursor renames: the note, the range shown, and the document.
    private func renameTarget(_ params: DocumentPosition) throws(ResponseError) -> (path: String, range: TextRange, open: OpenDocument)? {
        let open = try openDocument(params)
        guard let position = params.position, let source = open.path else { return nil }
        if let (_, path, link) = try link(at: params) {
            // `[[#Heading]]` leads into this note: renaming it would retitle and move the note.
            guard !link.target.isEmpty else { return nil }
            guard let target = linkResolver()?.resolve(link, from: path).notePath else {
                throw .requestFailed("'\(link.target)' leads to no single note")
            }
            let span = link.labelRange ?? link.targetRange
            return (target, open.document.range(of: span), open)
        }
        let lines = FrontMatterLines(open.document)
        let line = open.document.lineText(position.line)
        let lineStart = open.document.lineRange(position.line).lowerBound
        if lines.keyLines["title"] == position.line, let colon = line.utf8.firstIndex(of: UInt8(ascii: ":")) {
            var start = line.utf8.distance(from: line.utf8.startIndex, to: colon) + 1
            let bytes = Array(line.utf8)
            while start < bytes.count && bytes[start] == 0x20 { start += 1 }
            return (source, open.document.range(of: (lineStart + start)..<(lineStart + bytes.count)), open)
        }
        if lines.keyLines["title"] == nil, let first = MarkdownOutline(open.document).headings.first(where: { $0.level == 1 }),
           first.line == position.line {
            let bytes = Array(line.utf8)
            var start = bytes.firstIndex { $0 != UInt8(ascii: "#") && $0 != 0x20 } ?? bytes.count
            start = min(start, bytes.count)
            return (source, open.document.range(of: (lineStart + start)..<(lineStart + bytes.count)), open)
        }
        return nil
    }

    /// `textDocument/rename`: the note gets the new title (and the file name the vault's style
    /// gives it) and every link to it is rewritten in its own style — QuireKit's `EditorRename`,
    /// as `quire rename` does it: under the vault lock, after the catalog has taken in the files as
    /// they are (a sync that just ended included), the notes not open in the editor are rewritten
    /// and moved here; the answer holds versioned edits of the open buffers only, each replacing
    /// whole links, and the renames of open notes.
    func rename(_ params: DocumentPosition, newName: String?) throws(ResponseError) -> JSON {
        guard let newName = newName?.trimmingCharacters(in: .whitespacesAndNewlines), !newName.isEmpty else {
            throw .invalidParams("newName is missing or empty")
        }
        guard let session else { throw .requestFailed("no vault") }
        var unsaved: [String: Data] = [:]
        for document in documents.values { if let path = document.path { unsaved[path] = document.document.data } }
        let buffers = unsaved
        var renamed: String?
        let outcome: EditorRename.Outcome
        do {
            outcome = try EditorRename.run(vault: session.vault, open: buffers, options: MoveOptions(now: try now())) {
                try session.refreshAll()
                guard let (path, _, _) = try renameTarget(params) else { throw ResponseError.requestFailed("there is no link or title to rename here") }
                renamed = path
                let plan = try NoteRetitle.plan(vault: session.vault, path: path, folder: NoteParser.folder(of: path), title: newName,
                                                current: session.directory.entry(path)?.title)
                if !plan.notes.isEmpty && buffers[path] != nil && !clientSupports("rename") {
                    throw ResponseError.requestFailed("the editor cannot rename files")
                }
                let notes = session.directory.all().map { entry in
                    Note(path: entry.path, folder: NoteParser.folder(of: entry.path), id: entry.id, title: entry.title,
                         hasTitle: entry.hasTitle, tags: entry.tags, aliases: entry.aliases)
                }
                // As `quire rename` without `--force`: a title another note has names neither, and the
                // links to that other note would be rewritten as paths.
                if let other = NoteResolver(vault: session.vault, notes: notes, currentDirectory: session.vault.root).notes(titled: newName)
                    .first(where: { !ExactPath.same($0.path, path) }) {
                    throw ResponseError.requestFailed("another note is titled '\(other.title)' (\(other.path)): choose another title")
                }
                let catalog = session.catalog
                return (notes, plan, MoveOptions.linkingNotes(in: catalog))
            }
        } catch let error as ResponseError {
            throw error
        } catch {
            throw .requestFailed("\(renamed.flatMap { session.directory.entry($0)?.title } ?? renamed ?? "the note") cannot be renamed: \(error)")
        }
        // The files written here, in the catalog at once (the watcher reports them too).
        session.refresh(notes: Array(Set(outcome.report.changed + outcome.report.moves.flatMap { [$0.from, $0.to] })).sorted())
        var edit = WorkspaceEditBuilder()
        for write in outcome.buffers.sorted(by: { $0.oldPath < $1.oldPath }) {
            guard let open = documents.values.first(where: { $0.path.map { ExactPath.same($0, write.oldPath) } ?? false }) else { continue }
            edit.edit(open.uri, version: open.document.version, open.document.linkEdits(to: [UInt8](write.data)))
        }
        for move in outcome.moves {
            let from = uri(of: move.from, session: session)
            edit.rename(from, session.uri(ofPath: move.to))
            // The editor moves it: not a move of a sync for the buffer to follow.
            documents[from]?.movedTo = move.to
        }
        return edit.json
    }
}

extension TextDocument {
    /// `minimalEdits(to:)` with each edit widened to the whole links it starts or ends inside: a
    /// rename's edits replace whole links, never a few letters within one.
    func linkEdits(to new: [UInt8]) -> [(range: TextRange, text: String)] {
        let links = LinkExtractor.links(in: data).map(\.range)
        return minimalEdits(to: new).map { edit in
            var lower = offset(of: edit.range.start), upper = offset(of: edit.range.end)
            var text = edit.text
            if let link = links.first(where: { $0.lowerBound < lower && lower < $0.upperBound }) {
                text = String(decoding: bytes[link.lowerBound..<lower], as: UTF8.self) + text
                lower = link.lowerBound
            }
            if let link = links.first(where: { $0.lowerBound < upper && upper < $0.upperBound }) {
                text += String(decoding: bytes[upper..<link.upperBound], as: UTF8.self)
                upper = link.upperBound
            }
            return (range(of: lower..<upper), text)
        }
    }
}
