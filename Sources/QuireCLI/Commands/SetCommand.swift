import Foundation
import QuireCore
import QuireKit

/// `quire set NOTE key=value…` — sets front-matter keys, surgically.
struct SetCommand: Command {
    static let configuration = CommandConfiguration(
        name: "set",
        abstract: "Set front-matter keys of a note (typed values, stamps updatedAt).",
        usage: "set NOTE KEY=VALUE…",
        discussion: """
        Values are read as YAML: draft=false is a boolean, mood=4 a number, tags=[a, b] a list,
        anything else text (title is always text). Only the keys named change; key order, comments,
        quoting and the body stay as they were. updatedAt is stamped unless you set it yourself.
        """,
        examples: ["quire set \"Woody's last ride\" draft=false color=red", "quire set 3f2b tags='[toy-story, ending]'",
                   "quire set journal/rainy.md mood=4 reviewer=Pete"],
        options: [NoteEditor.forceOption],
        positionals: 2...Int.max)

    let note: String
    let assignments: [(key: String, text: String)]
    let force: Bool

    init(_ arguments: ParsedArguments) throws {
        note = arguments.positionals[0]
        force = arguments.has("--force")
        assignments = try arguments.positionals.dropFirst().map { pair in
            guard let equals = pair.firstIndex(of: "="), equals != pair.startIndex else {
                throw CLIError.usage("expected KEY=VALUE, got '\(pair)'")
            }
            return (String(pair[..<equals]), String(pair[pair.index(after: equals)...]))
        }
    }

    func run(_ context: CommandContext) throws {
        let all = try VaultNotes(context: context)
        let found = try all.resolve(note, context: context)
        let values = try assignments.map { (key: $0.key, value: try FrontMatterInput.value(key: $0.key, text: $0.text)) }
        let setsUpdatedAt = values.contains { $0.key == "updatedAt" }
        try NoteEdit.apply(vault: all.vault, path: found.path, now: context.now(), setsUpdatedAt: setsUpdatedAt, force: force) { document in
            try FrontMatterInput.set(values, in: &document)
        }
        context.output.line(context.displayPath(found.path, vault: all.vault))
    }
}

/// `quire unset NOTE key…` — removes front-matter keys.
struct UnsetCommand: Command {
    static let configuration = CommandConfiguration(
        name: "unset",
        abstract: "Remove front-matter keys from a note (stamps updatedAt).",
        usage: "unset NOTE KEY…",
        examples: ["quire unset \"Woody's last ride\" color pinned"],
        options: [NoteEditor.forceOption],
        positionals: 2...Int.max)

    let note: String
    let keys: [String]
    let force: Bool

    init(_ arguments: ParsedArguments) throws {
        note = arguments.positionals[0]
        force = arguments.has("--force")
        keys = Array(arguments.positionals.dropFirst())
        if keys.contains("id") { throw CLIError.usage("the id of a note cannot be removed") }
    }

    func run(_ context: CommandContext) throws {
        let all = try VaultNotes(context: context)
        let found = try all.resolve(note, context: context)
        try NoteEdit.apply(vault: all.vault, path: found.path, now: context.now(),
                             setsUpdatedAt: keys.contains("updatedAt"), force: force) { document in
            for key in keys { try document.remove(key) }
        }
        context.output.line(context.displayPath(found.path, vault: all.vault))
    }
}
