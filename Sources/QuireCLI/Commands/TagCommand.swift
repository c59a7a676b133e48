import Foundation
import QuireCore
import QuireKit

/// `quire tag NOTE +t -t…` — adds and removes tags.
struct TagCommand: Command {
    static let configuration = CommandConfiguration(
        name: "tag",
        abstract: "Add (+tag or tag) and remove (-tag) tags of a note.",
        usage: "tag NOTE [+TAG | -TAG]…",
        discussion: """
        A -tag after NOTE is a removal, not an option. Tags are stored without '#' and compared
        case-insensitively; the tags key keeps the form the note already uses (list or text).
        """,
        examples: ["quire tag \"Woody's last ride\" +ending -draft-idea", "quire tag 3f2b '#character/woody'"],
        options: [NoteEditor.forceOption],
        dashPositionals: true,
        positionals: 2...Int.max)

    let note: String
    let additions: [String]
    let removals: [String]
    let force: Bool

    init(_ arguments: ParsedArguments) throws {
        note = arguments.positionals[0]
        force = arguments.has("--force")
        var additions: [String] = []
        var removals: [String] = []
        for word in arguments.positionals.dropFirst() {
            if word.hasPrefix("-") {
                removals.append(TagText.normalize(String(word.dropFirst())))
            } else {
                additions.append(TagText.normalize(word.hasPrefix("+") ? String(word.dropFirst()) : word))
            }
        }
        if (additions + removals).contains(where: \.isEmpty) { throw CLIError.usage("empty tag") }
        self.additions = try TagText.given(additions)
        self.removals = removals
    }

    func run(_ context: CommandContext) throws {
        let all = try VaultNotes(context: context)
        let found = try all.resolve(note, context: context)
        var tags = found.tags
        let removed = Set(removals.map { $0.lowercased() })
        tags.removeAll { removed.contains($0.lowercased()) }
        for tag in additions where !tags.contains(where: { $0.lowercased() == tag.lowercased() }) {
            tags.append(tag)
        }
        if tags != found.tags {
            // Only the front matter's tags are written: inline `#tags` stay in the body.
            try NoteEdit.apply(vault: all.vault, path: found.path, now: context.now(), force: force) { document in
                try document.changeTags(adding: additions, removing: removals)
                tags = document.note(path: found.path).tags
            }
            let kept = tags.filter { removed.contains($0.lowercased()) }
            if !kept.isEmpty {
                context.output.error("quire: warning: \(kept.map { "#\($0)" }.joined(separator: " ")) is written in the note's text; edit the note to remove it")
            }
        }
        context.output.line(tags.map { "#\($0)" }.joined(separator: " "))
    }
}
