import Foundation
import QuireCore
import QuireKit

/// `quire init [DIR]` — makes a folder a vault (a git repository with `.quire/`), adopting notes
/// already there as they are.
struct InitCommand: Command {
    static let configuration = CommandConfiguration(
        name: "init",
        abstract: "Make a folder a vault: a git repository with .quire/ (existing notes are adopted untouched).",
        usage: "init [DIR]",
        discussion: """
        DIR defaults to the current directory and is created if missing. A folder that already
        holds notes (an Obsidian vault, a docs site) is adopted as it is: no note is touched. A folder
        that is already a git repository keeps its history; a folder inside another repository is
        refused, since a vault must be the root of its work tree. New repositories use branch main.
        In an Obsidian vault (.obsidian/ present) .gitignore also gets .obsidian/workspace*.json
        and .trash/: each device's window layout and Obsidian's trash stay on the device.
        """,
        examples: ["quire init ~/notes", "cd ~/obsidian-vault && quire init"],
        positionals: 0...1)

    let directory: String?

    init(_ arguments: ParsedArguments) throws {
        directory = arguments.positionals.first
    }

    func run(_ context: CommandContext) throws {
        let report = try VaultSetup.initialize(at: directory.map(context.absoluteURL) ?? context.currentDirectory)
        let shown = PathDisplay.relative(report.root.path, from: context.currentDirectory.path)
        if report.adoptedRepository {
            context.output.line("Made the git repository \(shown) a quire vault (\(Count.of(report.notes, "note")) adopted as they are)")
        } else if report.notes > 0 {
            context.output.line("Initialized a quire vault in \(shown) (\(Count.of(report.notes, "note")) adopted as they are)")
        } else {
            context.output.line("Initialized an empty quire vault in \(shown)")
        }
    }
}
