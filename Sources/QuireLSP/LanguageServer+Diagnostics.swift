import Foundation
import QuireCore
import QuireKit

/// One diagnostic as published.
struct Diagnostic {
    /// 1 error, 2 warning, 3 information, 4 hint.
    var severity: Int
    var range: TextRange
    /// A stable code clients can filter on (`front-matter`, `duplicate-id`, `sync-conflict`, …).
    var code: String
    var message: String
    /// What a code action needs to act on it.
    var data: JSON = .null

    var json: JSON {
        .object([
            "range": range.json, "severity": .int(severity), "code": .string(code),
            "source": .string("quire"), "message": .string(message), "data": data == .null ? nil : data,
        ])
    }
}

/// The vault's unresolved sync conflicts by note path, read in the background.
struct ConflictIndex {
    var byPath: [String: [SyncConflict]] = [:]
}

extension LanguageServer {
    /// What is wrong with an open note now: its front matter as QuireCore reads the buffer, an
    /// id another note uses too, unresolved sync conflicts.
    func diagnostics(for open: OpenDocument) -> [Diagnostic] {
        guard let path = open.path, let session else { return [] }
        let document = open.document
        let lines = FrontMatterLines(document)
        var found: [Diagnostic] = []
        let note = NoteParser.parseFrontMatter(document.data, path: path)
        for problem in note.problems {
            found.append(Diagnostic(severity: problem.kind == .badValue ? 2 : 1,
                                    range: problemRange(problem, in: document),
                                    code: problem.kind == .badValue ? "front-matter-value" : "front-matter",
                                    message: problem.message))
        }
        if let id = note.id?.lowercased(), !id.isEmpty,
           let sharing = session.directory.duplicateIDs()[id]?.filter({ $0 != path }), !sharing.isEmpty {
            let line = lines.keyLines["id"] ?? lines.keyLines.first { $0.key.lowercased() == "id" }?.value ?? 0
            found.append(Diagnostic(severity: 1, range: document.range(of: document.lineRange(line)), code: "duplicate-id",
                                    message: "id \(id) is also the id of \(sharing.joined(separator: ", "))",
                                    data: .array(sharing.map { .string($0) })))
        }
        found += linkDiagnostics(document, path: path)
        if let records = conflicts.byPath[path], !records.isEmpty {
            let summary = records.prefix(3).map { "\($0.id) (\($0.winner) won: \($0.reason))" }.joined(separator: "; ")
            let noun = records.count == 1 ? "1 unresolved sync conflict" : "\(records.count) unresolved sync conflicts"
            found.append(Diagnostic(severity: 2, range: document.range(of: document.lineRange(0)), code: "sync-conflict",
                                    message: "\(noun): \(summary) — 'quire conflicts' lists them",
                                    data: .array(records.map { .string($0.id) })))
        }
        return found
    }

    /// Where a front-matter problem is: from its column to the end of its line when libyaml
    /// gave a mark, the whole line otherwise, the first line when no line is known.
    private func problemRange(_ problem: NoteProblem, in document: TextDocument) -> TextRange {
        let line = max(0, (problem.line ?? 1) - 1)
        guard line < document.lineCount else { return document.range(of: document.lineRange(document.lineCount - 1)) }
        let span = document.lineRange(line)
        guard let column = problem.column else { return document.range(of: span) }
        // The column counts characters (scalars): walk the line's bytes.
        var offset = span.lowerBound
        var characters = 1
        while offset < span.upperBound && characters < column {
            let byte = document.bytes[offset]
            offset += TextDocument.scalarLength(lead: byte)
            characters += 1
        }
        let start = min(offset, span.upperBound)
        // A first line with a BOM: libyaml never saw it.
        let end = start < span.upperBound ? span.upperBound : min(document.bytes.count, start + 1)
        return document.range(of: start..<max(start, end))
    }

    /// Reads the unresolved sync conflicts in the background (history is walked) and
    /// republishes the diagnostics when they changed.
    func refreshConflicts() {
        guard let vault = session?.vault else { return }
        let log = options.log
        let background = background
        background.enter()
        DispatchQueue.global().async { [weak self] in
            defer { background.leave() }
            let records: [SyncConflict]
            do {
                records = try SyncConflicts.unresolved(in: vault)
            } catch {
                log("sync conflicts could not be read: \(error)")
                return
            }
            guard let self else { return }
            background.enter()
            LanguageServerActor.perform {
                self.conflictsRead(records)
                background.leave()
            }
        }
    }

    /// Takes in the unresolved sync conflicts read in the background.
    private func conflictsRead(_ records: [SyncConflict]) {
        let byPath = Dictionary(grouping: records, by: \.path)
        guard byPath != conflicts.byPath else { return }
        conflicts.byPath = byPath
        publishAllDiagnostics()
    }
}
