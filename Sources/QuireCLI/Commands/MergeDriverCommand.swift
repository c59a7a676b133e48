import Foundation
import QuireCore
import QuireKit

/// `quire merge-driver %O %A %B %P` — quire's resolver as a git merge driver.
struct MergeDriverCommand: Command {
    static let configuration = CommandConfiguration(
        name: "merge-driver",
        abstract: "Merge one note for the git CLI (git calls this; 'quire init' and 'clone' register it).",
        usage: "merge-driver BASE OURS THEIRS PATH",
        discussion: """
        git runs this for *.md files (merge=quire in .gitattributes, merge.quire.driver in
        .git/config) when a plain 'git pull' merges note contents. It merges exactly as 'quire sync'
        does and writes the result over OURS; in a merge it never leaves conflict markers. Decisions
        that dropped text are printed on standard error (the other version stays in the merged
        parent) and kept in .quire/local/: 'quire conflicts' lists them once git has committed the
        merge, and the next 'quire sync' records them for every device. A rebase, cherry-pick,
        revert or stash makes no merge commit and would lose the other version: there a collision
        is left as git leaves it (conflict markers, exit 1) for you to resolve.
        """,
        examples: ["git config merge.quire.driver \"$(command -v quire) merge-driver %O %A %B %P\""],
        positionals: 4...4)

    let base: String
    let ours: String
    let theirs: String
    let path: String

    init(_ arguments: ParsedArguments) throws {
        base = arguments.positionals[0]
        ours = arguments.positionals[1]
        theirs = arguments.positionals[2]
        path = arguments.positionals[3]
    }

    func run(_ context: CommandContext) throws {
        let input = MergeDriverInput(base: base, ours: ours, theirs: theirs, path: path, directory: context.currentDirectory)
        let report = try MergeDriverRun.run(input, vault: try? context.vault(), environment: context.environment, now: context.now())
        if let (name, next) = report.leftAsConflict {
            // No merge commit would keep the losing side: left to the user, as git leaves it.
            throw CLIError("\(path): both sides changed the same text during \(name), which keeps no merge commit: "
                               + "left as a conflict (git's markers) so that neither version is lost",
                           hint: "edit \(path) to keep what you want, 'git add \(path)', then \(next)")
        }
        for kept in report.kept {
            context.output.error("quire: \(path): kept \(kept.version) — \(kept.reason)")
        }
    }
}
