import Foundation
import QuireCore
import QuireGit
import QuireSearch
import QuireSync

/// What `VaultMigrator.run` needs besides the vault.
public struct MigrateOptions: Sendable {
    /// Only work out the changes (and their diff); write and commit nothing.
    public var dryRun: Bool
    /// This device's name (in the commit message and its trailer).
    public var device: String
    /// The commit time (`QUIRE_NOW` in tests).
    public var now: Date
    /// The zone dates are written in.
    public var timeZone: TimeZone
    /// The process environment (git config lookups, the catalog's watcher).
    public var environment: [String: String]

    /// Options for one migration run.
    public init(dryRun: Bool = false, device: String, now: Date, timeZone: TimeZone = .current,
                environment: [String: String] = [:]) {
        self.dryRun = dryRun
        self.device = device
        self.now = now
        self.timeZone = timeZone
        self.environment = environment
    }
}

/// What a migration did (or, in a dry run, would do).
public struct MigrateReport: Sendable, Equatable {
    /// One registered step that ran.
    public struct Step: Sendable, Equatable {
        /// Its name.
        public var name: String
        /// The version after it.
        public var version: Int
        /// What it does.
        public var summary: String
        /// How many notes it changed.
        public var notes: Int
    }

    /// The vault's version before.
    public var fromVersion: Int
    /// The version after (the same when nothing was pending).
    public var toVersion: Int
    /// The steps that ran, in order.
    public var steps: [Step] = []
    /// Every file changed (notes, then `.quire/config.yml`), vault-relative.
    public var changed: [String] = []
    /// Notes left as they are because no step could edit them (TOML or unreadable front matter,
    /// or an edit the surgical writer refused), with the reason.
    public var skipped: [(path: String, reason: String)] = []
    /// Values the steps left where they were, byte for byte, because they do not map
    /// losslessly (a tag list holding a mapping, a number…), in path order.
    public var kept: [KeptValue] = []
    /// The unified diff of every change (filled in a dry run).
    public var diff = ""
    /// The commit made (hex), nil in a dry run or when nothing was pending.
    public var commit: String?

    /// Compares field by field.
    public static func == (lhs: MigrateReport, rhs: MigrateReport) -> Bool {
        lhs.fromVersion == rhs.fromVersion && lhs.toVersion == rhs.toVersion && lhs.steps == rhs.steps
            && lhs.changed == rhs.changed && lhs.diff == rhs.diff && lhs.commit == rhs.commit && lhs.kept == rhs.kept
            && lhs.skipped.map(\.path) == rhs.skipped.map(\.path) && lhs.skipped.map(\.reason) == rhs.skipped.map(\.reason)
    }
}

/// `quire migrate`: brings the vault's format to `VaultConfig.currentVersion` by running the
/// pending `Migration` steps over every note, recording the new version in `.quire/config.yml`
/// and committing all of it as one commit that lists the steps.
public enum VaultMigrator {
    /// Runs (or, with `dryRun`, works out) the pending migrations of `vault`.
    public static func run(_ vault: Vault, options: MigrateOptions) throws -> MigrateReport {
        var config = try vault.config()
        // A vault without a configuration file is at version 1 (`Vault.formatVersion`), though
        // the defaults `config()` gives for it carry the current one.
        let hasConfig = FileManager.default.fileExists(atPath: vault.url(for: VaultConfig.relativePath).path)
        let version = hasConfig ? config.version : 1
        if version > VaultConfig.currentVersion {
            throw CoreError.vaultFormatTooNew(version: version, supported: VaultConfig.currentVersion)
        }
        var report = MigrateReport(fromVersion: version, toVersion: version)
        let pending = Migration.pending(after: version)
        guard !pending.isEmpty else { return report }
        let lock = options.dryRun ? nil : try VaultLock(vaultRoot: vault.root)
        return try withExtendedLifetime(lock) {
            let repository = try Repository.open(at: vault.root)
            let seed = try historySeed(repository)
            var counts = Array(repeating: 0, count: pending.count)
            var changes: [(path: String, old: Data, new: Data)] = []
            let listing = try FreshCatalog.noteListing(vault, rules: GitIgnoreRules.of(vault), stamps: false)
            for path in listing.notes {
                let old = try vault.readData(path)
                var document = NoteDocument(data: old, timeZone: options.timeZone)
                guard document.format == .yaml || document.format == .toml else { continue }
                guard document.isEditable else {
                    report.skipped.append((path, document.format == .toml ? "TOML front matter is read-only"
                                                                           : "the front matter is unreadable"))
                    continue
                }
                do {
                    let (changed, kept) = try Migration.apply(pending, to: &document, path: path, seed: seed)
                    for (index, didChange) in changed.enumerated() where didChange { counts[index] += 1 }
                    report.kept += kept
                } catch {
                    report.skipped.append((path, String(describing: error)))
                    continue
                }
                let new = document.serialized()
                if new != old { changes.append((path, old, new)) }
            }
            let oldConfig = config.serialized()
            try config.setVersion(VaultConfig.currentVersion)
            changes.append((VaultConfig.relativePath, hasConfig ? oldConfig : Data(), config.serialized()))
            report.toVersion = VaultConfig.currentVersion
            report.steps = zip(pending, counts).map { MigrateReport.Step(name: $0.name, version: $0.version, summary: $0.summary, notes: $1) }
            report.changed = changes.map(\.path)
            if options.dryRun {
                report.diff = try changes.map { try Patch.unified(old: $0.old, new: $0.new, oldPath: $0.path, newPath: $0.path) }.joined()
                return report
            }
            try vault.writeAll(changes.map { ($0.path, $0.new) })
            let committed = MigrationCommit(repository: repository, steps: pending, seed: seed, timeZone: options.timeZone)
            report.commit = try committed.commit(changes.map(\.path), report: report, vault: vault, options: options)
            return report
        }
    }

    /// The id of the vault's first commit (shared by every clone), so ids derived from it and a
    /// path are the same on every device and differ between unrelated vaults; empty before the
    /// first commit.
    static func historySeed(_ repository: Repository) throws -> String {
        guard let head = try repository.headCommitID() else { return "" }
        return try repository.log(from: head).last(where: { $0.parents.isEmpty })?.id.hex ?? head.hex
    }
}
