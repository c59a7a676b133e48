import Foundation
import QuireCore
import QuireKit
import QuireSearch

/// A vault's catalog, opened for one command: QuireKit's `VaultSession`, with a progress line
/// on a terminal and the summary warning.
struct VaultCatalog {
    let session: VaultSession
    var vault: Vault { session.vault }
    /// What the walk of the vault left out (for `quire check`; empty when no walk was needed).
    var skipped: [VaultSkip] { session.skipped }
    /// How the catalog was proven up to date.
    var freshness: Freshness { session.freshness }
    var catalog: Catalog { session.catalog }
    var report: IndexReport { session.report }

    typealias Freshness = VaultSession.Freshness

    /// Opens the catalog of the command's vault; `rebuild` ignores the cache, `walk` looks at
    /// every note even when a watcher runs (`quire check` lists what the walk skips). On a
    /// terminal a long refresh shows a progress line (`IndexProgressLine`; `showProgress`
    /// false, e.g. under `--json`, keeps standard error quiet), erased before this returns.
    /// In a big vault with no watcher it starts one in the background (`WatcherPolicy`).
    /// With `attachments`, a walk lists the attachments too (`attachmentPaths()`).
    static func open(_ context: CommandContext, rebuild: Bool = false, walk: Bool = false,
                     showProgress: Bool = true, attachments: Bool = false) throws -> VaultCatalog {
        let vault = try context.vault()
        let line = IndexProgressLine.start(context, shown: showProgress)
        defer { line?.stop() }
        let opened = try open(vault: vault, environment: context.environment, rebuild: rebuild, walk: walk,
                              progress: line?.progress, attachments: attachments)
        if case .walk(watcherSaid: nil) = opened.freshness {
            WatcherLauncher.startIfBig(vault, noteCount: opened.catalog.count, walked: walk, environment: context.environment)
        }
        return opened
    }

    /// Opens the catalog of `vault` (what `open(_:rebuild:walk:)` does, without the command
    /// context: usable from another thread); `progress` hears how far the refresh got.
    static func open(vault: Vault, environment: [String: String], rebuild: Bool = false,
                     walk: Bool = false, progress: IndexProgress? = nil, attachments: Bool = false) throws -> VaultCatalog {
        VaultCatalog(session: try VaultSession(vault: vault, environment: environment, rebuild: rebuild, walk: walk,
                                               progress: progress, attachments: attachments, writesBehind: true))
    }

    /// The vault's links (`VaultLinks`), their attachments from the opening walk when it listed
    /// them (`VaultSession.attachmentPaths()`); `resolvingWhole` false for a command that reads
    /// one note's links (`VaultSession.linkTable`: no kept table, answers at query time).
    func links(resolvingWhole: Bool = true) throws -> VaultLinks {
        let attachments = try session.attachmentPaths()
        let table = session.linkTable(attachments: attachments, resolvingWhole: resolvingWhole)
        return VaultLinks(vault: vault, catalog: catalog, attachments: attachments, table: table)
    }

    /// The one summary warning of DESIGN.md §2 (and files that could not be read at all).
    func warnAboutProblems(_ output: Output) {
        let count = report.notesWithProblems
        if count > 0 {
            // Problems of a note's own front matter or text (a value out of range is not
            // unreadable front matter), named as `check` names the same number.
            output.error("quire: warning: \(ProblemCount.phrase(count)) — run 'quire check'")
        }
        if !report.failed.isEmpty {
            let noun = report.failed.count == 1 ? "1 file" : "\(report.failed.count) files"
            output.error("quire: warning: \(noun) could not be read — run 'quire check'")
        }
    }
}
