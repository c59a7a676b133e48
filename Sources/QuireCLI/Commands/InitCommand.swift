import Foundation
import QuireCore
import QuireGit

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
        let root = directory.map(context.absoluteURL) ?? context.currentDirectory
        let manager = FileManager.default
        var isDirectory: ObjCBool = false
        if manager.fileExists(atPath: root.path, isDirectory: &isDirectory) {
            guard isDirectory.boolValue else { throw CoreError.notADirectory(path: root.path) }
        } else {
            do {
                try manager.createDirectory(at: root, withIntermediateDirectories: true)
            } catch {
                throw CLIError("cannot create \(root.path) (\(error.localizedDescription))")
            }
        }
        let hasOwnGit = manager.fileExists(atPath: root.appendingPathComponent(".git").path)
        let hasConfig = manager.fileExists(atPath: root.appendingPathComponent(".quire/config.yml").path)
        if hasConfig && hasOwnGit {
            throw CLIError("the folder is already a quire vault (\(root.path))", hint: "nothing was changed; run quire commands inside it")
        }
        if !hasOwnGit, let enclosing = try? Repository.discover(from: root) {
            let workTree = enclosing.deletingLastPathComponent().path
            throw CoreError.vaultNotAtWorkTreeRoot(vault: root.path, workTreeRoot: workTree)
        }
        let repository = hasOwnGit ? try Repository.open(at: root) : try Repository.create(at: root, initialBranch: "main")
        let vault = try Vault.create(at: root)
        try MergeDriverSetup.register(repository: repository, vault: vault)
        let notes = try vault.notePaths().count
        let shown = PathDisplay.relative(root.path, from: context.currentDirectory.path)
        if hasOwnGit {
            context.output.line("Made the git repository \(shown) a quire vault (\(Count.of(notes, "note")) adopted as they are)")
        } else if notes > 0 {
            context.output.line("Initialized a quire vault in \(shown) (\(Count.of(notes, "note")) adopted as they are)")
        } else {
            context.output.line("Initialized an empty quire vault in \(shown)")
        }
    }
}
