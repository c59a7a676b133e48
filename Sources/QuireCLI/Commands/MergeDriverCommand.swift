import Foundation
import QuireCore
import QuireSync

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
        func write(_ data: Data) throws {
            do {
                try data.write(to: context.absoluteURL(ours), options: .atomic)
            } catch {
                throw CLIError("cannot write the merged note (\(ours): \(error.localizedDescription))")
            }
        }
        func read(_ file: String) throws -> Data {
            do {
                return try Data(contentsOf: context.absoluteURL(file))
            } catch {
                throw CLIError("cannot read \(file) (\(error.localizedDescription))")
            }
        }
        let baseData = try read(base)
        let oursData = try read(ours)
        let theirsData = try read(theirs)
        var strategy = MergeStrategy.newest
        if let vault = try? context.vault(), let config = try? vault.config() {
            let rules = config.mergeRules.compactMap { rule in MergeStrategy(rawValue: rule.strategy).map { (pattern: rule.pattern, strategy: $0) } }
            strategy = MergeStrategySelector(rules: rules, fallback: .newest).strategy(for: path)
        }
        let now = try context.now()
        // Each side dated by the commit that carried its change and named by its device, found
        // from what git provides, so the driver decides as every device recomputes it.
        let device = (try? context.vault()).map { $0.deviceName(environment: context.environment) }
        let workTree = (try? context.vault())?.root ?? context.currentDirectory
        let found = DriverSides.find(environment: context.environment, workTree: workTree, path: path, ours: oursData,
                                     theirs: theirsData, device: device ?? "this device", fallback: now)
        let sides = found.names
        let result = try MergeResolver(strategy: strategy, sides: sides).merge(
            path: path, base: baseData.isEmpty ? nil : baseData, ours: found.ours, theirs: found.theirs)
        let written = try DriverContext.current(environment: context.environment, workTree: workTree)
            .written(result, base: baseData.isEmpty ? nil : baseData, ours: oursData, theirs: theirsData, path: path)
        try write(written.data)
        if let (name, next) = written.leftAsConflict {
            // No merge commit would keep the losing side: left to the user, as git leaves it.
            throw CLIError("\(path): both sides changed the same text during \(name), which keeps no merge commit: "
                               + "left as a conflict (git's markers) so that neither version is lost",
                           hint: "edit \(path) to keep what you want, 'git add \(path)', then \(next)")
        }
        for decision in result.decisions {
            context.output.error("quire: \(path): kept \(sides.version(of: decision.winner)) — \(decision.reason)")
        }
        // Listed by 'quire conflicts' once git has made the merge commit, and recorded for every
        // device by the next 'quire sync'.
        if !result.decisions.isEmpty, let vault = try? context.vault() {
            try DriverDecisions.record(result.decisions, ours: oursData, theirs: theirsData,
                                       device: vault.deviceName(environment: context.environment), vaultRoot: vault.root)
        }
    }
}
