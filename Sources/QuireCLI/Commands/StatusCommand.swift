import Foundation
import QuireCore
import QuireKit
import QuireSync

/// `quire status` — remote, branch, waiting commits and the last sync.
struct StatusCommand: Command {
    static let configuration = CommandConfiguration(
        name: "status",
        abstract: "Show the remote, uncommitted changes, commits waiting to sync, and the last sync's outcome.",
        usage: "status [--json]",
        discussion: """
        Remote commits are counted as of the last fetch; nothing is fetched. When a sync daemon
        ('quire watch --sync') runs or ran for the vault: its pid and start, its last cycle and
        result, the next fetch, changes waiting for the debounce, the current backoff and the
        last error.
        """,
        examples: ["quire status", "quire status --json"],
        options: [.flag("--json", help: "Print the status as JSON.")])

    let json: Bool

    init(_ arguments: ParsedArguments) throws {
        json = arguments.has("--json")
    }

    func run(_ context: CommandContext) throws {
        let vault = try context.vault()
        let status = try SyncStatus.read(vaultRoot: vault.root)
        let output = context.output
        let state = status.state
        let branch = status.branch.map { $0.hasPrefix("refs/heads/") ? String($0.dropFirst(11)) : $0 }
        // A journal left behind means the last sync stopped inside its work-tree update, whatever
        // the outcome recorded by the sync before it says.
        let outcome = status.interrupted ? "interrupted" : state.lastOutcome
        let interrupted = outcome == "interrupted"
        if json {
            output.line(JSON.object([
                ("remote", .string(status.remote)), ("branch", .string(branch)),
                ("uncommitted", .array(status.uncommitted.map { .string($0) })),
                ("ahead", .int(status.ahead)), ("behind", .int(status.behind)),
                ("lastSync", .string(state.lastSync.map(DateText.iso))), ("lastOutcome", .string(outcome)),
                ("interrupted", .bool(interrupted)),
                ("lastSuccess", .string(state.lastSuccess.map(DateText.iso))), ("lastError", .string(state.lastError)),
                ("pendingMerges", .array(state.pendingBases.keys.sorted().map { .string($0) })),
                ("conflicts", .int(status.conflicts)),
                ("undoneDeletions", .int(status.undoneDeletions)),
                ("skipped", .array((state.skipped ?? []).map { .object([("path", .string($0.path)), ("reason", .string($0.reason))]) })),
                ("daemon", DaemonStatusOutput.json(SyncDaemonHealth.read(vaultRoot: vault.root))),
            ]).rendered(.output))
            return
        }
        output.line("remote: \(status.remote ?? "none (set one with 'quire remote URL')")")
        output.line("branch: \(branch ?? "(detached)")")
        output.line(status.uncommitted.isEmpty ? "no uncommitted changes" : "\(SyncReportOutput.plural(status.uncommitted.count, "uncommitted change"))")
        for line in status.uncommitted.prefix(20) { output.line("  \(line)") }
        if status.uncommitted.count > 20 { output.line("  … and \(status.uncommitted.count - 20) more") }
        output.line("\(SyncReportOutput.plural(status.ahead, "local commit")) waiting to be pushed")
        output.line("\(SyncReportOutput.plural(status.behind, "remote commit")) not merged yet (as of the last fetch)")
        if status.interrupted {
            output.line("last sync: interrupted while updating the notes (some are updated, some not yet)")
        } else if let last = state.lastSync {
            output.line("last sync: \(DateText.short(last)) — \(state.lastOutcome ?? "unknown")")
            if let error = state.lastError { output.line("last error: \(error)") }
        } else {
            output.line("last sync: never")
        }
        for skipped in state.skipped ?? [] {
            output.line("warning: the last sync skipped \(context.displayPath(skipped.path, vault: vault)): \(skipped.reason)")
        }
        if interrupted { output.line("run 'quire sync' to finish the interrupted sync") }
        for path in state.pendingBases.keys.sorted() {
            output.line("your edit of \(context.displayPath(path, vault: vault)) was kept when the notes were updated; the next sync merges it")
        }
        if status.conflicts > 0 {
            output.line("\(SyncReportOutput.plural(status.conflicts, "automatic resolution")) dropped text — see 'quire conflicts'")
        }
        if status.undoneDeletions > 0 {
            output.line("\(SyncReportOutput.plural(status.undoneDeletions, "deletion")) undone because another device changed the note — see 'quire conflicts'")
        }
        DaemonStatusOutput.print(SyncDaemonHealth.read(vaultRoot: vault.root), output: output)
    }
}

/// `quire undo` — back to the vault as it was before the last merge.
struct UndoCommand: Command {
    static let configuration = CommandConfiguration(
        name: "undo",
        abstract: "Return the vault to how it was before the last merge (as a new commit).",
        usage: "undo [--force]",
        discussion: """
        Every sync that merges first records the local head in refs/quire/backup/ (numbered in the
        order they were made, whatever the clock says). undo makes a new commit that takes back what
        the newest backup's sync changed, so nothing already pushed is rewritten; the next sync
        carries it to the other devices. Edits you have not synced yet are kept, and so are files
        changed after that sync. A file that sync changed and a later commit changed again is not
        reverted: undo names such files and stops, unless --force.
        """,
        examples: ["quire undo && quire sync", "quire undo --force"],
        options: [.flag("--force", help: "Also revert files changed again after the sync being undone.")])

    let force: Bool

    init(_ arguments: ParsedArguments) throws {
        force = arguments.has("--force")
    }

    func run(_ context: CommandContext) throws {
        let vault = try context.vault()
        let report = try SyncUndo.run(vault, force: force, environment: context.environment)
        context.output.line("the vault is back to how it was before the merge of \(report.backup) (run 'quire sync' to share it)")
        for path in report.editsKept {
            context.output.line("  kept your uncommitted edit of \(context.displayPath(path, vault: vault)), without the merge's change")
        }
    }
}
