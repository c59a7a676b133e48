import Foundation
import QuireCore

/// `quire new TITLE …` — creates a note and prints its path.
struct NewCommand: Command {
    static let configuration = CommandConfiguration(
        name: "new",
        abstract: "Create a note and print its path.",
        usage: "new TITLE [--folder F] [--project P] [--tag T]… [--draft|--final] [--pinned] [--color C] [--mood N] [--body TEXT | --body -]",
        discussion: """
        The note goes in the folder you are in (as git add is relative to it), or at the vault root
        when you are outside the vault; --folder names a folder from the vault root instead. The
        path printed is relative to the current directory. The file name comes from the title (a
        collision gets -2, -3, …): its slug, or the title itself with fileNames: title in
        .quire/config.yml; a missing folder is created.
        The note gets a new id, createdAt and updatedAt. --draft writes draft: true, --final writes
        draft: false, neither writes no draft key. --body - reads the body from standard input.
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
            .value("--mood", name: "N", help: "Mood from 1 to 5."),
            .value("--body", name: "TEXT", help: "The body text; '-' reads standard input."),
        ],
        positionals: 1...1)

    let title: String
    let folder: String?
    let arguments: ParsedArguments
    let mood: Int?

    init(_ arguments: ParsedArguments) throws {
        title = arguments.positionals[0].trimmingCharacters(in: .whitespacesAndNewlines)
        guard !title.isEmpty else { throw CLIError.usage("the title is empty") }
        if arguments.has("--draft") && arguments.has("--final") {
            throw CLIError.usage("--draft and --final cannot be used together")
        }
        if let text = arguments.value("--mood") {
            guard let value = Int(text), (1...5).contains(value) else {
                throw CLIError.usage("--mood takes a number from 1 to 5, not '\(text)'")
            }
            mood = value
        } else {
            mood = nil
        }
        if arguments.all("--tag").map(TagText.normalize).contains(where: \.isEmpty) {
            throw CLIError.usage("empty tag")
        }
        folder = arguments.value("--folder")
        self.arguments = arguments
    }

    func run(_ context: CommandContext) throws {
        let vault = try context.vault()
        let now = try context.now()
        var body = arguments.value("--body") ?? ""
        if body == "-" {
            body = String(decoding: FileHandle.standardInput.readDataToEndOfFile(), as: UTF8.self)
        }
        if !body.isEmpty && !body.hasSuffix("\n") { body += "\n" }
        let draft: Bool? = arguments.has("--draft") ? true : (arguments.has("--final") ? false : nil)
        let folderPath = try folder.map { try NoteFolder.resolve($0, in: vault) } ?? context.currentFolder(in: vault) ?? ""
        let path = try vault.availablePath(folder: folderPath, title: title, style: vault.config().fileNameStyle())
        let data = NoteDocument.newNote(
            id: UUID().uuidString.lowercased(), title: title, createdAt: now,
            tags: arguments.all("--tag").map(TagText.normalize), project: arguments.value("--project"),
            draft: draft, pinned: arguments.has("--pinned"), color: arguments.value("--color"),
            mood: mood, body: body).serialized()
        try vault.write(data, to: path)
        context.output.line(context.displayPath(path, vault: vault))
        let namesakes = try VaultNotes(context: context).resolver(context).notes(titled: title).filter { $0.path != path }
        if let other = namesakes.first {
            context.output.error("quire: warning: another note is titled '\(other.title)' (\(context.displayPath(other.path, vault: vault)));"
                                 + " the title no longer names one note — 'quire rename' changes it")
        }
    }
}

/// Tag spelling as stored: without a leading `#`, trimmed.
enum TagText {
    static func normalize(_ tag: String) -> String {
        var text = tag.trimmingCharacters(in: .whitespaces)
        while text.hasPrefix("#") { text.removeFirst() }
        return text
    }
}
