import Foundation
import QuireCore

/// An open buffer: its URI as the client spells it, its vault-relative path (nil outside the
/// vault or not a note) and its text.
struct OpenDocument {
    var uri: String
    var path: String?
    var document: TextDocument
    /// The file's text the buffer was opened from or last took in (nil: there was no file): the
    /// base of the three-way merge when the file changes on disk under the buffer.
    var base: Data?
    /// What the buffer is being saved as (the text `willSaveWaitUntil` led to): the file holding
    /// it is the editor's own save, not a change to merge.
    var saving: Data?
    /// Whether a `workspace/applyEdit` bringing the file's change in awaits the client's answer.
    var applying = false
    /// Where the buffer's note moved: a sync brought its rename (the file is gone, the note with
    /// its id is there), or the editor was asked to rename it (`textDocument/rename`).
    var movedTo: String?
    /// The buffer's headings and block ids as last read (`bufferChanged`), so that a keystroke
    /// reads only the new text to tell whether other notes' links can have changed.
    var anchors: NoteAnchors?
}

extension LanguageServer {
    /// The open document of `params.textDocument.uri`, or an invalid-params error.
    func openDocument(_ params: DocumentPosition) throws(ResponseError) -> OpenDocument {
        guard let uri = params.uri else {
            throw .invalidParams("textDocument.uri is missing")
        }
        guard let open = documents[uri] else { throw .invalidParams("\(uri) is not open") }
        return open
    }

    func didOpen(uri: String?, text: String?, version: Int) {
        guard let uri, let text else {
            options.log("didOpen without textDocument.uri and text")
            return
        }
        let path = session?.path(ofURI: uri).flatMap { $0.hasSuffix(".md") ? $0 : nil }
        documents[uri] = OpenDocument(uri: uri, path: path,
                                      document: TextDocument(text: text, version: version, encoding: encoding),
                                      base: path.flatMap(diskText))
        bufferChanged(uri)
    }

    func didChange(uri: String?, version: Int?, changes: [ContentChange]?) {
        guard let uri, var open = documents[uri], let changes else {
            options.log("didChange for a document that is not open, or without contentChanges")
            return
        }
        for change in changes {
            guard let text = change.text else { continue }
            if change.hasRange {
                guard let range = change.range else {
                    options.log("didChange with a malformed range: ignored")
                    continue
                }
                open.document.apply(range: range, text: text)
            } else {
                open.document.apply(range: nil, text: text)
            }
        }
        if let version { open.document.version = version }
        let anchorsBefore = documents[uri]?.anchors
        documents[uri] = open
        bufferChanged(uri, anchorsBefore: anchorsBefore)
    }

    func didClose(uri: String?) {
        guard let uri, let open = documents.removeValue(forKey: uri) else { return }
        if let path = open.path { session?.directory.setOpen(path, nil) }
        notify("textDocument/publishDiagnostics", .object([("uri", .string(uri)), ("diagnostics", .array([]))]))
        publishAllDiagnostics()
    }

    func didSave(uri: String?) {
        // The watcher reports the file itself; the buffer already holds what was saved, and the
        // file is the buffer's base from now on.
        guard let uri, let open = documents[uri] else { return }
        if let path = open.path, let saved = diskText(path), saved == open.document.data {
            documents[uri]?.base = saved
            documents[uri]?.saving = nil
        }
        publishDiagnostics(uri)
    }

    /// The buffer's note changed: the directory's view of it, then the diagnostics of every open
    /// note when what other notes' links resolve to changed (its id, title, aliases, headings
    /// or block ids: that can make or mend a problem in another note), else of this one. Every
    /// keystroke checked every open note again (with long notes open, a fifth of a second per
    /// key). `anchorsBefore`: the buffer's headings and block ids before the change (nil: unknown).
    private func bufferChanged(_ uri: String, anchorsBefore: NoteAnchors? = nil) {
        guard let open = documents[uri], let path = open.path else {
            publishDiagnostics(uri)
            return
        }
        let note = NoteParser.parseFrontMatter(open.document.data, path: path)
        let entry = NoteEntry(note: note)
        let previous = session?.directory.entry(path)
        session?.directory.setOpen(path, entry)
        let anchors = LinkExtractor.scan(open.document.data).anchors  // no full parse per keystroke
        documents[uri]?.anchors = anchors
        if let anchorsBefore, previous == entry, anchorsBefore == anchors {
            publishDiagnostics(uri)
        } else {
            publishAllDiagnostics()
        }
    }

    /// Publishes the diagnostics of every open document.
    func publishAllDiagnostics() {
        for uri in documents.keys.sorted() { publishDiagnostics(uri) }
    }

    /// Publishes the diagnostics of one open document.
    func publishDiagnostics(_ uri: String) {
        guard let open = documents[uri] else { return }
        let diagnostics = open.path == nil ? [] : diagnostics(for: open).map(\.json)
        notify("textDocument/publishDiagnostics", .object([
            ("uri", .string(uri)), ("version", .int(open.document.version)), ("diagnostics", .array(diagnostics)),
        ]))
    }
}
