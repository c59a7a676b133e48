import Foundation
import QuireCore
import QuireKit

/// `quire new TITLE …` — creates a note and prints its path.
struct NewCommand: Command {
    static let configuration = CommandConfiguration(
        name: "new",
        abstract: "Create a note and print its path.",
        usage: "new TITLE [--folder F] [--template NAME [--var K=V]…] [--project P] [--tag T]… [--draft|--final] [--pinned] [--color C] [--mood N] [--body TEXT | --body -]",
        discussion: """
        The note goes in the folder you are in (as git add is relative to it), or at the vault root
        when you are outside the vault; --folder names a folder from the vault root instead. The
        path printed is relative to the current directory. The file name comes from the title (a
        collision gets -2, -3, …): its slug, or the title itself with fileNames: title in
        .quire/config.yml; a missing folder is created.
        The note gets a new id, createdAt and updatedAt. --draft writes draft: true, --final writes
        draft: false, neither writes no draft key. --body - reads the body from standard input.

        --template NAME starts from .quire/templates/NAME.md, with {{title}}, {{date}}
        (2026-11-29), {{time}} (14:05), {{datetime}}, {{weekday}}, {{id}} and each --var K=V
        filled in; the keys it lacks among id, title, createdAt and updatedAt are added, and the
        other options are applied on top (--tag adds tags, --body is appended).
        """,
        examples: [
            "quire new \"Woody's last ride\" --folder Drafts --project \"Toy Story 5\" --tag ending --draft",
            "echo 'Rain all day.' | quire new \"2026-11-29 Sunday\" --folder Journal --mood 3 --body -",
        ],
        options: [
            .value("--folder", name: "F", help: "Folder to create the note in, from the vault root (default: the current folder)."),
            .value("--project", name: "P", help: "The note's project."),
            .value("--tag", name: "T", help: "A tag (repeatable).", repeatable: true),
            .flag("--draft", help: "Mark the note as a draft (draft: true)."),
            .flag("--final", help: "Mark the note as final (draft: false)."),
            .flag("--pinned", help: "Pin the note (listed first)."),
            .value("--color", name: "C", help: "A color label, e.g. red or blue."),
            .value("--mood", name: "N", help: "Mood, \(NoteFields.moodRule)."),
            .value("--body", name: "TEXT", help: "The body text; '-' reads standard input."),
            .value("--template", name: "NAME", help: "Start from the template .quire/templates/NAME.md."),
            .value("--var", name: "K=V", help: "A template variable {{K}} (repeatable).", repeatable: true),
        ],
        positionals: 1...1)

    let title: String
    let folder: String?
    let arguments: ParsedArguments
    let mood: Int?
    let variables: [String: String]

    init(_ arguments: ParsedArguments) throws {
        title = arguments.positionals[0].trimmingCharacters(in: .whitespacesAndNewlines)
        guard !title.isEmpty else { throw CLIError.usage("the title is empty") }
        if arguments.has("--draft") && arguments.has("--final") {
            throw CLIError.usage("--draft and --final cannot be used together")
        }
        if let text = arguments.value("--mood") {
            do {
                mood = try FrontMatterInput.mood(text)
            } catch {
                throw CLIError.usage("--mood takes \(NoteFields.moodRule), not '\(text)'")
            }
        } else {
            mood = nil
        }
        if arguments.all("--tag").map(TagText.normalize).contains(where: \.isEmpty) {
            throw CLIError.usage("empty tag")
        }
        folder = arguments.value("--folder")
        var variables: [String: String] = [:]
        for item in arguments.all("--var") {
            guard let equals = item.firstIndex(of: "="), equals != item.startIndex else {
                throw CLIError.usage("--var takes K=V, not '\(item)'")
            }
            variables[String(item[..<equals])] = String(item[item.index(after: equals)...])
        }
        if !variables.isEmpty && arguments.value("--template") == nil {
            throw CLIError.usage("--var needs --template")
        }
        self.variables = variables
        self.arguments = arguments
    }

    func run(_ context: CommandContext) throws {
        let vault = try context.vault()
        var options = NewNoteOptions()
        options.body = arguments.value("--body") ?? ""
        if options.body == "-" {
            options.body = String(decoding: FileHandle.standardInput.readDataToEndOfFile(), as: UTF8.self)
        }
        options.draft = arguments.has("--draft") ? true : (arguments.has("--final") ? false : nil)
        options.tags = try TagText.given(arguments.all("--tag"))
        options.project = arguments.value("--project")
        options.pinned = arguments.has("--pinned")
        options.color = arguments.value("--color")
        options.mood = mood
        options.template = arguments.value("--template")
        options.variables = variables
        let folderPath = try folder.map { try NoteFolder.resolve($0, in: vault) } ?? context.currentFolder(in: vault) ?? ""
        let (plan, unknown) = try NewNotePlan.make(title: title, folder: folderPath, in: vault, options: options, now: context.now())
        for name in unknown {
            context.output.error("quire: warning: the template's {{\(name)}} names no variable; it is left as written")
        }
        try plan.write(to: vault)
        let path = plan.path
        context.output.line(context.displayPath(path, vault: vault))
        // The first by path of the other notes with this title (as a NOTE argument matches
        // titles: trimmed, any case), from one pass over the catalog's first fields.
        let wanted = title.trimmingCharacters(in: .whitespaces).lowercased()
        var namesake: (path: String, title: String)?
        try VaultCatalog.open(context).catalog.forEachRecordHead { record in
            guard record.path != path, record.title.lowercased() == wanted else { return }
            if let found = namesake, found.path < record.path { return }
            namesake = (record.path, record.title)
        }
        if let other = namesake {
            context.output.error("quire: warning: another note is titled '\(other.title)' (\(context.displayPath(other.path, vault: vault)));"
                                 + " the title no longer names one note — 'quire rename' changes it")
        }
    }
}

/// Tag spelling as stored: without a leading `#`, trimmed.
enum TagText {
    static func normalize(_ tag: String) -> String { NoteFields.typedTag(tag) }

    /// Tags given on the command line (`NoteFields.givenTags`); one with white space or a comma
    /// is refused as a usage error.
    static func given(_ tags: [String]) throws -> [String] {
        let given = NoteFields.givenTags(tags)
        if let bad = given.invalid {
            throw CLIError.usage("a tag cannot hold white space or a comma ('\(bad)')",
                                 hint: "write it with - or / instead ('\(bad.split(whereSeparator: { $0.isWhitespace || $0 == "," }).joined(separator: "-"))')")
        }
        return given.tags
    }
}
