import Foundation
import QuireCore
import QuireSearch

/// `quire check`: every problem of a vault — front matter that cannot be read, ids and titles
/// used twice, names that differ only in Unicode normalization or in letter case (one file on
/// macOS), broken and ambiguous links, Git LFS pointers, submodules, stray temporary files, and
/// the entries the walk of the vault skipped. Nothing is changed. Each finding is a `Problem` of
/// a `Kind`; a new kind of check is a new `Kind` constant and a function adding its problems in
/// `run`.
public enum VaultCheck {
    /// What a finding is about. The raw value is the `kind` of `quire check --json`.
    public struct Kind: RawRepresentable, Hashable, Sendable {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }

        /// Front matter or content that could not be read (QuireCore's `NoteProblem.Kind`).
        public static func note(_ kind: NoteProblem.Kind) -> Kind { Kind(rawValue: kind.rawValue) }
        /// The file is a Git LFS pointer: its content is not in the work tree.
        public static let lfsPointer = Kind(rawValue: "lfsPointer")
        /// Another note has the same id.
        public static let duplicateId = Kind(rawValue: "duplicateId")
        /// Notes share a title: it names none of them. One finding per group, on its first note.
        public static let duplicateTitle = Kind(rawValue: "duplicateTitle")
        /// Another note's name differs only in Unicode normalization (`café.md` precomposed and
        /// decomposed): two files here, one on macOS.
        public static let normalizationTwin = Kind(rawValue: "normalizationTwin")
        /// Another note's path differs only in letter case (`Plan.md`, `plan.md`): two files here,
        /// one on macOS and Windows.
        public static let caseTwin = Kind(rawValue: "caseTwin")
        /// A submodule: left alone, not indexed.
        public static let submodule = Kind(rawValue: "submodule")
        /// A temporary file left by an interrupted quire.
        public static let temporaryFile = Kind(rawValue: "temporaryFile")
        /// A link that leads to no note or file.
        public static let brokenLink = Kind(rawValue: "brokenLink")
        /// A link that leads to several files.
        public static let ambiguousLink = Kind(rawValue: "ambiguousLink")
        /// A link to a heading or block its note lacks.
        public static let missingAnchor = Kind(rawValue: "missingAnchor")
        /// An entry the vault walk skipped (`VaultSkip.Reason`).
        public static func skipped(_ reason: VaultSkip.Reason) -> Kind {
            switch reason {
            case .unreadableFolder: return Kind(rawValue: "unreadableFolder")
            case .symlinkOutside: return Kind(rawValue: "symlinkOutside")
            case .symlinkHidden: return Kind(rawValue: "symlinkHidden")
            case .brokenSymlink: return Kind(rawValue: "brokenSymlink")
            case .notAFile: return Kind(rawValue: "notAFile")
            case .invalidName: return Kind(rawValue: "invalidName")
            }
        }
    }

    /// One finding.
    public struct Problem: Equatable, Sendable {
        /// The vault-relative path it is about.
        public var path: String
        /// The 1-based line, when it is about one.
        public var line: Int?
        /// What it is.
        public var kind: Kind
        /// A readable, lowercase description.
        public var message: String
        /// The other files the finding is about (the rest of a group of notes sharing a title).
        public var related: [String]

        /// Creates a finding.
        public init(path: String, line: Int? = nil, kind: Kind, message: String, related: [String] = []) {
            self.path = path
            self.line = line
            self.kind = kind
            self.message = message
            self.related = related
        }
    }

    /// What a check found.
    public struct Report: Equatable, Sendable {
        /// Every finding, sorted by path, line and kind.
        public var problems: [Problem]
        /// How many notes were checked.
        public var noteCount: Int
        /// The entries the walk skipped (each is also a finding).
        public var skipped: [VaultSkip]
        /// How many notes have a finding (other files with one — a stray temporary file, a
        /// submodule — are not notes).
        public var notesWithProblems: Int = 0
        /// How many notes have a problem in their own front matter or text (`Kind.note`): the
        /// number every command's warning gives (the catalog's `problemCount`).
        public var notesWithContentProblems: Int = 0

        /// Whether nothing was found.
        public var isClean: Bool { problems.isEmpty }

        /// How many other files (not notes, not skipped entries) have a finding.
        public var otherFilesWithProblems: Int {
            Set(fileProblems.map { ExactPath($0.path) }).count - notesWithProblems
        }

        /// The findings about notes and other files, less the skipped entries.
        public var fileProblems: [Problem] {
            let skippedPaths = Set(skipped.map { ExactPath($0.path) })
            return problems.filter { !skippedPaths.contains(ExactPath($0.path)) }
        }
    }

    /// Checks `vault` from its fresh catalog (opened with a walk: `FreshCatalog.open(…, walk: true)`,
    /// so that `skipped` lists what the walk left out). Throws only when the vault's ignore rules
    /// cannot be read (the attachments links may lead to are listed through them). Journals
    /// (`JournalNotes`) may share titles ("Daily log") unless `journals` is true.
    /// `links`, when given, are the vault's links over that catalog (with its link table).
    public static func run(vault: Vault, catalog: Catalog, skipped: [VaultSkip], journals: Bool = false,
                           links: VaultLinks? = nil) throws -> Report {
        // Each note decoded in turn and let go (`forEachRecord`): what the checks across notes
        // need of it is kept, not every note's front matter at once.
        var notes: [CheckedNote] = []
        var problems: [Problem] = []
        catalog.forEachRecord { record in
            let note = Note(record: record, withFrontMatter: true)
            for problem in note.problems {
                problems.append(Problem(path: note.path, line: problem.line, kind: .note(problem.kind), message: problem.message))
            }
            if isLFSPointer(note, vault: vault) {
                problems.append(Problem(path: note.path, line: 1, kind: .lfsPointer,
                                        message: "file is a Git LFS pointer; its content is not in the work tree"))
            }
            notes.append(CheckedNote(path: note.path, id: note.id, title: note.hasTitle ? note.title : nil,
                                     hasProblems: !note.problems.isEmpty))
        }
        notes.sort { ExactPath.precedes($0.path, $1.path) }
        problems += duplicateIDs(notes)
        let journal = journals ? nil : try JournalNotes(vault: vault)
        problems += sharedTitles(notes.filter { journal?.contains($0.path) != true })
        problems += normalizationTwins(notes)
        problems += caseTwins(notes)
        problems += linkProblems(try links ?? VaultLinks(vault: vault, catalog: catalog))
        problems += submodules(in: vault)
        for path in TemporaryFiles.strays(vaultRoot: vault.root) {
            problems.append(Problem(path: path, kind: .temporaryFile,
                                    message: "temporary file left by an interrupted quire: safe to delete"))
        }
        // What the walk of the vault could not or would not read: nothing in it is listed.
        for skip in skipped {
            problems.append(Problem(path: skip.path, kind: .skipped(skip.reason), message: "skipped: \(skip.reason.rawValue)"))
        }
        problems.sort {
            // Two paths equal under normalization are equal `String`s: their bytes decide.
            ($0.path, $0.line ?? 0, $0.kind.rawValue) < ($1.path, $1.line ?? 0, $1.kind.rawValue)
                || ($0.path, $0.line ?? 0, $0.kind.rawValue) == ($1.path, $1.line ?? 0, $1.kind.rawValue)
                && ExactPath.precedes($0.path, $1.path)
        }
        let notePaths = Set(notes.map { ExactPath($0.path) })
        let withProblems = Set(problems.map { ExactPath($0.path) }).intersection(notePaths).count
        let withContentProblems = Set(notes.filter(\.hasProblems).map { ExactPath($0.path) }).count
        return Report(problems: problems, noteCount: notes.count, skipped: skipped, notesWithProblems: withProblems,
                      notesWithContentProblems: withContentProblems)
    }

    /// Broken, ambiguous and anchor-less links (`VaultLinks.problems`), with the closest names.
    static func linkProblems(_ links: VaultLinks) -> [Problem] {
        links.problems().map { problem in
            let written = problem.link.displayText
            switch problem.kind {
            case .unresolved where !problem.aliasHolders.isEmpty:
                let holders = problem.aliasHolders.joined(separator: ", ")
                let fix = problem.aliasHolders.count == 1 ? "; 'quire check --fix' writes [[\(LinkPathText.withoutExtension(problem.aliasHolders[0]))|\(problem.link.target)]]" : ""
                return Problem(path: problem.source, line: problem.link.line, kind: .brokenLink,
                               message: "broken link \(written): no note or file '\(problem.link.target)', an alias of \(holders)"
                                   + " (an alias is no link target, as in Obsidian)\(fix)",
                               related: problem.aliasHolders)
            case .unresolved:
                let closest = problem.candidates.first.map { "; closest: \($0)" } ?? ""
                return Problem(path: problem.source, line: problem.link.line, kind: .brokenLink,
                               message: "broken link \(written): no note or file '\(problem.link.target)'\(closest)")
            case .ambiguous:
                return Problem(path: problem.source, line: problem.link.line, kind: .ambiguousLink,
                               message: "ambiguous link \(written): could be " + problem.candidates.joined(separator: ", "))
            case .missingAnchor:
                let anchor = problem.link.heading.map { "heading '\($0)'" } ?? "block '^\(problem.link.blockID ?? "")'"
                return Problem(path: problem.source, line: problem.link.line, kind: .missingAnchor,
                               message: "link \(written): \(problem.candidates.first ?? "") has no \(anchor)")
            }
        }
    }

    /// What the checks across notes need of each note: its path, id, own title (nil when the
    /// file name stands in) and whether it has problems of its own.
    struct CheckedNote {
        let path: String
        let id: String?
        let title: String?
        let hasProblems: Bool
    }

    /// Notes sharing an id (compared lowercased).
    static func duplicateIDs(_ notes: [CheckedNote]) -> [Problem] {
        var byID: [String: [String]] = [:]
        for note in notes { if let id = note.id { byID[id.lowercased(), default: []].append(note.path) } }
        return byID.filter { $0.value.count > 1 }.flatMap { id, paths in
            paths.map { path in
                let others = paths.filter { $0 != path }.joined(separator: ", ")
                return Problem(path: path, kind: .duplicateId, message: "id \(id) is also used by \(others)")
            }
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

    /// Notes sharing a title of their own (not the file name standing in), compared
    /// case-insensitively: it names none of them. One finding per group, on its first note (by
    /// path), naming the others; the groups in the order of their first paths.
    static func sharedTitles(_ notes: [CheckedNote]) -> [Problem] {
        var byTitle: [String: [(path: String, title: String)]] = [:]
        for note in notes { if let title = note.title { byTitle[title.lowercased(), default: []].append((note.path, title)) } }
        let groups = byTitle.values.filter { $0.count > 1 }.map { $0.sorted { $0.path < $1.path } }.sorted { $0[0].path < $1[0].path }
        return groups.map { group in
            let others = group.dropFirst().map(\.path)
            let listed = others.count > 3 ? others.prefix(3).joined(separator: ", ") + " and \(others.count - 3) more"
                                          : others.joined(separator: ", ")
            return Problem(path: group[0].path, kind: .duplicateTitle,
                           message: "title '\(group[0].title)' is shared by \(group.count) notes: also \(listed)", related: others)
        }
    }

    /// Notes whose paths differ only in Unicode normalization: `café.md` written precomposed
    /// (NFC) and decomposed (NFD) are two files on Linux and to git, but one on macOS, and look
    /// the same everywhere.
    static func normalizationTwins(_ notes: [CheckedNote]) -> [Problem] {
        func form(_ path: String) -> String {
            if ExactPath.same(path, path.precomposedStringWithCanonicalMapping) { return "precomposed (NFC)" }
            if ExactPath.same(path, path.decomposedStringWithCanonicalMapping) { return "decomposed (NFD)" }
            return "in neither normal form"
        }
        // Grouped by `String`, which compares by canonical equivalence; apart by their bytes.
        return twins(notes, key: { $0 }, differ: { !ExactPath.same($0, $1) }).map { path, others in
            Problem(path: path, kind: .normalizationTwin,
                    message: "this name is written \(form(path)); another note has it \(others.map(form).joined(separator: ", ")): "
                        + "one file on macOS, two here — rename one of them")
        }
    }

    /// Notes whose paths differ only in letter case: two files on Linux and to git, one on the
    /// case-insensitive file systems of macOS and Windows, where a checkout writes one over the
    /// other. (Paths that differ only in Unicode normalization are `normalizationTwins`.)
    static func caseTwins(_ notes: [CheckedNote]) -> [Problem] {
        // Apart by `String` inequality: a name equal under normalization is the other kind.
        twins(notes, key: { $0.lowercased() }, differ: { $0 != $1 }).map { path, others in
            Problem(path: path, kind: .caseTwin,
                    message: "another note's name differs only in letter case (\(others.joined(separator: ", "))): "
                        + "one file on macOS and Windows, two here — rename one of them")
        }
    }

    /// Each note path that shares its `key` with others that `differ` from it, with those others
    /// (in the notes' order).
    private static func twins(_ notes: [CheckedNote], key: (String) -> String,
                              differ: (String, String) -> Bool) -> [(path: String, others: [String])] {
        var groups: [String: [String]] = [:]
        for note in notes { groups[key(note.path), default: []].append(note.path) }
        return groups.values.filter { $0.count > 1 }.flatMap { paths in
            paths.compactMap { path in
                let others = paths.filter { differ($0, path) }
                return others.isEmpty ? nil : (path, others)
            }
        }
    }

    /// Submodules (folders with a `.git` file or folder below the root) are left alone and reported.
    static func submodules(in vault: Vault) -> [Problem] {
        guard let text = try? String(contentsOf: vault.root.appendingPathComponent(".gitmodules"), encoding: .utf8) else {
            return []
        }
        return text.split(whereSeparator: \.isNewline).compactMap { line in
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            guard trimmed.hasPrefix("path"), let equals = trimmed.firstIndex(of: "=") else { return nil }
            let path = trimmed[trimmed.index(after: equals)...].trimmingCharacters(in: .whitespaces)
            return Problem(path: path, kind: .submodule, message: "submodule: quire leaves it alone and does not index it")
        }
    }
}
