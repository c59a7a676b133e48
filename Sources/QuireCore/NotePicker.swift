import Foundation

/// The choices of a note picker (`quire edit` / `show` without a NOTE on a terminal): the vault's
/// notes most recently updated first, and the rule that turns what the user typed into a choice.
/// Typed words go through `NoteResolver`, so a picker finds what a NOTE argument would
/// (path, id, exact title, id prefix, words of the title, letters in order).
public struct NotePicker: Sendable {
    /// How many notes a built-in picker lists at a time.
    public static let shownCount = 20

    /// What a typed answer means.
    public enum Answer: Sendable, Equatable {
        /// The user chose this note.
        case chosen(Note)
        /// The answer matches several notes (most recent first): list them and ask again.
        case narrowed([Note])
        /// The answer matches no note.
        case noMatch
        /// An empty answer: the user chose nothing.
        case cancelled
    }

    /// Every note, most recently updated first (`updatedAt`, else `createdAt`; notes with neither
    /// last), ties broken by path.
    public let recent: [Note]
    /// Resolves typed words as a NOTE argument.
    public let resolver: NoteResolver

    /// Creates the choices over the resolver's notes.
    public init(resolver: NoteResolver) {
        self.resolver = resolver
        recent = resolver.notes.sorted { left, right in
            let leftDate = left.updatedAt ?? left.createdAt
            let rightDate = right.updatedAt ?? right.createdAt
            if leftDate != rightDate {
                guard let leftDate else { return false }
                guard let rightDate else { return true }
                return leftDate > rightDate
            }
            return left.path < right.path
        }
    }

    /// What `input` means when `shown` is listed: a number picks from `shown` (1-based); other
    /// text (or a number out of range) is resolved as a NOTE argument — one note is chosen,
    /// several narrow the list. Throws the resolver's errors other than not-found and ambiguous
    /// (e.g. a path outside the vault).
    public func answer(_ input: String, shown: [Note]) throws -> Answer {
        let text = input.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !text.isEmpty else { return .cancelled }
        if let number = Int(text), shown.indices.contains(number - 1) { return .chosen(shown[number - 1]) }
        do {
            return .chosen(try resolver.resolve(text))
        } catch CoreError.noteNotFound {
            return .noMatch
        } catch CoreError.ambiguousNote(_, let candidates) {
            let paths = Set(candidates)
            return .narrowed(recent.filter { paths.contains($0.path) })
        }
    }

    /// One line per note for an external picker such as fzf: title, folder and path separated by
    /// tabs (tabs and line breaks inside them become spaces), in `recent` order.
    public var lines: [String] {
        recent.map(Self.line)
    }

    /// The note whose `lines` entry is `line` (trailing line break ignored), or nil.
    public func note(forLine line: String) -> Note? {
        let wanted = line.hasSuffix("\n") ? String(line.dropLast()) : line
        return recent.first { Self.line($0) == wanted }
    }

    /// A note's candidate line: `title<TAB>folder<TAB>path`.
    static func line(_ note: Note) -> String {
        [note.title, note.folder, note.path].map(flattened).joined(separator: "\t")
    }

    private static func flattened(_ text: String) -> String {
        String(text.unicodeScalars.map { $0 == "\t" || $0 == "\n" || $0 == "\r" ? " " : Character($0) })
    }
}
