import Foundation
import QuireCore
import QuireKit

/// `quire check` — lists every problem in the vault; exits 1 when it finds any.
struct CheckCommand: Command {
    static let configuration = CommandConfiguration(
        name: "check",
        abstract: "List every problem: bad front matter, duplicate ids and titles, broken and ambiguous links, LFS pointers, stray temporary files, entries skipped.",
        usage: "check [--json]",
        discussion: """
            Exits with 1 when it finds a problem, 0 when the vault is clean. Nothing is changed. \
            A note without a title is not a problem: its file name is its title (as in Obsidian). \
            Entries the vault walk skips are listed too: folders that cannot be read, symlinks that \
            lead outside the vault or nowhere, and *.md names that are not regular files (FIFOs, sockets). \
            Links that lead nowhere (with the closest note names), to several files (with them), or to \
            a heading or block their note lacks are listed too (Docs/links.md).
            """,
        examples: ["quire check", "quire check --json"],
        options: [.flag("--json", help: "Print the problems as JSON.")])

    let json: Bool

    init(_ arguments: ParsedArguments) throws {
        json = arguments.has("--json")
    }

    struct Finding {
        var path: String
        var line: Int?
        var kind: String
        var message: String
    }

    func run(_ context: CommandContext) throws {
        let vault = try context.vault()
        let all = try VaultNotes(context: context, withFrontMatter: true)
        var findings: [Finding] = []
        var byID: [String: [String]] = [:]
        for note in all.notes {
            for problem in note.problems {
                findings.append(Finding(path: note.path, line: problem.line, kind: problem.kind.rawValue, message: problem.message))
            }
            if let id = note.id { byID[id.lowercased(), default: []].append(note.path) }
            if Self.isLFSPointer(note, vault: vault) {
                findings.append(Finding(path: note.path, line: 1, kind: "lfsPointer", message: "file is a Git LFS pointer; its content is not in the work tree"))
            }
        }
        for (id, paths) in byID where paths.count > 1 {
            for path in paths {
                let others = paths.filter { $0 != path }.joined(separator: ", ")
                findings.append(Finding(path: path, line: nil, kind: "duplicateId", message: "id \(id) is also used by \(others)"))
            }
        }
        findings.append(contentsOf: Self.sharedTitles(all.notes))
        findings.append(contentsOf: try Self.linkFindings(VaultLinks(vault: vault, catalog: all.catalog.catalog)))
        findings.append(contentsOf: Self.submodules(in: vault))
        for path in TemporaryFiles.strays(vaultRoot: vault.root) {
            findings.append(Finding(path: path, line: nil, kind: "temporaryFile",
                                    message: "temporary file left by an interrupted quire: safe to delete"))
        }
        // What the walk of the vault could not or would not read: nothing in it is listed.
        let skippedEntries = all.catalog.skipped
        for skip in skippedEntries {
            findings.append(Finding(path: skip.path, line: nil, kind: Self.kind(of: skip.reason),
                                    message: "skipped: \(skip.reason.rawValue)"))
        }
        findings.sort { ($0.path, $0.line ?? 0, $0.kind) < ($1.path, $1.line ?? 0, $1.kind) }
        let output = context.output
        if json {
            output.line(JSONValue.array(findings.map {
                .object([("path", .string($0.path)), ("line", .int($0.line)), ("kind", .string($0.kind)),
                         ("message", .string($0.message))])
            }).rendered())
        } else if findings.isEmpty {
            output.line("no problems in \(Count.of(all.notes.count, "note"))")
        } else {
            for finding in findings {
                let location = context.displayPath(finding.path, vault: vault) + (finding.line.map { ":\($0)" } ?? "")
                output.line("\(location): \(finding.message)")
            }
            let skippedPaths = Set(skippedEntries.map(\.path))
            let noteFindings = findings.filter { !skippedPaths.contains($0.path) }
            let notes = Count.of(all.notes.count, "note")
            var summary = noteFindings.isEmpty
                ? "no problems in \(notes)"
                : "\(Count.of(noteFindings.count, "problem")) in \(Set(noteFindings.map(\.path)).count) of \(notes)"
            let skipped = skippedEntries.count
            if skipped > 0 { summary += "; \(skipped) \(skipped == 1 ? "entry" : "entries") skipped" }
            output.line(summary)
        }
        if !findings.isEmpty { context.exitCode = .failure }
    }

    /// Broken, ambiguous and anchor-less links (`VaultLinks.problems`).
    static func linkFindings(_ links: VaultLinks) -> [Finding] {
        links.problems().map { problem in
            let written = problem.link.displayText
            let message: String
            switch problem.kind {
            case .unresolved:
                let closest = problem.candidates.first.map { "; closest: \($0)" } ?? ""
                message = "broken link \(written): no note or file '\(problem.link.target)'\(closest)"
            case .ambiguous:
                message = "ambiguous link \(written): could be " + problem.candidates.joined(separator: ", ")
            case .missingAnchor:
                let anchor = problem.link.heading.map { "heading '\($0)'" } ?? "block '^\(problem.link.blockID ?? "")'"
                message = "link \(written): \(problem.candidates.first ?? "") has no \(anchor)"
            }
            let kind = problem.kind == .unresolved ? "brokenLink" : problem.kind == .ambiguous ? "ambiguousLink" : "missingAnchor"
            return Finding(path: problem.source, line: problem.link.line, kind: kind, message: message)
        }
    }

    /// The JSON `kind` of a skipped entry.
    static func kind(of reason: VaultSkip.Reason) -> String {
        switch reason {
        case .unreadableFolder: return "unreadableFolder"
        case .symlinkOutside: return "symlinkOutside"
        case .brokenSymlink: return "brokenSymlink"
        case .notAFile: return "notAFile"
        }
    }

    /// Whether a note file is a Git LFS pointer (its content lives on an LFS server).
    static func isLFSPointer(_ note: Note, vault: Vault) -> Bool {
        guard note.frontMatter.isEmpty, note.words < 40,
              let handle = FileHandle(forReadingAtPath: vault.url(for: note.path).path) else { return false }
        defer { try? handle.close() }
        let head = handle.readData(ofLength: 64)
        return head.starts(with: Data("version https://git-lfs.github.com/spec/".utf8))
    }

    /// Notes sharing a title: it names none of them.
    static func sharedTitles(_ notes: [Note]) -> [Finding] {
        NoteResolver.sharedTitles(notes).flatMap { group in
            group.map { note in
                let others = group.filter { $0.path != note.path }.map(\.path).joined(separator: ", ")
                return Finding(path: note.path, line: nil, kind: "duplicateTitle", message: "title '\(note.title)' is also used by \(others)")
            }
        }
    }

    /// Submodules (folders with a `.git` file or folder below the root) are left alone and reported.
    static func submodules(in vault: Vault) -> [Finding] {
        guard let text = try? String(contentsOf: vault.root.appendingPathComponent(".gitmodules"), encoding: .utf8) else {
            return []
        }
        return text.split(separator: "\n").compactMap { line in
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            guard trimmed.hasPrefix("path") , let equals = trimmed.firstIndex(of: "=") else { return nil }
            let path = trimmed[trimmed.index(after: equals)...].trimmingCharacters(in: .whitespaces)
            return Finding(path: path, line: nil, kind: "submodule", message: "submodule: quire leaves it alone and does not index it")
        }
    }
}
