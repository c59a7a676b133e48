import Foundation
import QuireGit

/// The first line of a sync's commit, naming what changed as `git log --oneline` and a host's
/// web page show it: `Edit “Budget review Q3”`, `Edit 3 notes: “A”, “B” and 1 more`,
/// `Edit “A”, add “B”`, `Delete 2 files: “a.png” and “b.png”`. A note is named by its title,
/// any other file by its file name.
public enum CommitSubject {
    /// One changed file, as the subject names it.
    public struct Change: Equatable, Sendable {
        /// What happened to it.
        public var kind: ChangeKind
        /// Its path (after the change; before it for a deletion).
        public var path: String
        /// Its blob (after the change; before it for a deletion).
        public var blob: OID?
        /// Whether it is a note (a `.md` file).
        public var isNote: Bool { path.lowercased().hasSuffix(".md") }

        /// Creates a value.
        public init(kind: ChangeKind, path: String, blob: OID?) {
            self.kind = kind
            self.path = path
            self.blob = blob
        }

        /// The change a diff entry describes.
        public init(_ delta: DiffDelta) {
            let deleted = delta.kind == .deleted
            self.init(kind: delta.kind, path: deleted ? delta.oldPath : delta.newPath, blob: deleted ? delta.oldID : delta.newID)
        }
    }

    /// The longest name written whole; longer ones end in `…`.
    static let nameLimit = 48

    /// The subject for `changes` (in the order they should be named): one clause per kind of
    /// change — edits, additions, moves, deletions — the first capitalised. A kind with one
    /// file names it; the only kind names up to two; a kind among others gives its count.
    /// `name` gives a note's title; it is asked only of the changes the subject names (two
    /// at most per kind), so a sync of 10,000 notes reads two of them.
    public static func subject(_ changes: [Change], name: (Change) throws -> String) rethrows -> String {
        let verbs: [(verb: String, kinds: Set<ChangeKind>)] = [
            ("edit", [.modified, .typeChanged, .conflicted]), ("add", [.added]), ("move", [.renamed]), ("delete", [.deleted]),
        ]
        let groups = verbs.compactMap { verb -> (String, [Change])? in
            let members = changes.filter { verb.kinds.contains($0.kind) }
            return members.isEmpty ? nil : (verb.verb, members.filter(\.isNote) + members.filter { !$0.isNote })
        }
        let clauses = try groups.map { verb, members in
            try clause(verb, members, alone: groups.count == 1, name: name)
        }
        let text = clauses.joined(separator: ", ")
        return text.prefix(1).uppercased() + text.dropFirst()
    }

    /// `edit “A”`, `edit 2 notes: “A” and “B”` (alone), `edit 3 notes` (among other kinds).
    private static func clause(_ verb: String, _ members: [Change], alone: Bool,
                               name: (Change) throws -> String) rethrows -> String {
        func shown(_ change: Change) throws -> String {
            quoted(change.isNote ? try name(change) : String(change.path.split(separator: "/").last ?? ""))
        }
        if members.count == 1 { return "\(verb) \(try shown(members[0]))" }
        let noun = members.allSatisfy(\.isNote) ? "notes" : "files"
        let counted = "\(verb) \(members.count) \(noun)"
        guard alone else { return counted }
        let named = try members.prefix(2).map(shown)
        if members.count == 2 { return "\(counted): \(named[0]) and \(named[1])" }
        return "\(counted): \(named.joined(separator: ", ")) and \(members.count - 2) more"
    }

    /// A name in typographic quotes, on one line, shortened past `nameLimit` characters.
    static func quoted(_ name: String) -> String {
        var line = name.split(whereSeparator: \.isNewline).joined(separator: " ").trimmingCharacters(in: .whitespaces)
        if line.count > nameLimit { line = String(line.prefix(nameLimit - 1)).trimmingCharacters(in: .whitespaces) + "…" }
        return "“\(line)”"
    }
}
