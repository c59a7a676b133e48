import Foundation
import QuireCore
import QuireSync

/// What git hands `quire merge-driver %O %A %B %P`: the three versions' files as it named them
/// (a relative name is found in `directory`) and the note's path.
public struct MergeDriverInput: Sendable, Equatable {
    /// The common ancestor's file (empty: the note was added on both sides).
    public var base: String
    /// Our version's file, which the merged note replaces.
    public var ours: String
    /// Their version's file.
    public var theirs: String
    /// The note's path in the work tree.
    public var path: String
    /// Where relative file names are found (the driver's current directory).
    public var directory: URL

    /// Creates the input.
    public init(base: String, ours: String, theirs: String, path: String, directory: URL) {
        self.base = base
        self.ours = ours
        self.theirs = theirs
        self.path = path
        self.directory = directory
    }

    func url(_ file: String) -> URL {
        file.hasPrefix("/") ? URL(fileURLWithPath: file).standardizedFileURL
            : directory.appendingPathComponent(file).standardizedFileURL
    }
}

/// What the merge driver did: the decisions that dropped text (each with the version kept), or
/// the collision left as git leaves it where no merge commit would keep the losing side.
public struct MergeDriverReport: Sendable {
    /// Each decision that dropped text: the version kept (as `quire conflicts` names it) and why.
    public var kept: [(version: String, reason: String)] = []
    /// Set when the note was left with git's conflict markers: the operation (a rebase, a
    /// cherry-pick, …) and what to run after resolving it.
    public var leftAsConflict: (operation: String, next: String)?
}

/// `quire merge-driver`: one note merged for the git CLI exactly as `quire sync` merges it (the
/// vault's merge strategies, each side dated and named from git's history), written over our
/// version; decisions that dropped text are kept in `.quire/local/` (`DriverDecisions`) for
/// `quire conflicts` and the next sync.
public enum MergeDriverRun {
    /// Merges the note of `input` in `vault` (nil: git runs the driver outside a vault; the
    /// default strategy then) at `now` when history cannot date the sides.
    public static func run(_ input: MergeDriverInput, vault: Vault?, environment: [String: String],
                           now: Date) throws -> MergeDriverReport {
        let baseData = try read(input.base, input)
        let oursData = try read(input.ours, input)
        let theirsData = try read(input.theirs, input)
        var strategy = MergeStrategy.newest
        if let config = try? vault?.config() {
            let rules = config.mergeRules.compactMap { rule in MergeStrategy(rawValue: rule.strategy).map { (pattern: rule.pattern, strategy: $0) } }
            strategy = MergeStrategySelector(rules: rules, fallback: .newest).strategy(for: input.path)
        }
        // Each side dated by the commit that carried its change and named by its device, found
        // from what git provides, so the driver decides as every device recomputes it.
        let device = vault.map { $0.deviceName(environment: environment) }
        let workTree = vault?.root ?? input.directory
        let found = DriverSides.find(environment: environment, workTree: workTree, path: input.path, ours: oursData,
                                     theirs: theirsData, device: device ?? "this device", fallback: now)
        let base = baseData.isEmpty ? nil : baseData
        let result = try MergeResolver(strategy: strategy, sides: found.names).merge(
            path: input.path, base: base, ours: found.ours, theirs: found.theirs)
        let written = try DriverContext.current(environment: environment, workTree: workTree)
            .written(result, base: base, ours: oursData, theirs: theirsData, path: input.path)
        do {
            try written.data.write(to: input.url(input.ours), options: .atomic)
        } catch {
            throw KitError.mergedNoteUnwritable(file: input.ours, reason: error.localizedDescription)
        }
        var report = MergeDriverReport()
        if let (name, next) = written.leftAsConflict {
            report.leftAsConflict = (name, next)
            return report
        }
        report.kept = result.decisions.map { (found.names.version(of: $0.winner), $0.reason) }
        // Listed by 'quire conflicts' once git has made the merge commit, and recorded for every
        // device by the next 'quire sync'.
        if !result.decisions.isEmpty, let vault {
            try DriverDecisions.record(result.decisions, ours: oursData, theirs: theirsData,
                                       device: vault.deviceName(environment: environment), vaultRoot: vault.root)
        }
        return report
    }

    private static func read(_ file: String, _ input: MergeDriverInput) throws -> Data {
        do {
            return try Data(contentsOf: input.url(file))
        } catch {
            throw KitError.mergeInputUnreadable(file: file, reason: error.localizedDescription)
        }
    }
}
