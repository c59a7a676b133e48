import Foundation
import QuireCore
import QuireKit
import QuireSync

/// `quire sync` — commit, pull, merge and push in one cycle.
struct SyncCommand: Command {
    static let configuration = CommandConfiguration(
        name: "sync",
        abstract: "Commit your changes, merge the remote's, and push: one sync cycle.",
        usage: "sync [--strategy newest|ours|theirs|keep-both] [--no-push] [--dry-run] [--json] [-q]",
        discussion: """
        Notes edited outside quire get updatedAt from the file's time; everything is committed with
        a subject naming the notes (Edit “Plan”, add “Idea”) and a body naming this device; the remote's changes are merged note by note (front matter key
        by key, bodies three ways; where two edits truly collide the newer updatedAt wins and the
        other version stays restorable: 'quire conflicts'). A note you edit while the sync runs is
        never overwritten. Offline is normal: the commit stays and the next sync pushes it.
        Ctrl-C (SIGINT) or SIGTERM stops the sync at its next safe point: what is committed stays,
        nothing is half-written, and the next sync goes on from there; a second one stops at once.
        Exit codes: 3 offline, 4 authentication failed, 5 remote not found, 6 push rejected,
        7 another quire is syncing this vault, 130 interrupted (SIGINT), 143 stopped (SIGTERM).
        """,
        examples: ["quire sync", "quire sync --dry-run", "quire sync --strategy keep-both", "quire sync --no-push --json"],
        options: [
            .value("--strategy", name: "S", help: "How collisions resolve: newest (default), ours, theirs, keep-both."),
            .flag("--no-push", help: "Commit and merge, but do not push."),
            .flag("--dry-run", help: "Commit nothing; say what would be committed, merged and pushed."),
            .flag("--json", help: "Print the report as JSON."),
            .quiet,
        ])

    let options: VaultSyncOptions
    let json: Bool

    init(_ arguments: ParsedArguments) throws {
        var strategy: MergeStrategy?
        if let text = arguments.value("--strategy") {
            guard let value = MergeStrategy(rawValue: text) else {
                throw CLIError.usage("unknown strategy '\(text)'", hint: "use newest, ours, theirs or keep-both")
            }
            strategy = value
        }
        options = VaultSyncOptions(environment: [:], strategy: strategy, push: !arguments.has("--no-push"),
                                   dryRun: arguments.has("--dry-run"))
        json = arguments.has("--json")
    }

    func run(_ context: CommandContext) throws {
        let vault = try context.vault()
        let output = context.output
        let interrupts = SyncInterrupts(announce: { FileHandle.standardError.write(Data(($0 + "\n").utf8)) })
        defer { interrupts.restore() }
        var options = options
        options.environment = context.environment
        options.interruption = { interrupts.received() }
        let line = json ? nil : TransferSetup.progressLine(output)
        if let line {
            options.phaseStarted = { line.announce($0.rawValue) }
            options.transferProgress = { line.update($0) }
        }
        let outcome: VaultSyncOutcome
        do {
            outcome = try VaultSync.runRepairingLinks(vault, options: options)
        } catch {
            line?.stop()
            throw error
        }
        line?.stop()
        let (report, repairs, repairReport) = (outcome.report, outcome.repairs, outcome.repairReport)
        if json {
            var value = SyncReportOutput.json(report, dryRun: options.dryRun)
            if case .object(var fields) = value {
                fields.append(("repairedLinks", .array(repairs.edits.map {
                    JSON.object([("path", .string($0.path)), ("line", .int($0.line)), ("old", .string($0.old)), ("new", .string($0.new))])
                })))
                fields.append(("repairCommit", .string(repairReport?.commit)))
                fields.append(("lost", .array(outcome.lost.map {
                    JSON.object([("id", .string($0.id)), ("path", .string($0.path)), ("reason", .string($0.readableReason(seenBy: nil))),
                                 ("restore", .string("quire restore \($0.path) --conflict \($0.id)"))])
                })))
                value = .object(fields)
            }
            output.line(value.rendered(.output))
        } else {
            SyncReportOutput.print(report, options: options, context: context, vault: vault)
            for edit in repairs.edits {
                context.output.line("repaired \(context.displayPath(edit.path, vault: vault)):\(edit.line): \(edit.old) → \(edit.new)")
            }
            if let repairReport {
                context.output.line(repairReport.pushed ? "committed and pushed the repaired links" : "committed the repaired links")
            }
            SyncReportOutput.printLost(outcome.lost, context: context, vault: vault)
        }
    }
}

/// How a sync report is shown.
enum SyncReportOutput {
    static func json(_ report: SyncReport, dryRun: Bool) -> JSON {
        .object([
            ("dryRun", .bool(dryRun)),
            ("stamped", .array(report.stamped.map { .string($0) })),
            ("committed", .array(report.committed.map { .string($0) })),
            ("commit", .string(report.commit)),
            ("integration", .string(report.integration)),
            ("updatedFromRemote", .array(report.updatedFromRemote.map { .string($0) })),
            ("arrived", .array(report.arrived.map { .string($0) })),
            ("incomingMarkers", .array(report.incomingMarkers.map { .string($0) })),
            ("merged", .array(report.merged.map { .string($0) })),
            ("conflicts", .array(report.conflicts.map {
                .object([("path", .string($0.path)), ("winner", .string($0.winner.rawValue)), ("reason", .string($0.reason))])
            })),
            ("keptUserEdits", .array(report.keptUserEdits.map { .string($0) })),
            ("pushed", .bool(report.pushed)),
            ("pushedCommits", .int(report.pushedCommits)),
            ("attempts", .int(report.attempts)),
            ("wouldCommit", .array(report.wouldCommit.map { .string($0) })),
            ("incomingCommits", .int(report.incomingCommits)),
            ("outgoingCommits", .int(report.outgoingCommits)),
            ("backup", .string(report.backup)),
            ("noRemote", .bool(report.noRemote)),
            ("skipped", .array(report.skipped.map { .object([("path", .string($0.path)), ("reason", .string($0.reason))]) })),
            ("remoteHead", remoteHeadJSON(report.remoteHead)),
            ("namesake", report.namesake.map {
                .object([("device", .string($0.device)), ("commit", .string($0.commit)), ("time", .string(DateText.iso($0.time)))])
            } ?? .null),
        ])
    }

    static func print(_ report: SyncReport, options: VaultSyncOptions, context: CommandContext, vault: Vault) {
        let output = context.output
        func show(_ path: String) -> String { context.displayPath(path, vault: vault) }
        let device = vault.deviceName(environment: context.environment)
        if options.dryRun {
            output.line(report.wouldCommit.isEmpty ? "nothing to commit" : "would commit \(plural(report.wouldCommit.count, "change")):")
            for line in report.wouldCommit { output.line("  \(line)") }
            if report.noRemote {
                output.line("no remote: nothing would be pushed (set one with 'quire remote URL')")
                return
            }
            output.line("would merge \(plural(report.incomingCommits, "remote commit")) and push \(plural(report.outgoingCommits + (report.wouldCommit.isEmpty ? 0 : 1), "commit"))")
            return
        }
        if !report.stamped.isEmpty {
            output.line("stamped updatedAt of \(plural(report.stamped.count, "note")) edited outside quire")
        }
        if let commit = report.commit, report.committed.isEmpty {
            output.line("committed no change, only the record of what the last update decided (\(commit.prefix(7)))")
        } else if let commit = report.commit {
            output.line("committed \(plural(report.committed.count, "change")) (\(commit.prefix(7)))")
            for line in report.committed.prefix(20) { output.line("  \(line)") }
            if report.committed.count > 20 { output.line("  … and \(report.committed.count - 20) more") }
        } else {
            output.line("nothing to commit")
        }
        if report.noRemote {
            output.line("no remote: committed locally, nothing pushed (set one with 'quire remote URL' to share the vault)")
            return
        }
        switch report.integration {
        case "fast-forward", "merge":
            let how = report.integration == "merge" ? "merged" : "fast-forwarded to"
            output.line("\(how) the remote: \(plural(report.updatedFromRemote.count, "file")) updated")
        default:
            output.line("the remote had nothing new")
        }
        printArrival(report.arrived, show: show, output: output)
        for place in report.incomingMarkers {
            let colon = place.lastIndex(of: ":") ?? place.endIndex
            output.line("warning: \(show(String(place[..<colon])))\(place[colon...]) arrived holding git's conflict markers "
                + "(<<<<<<< … >>>>>>>) written by another tool — edit it to keep what you want")
        }
        for line in report.merged { output.line("  \(line)") }
        if !report.conflicts.isEmpty {
            output.line("resolved \(plural(report.conflicts.count, "collision")) automatically (the other versions are kept: quire conflicts):")
            for decision in report.conflicts {
                let readable = decision.readable(localDevice: device)
                output.line("  \(show(decision.path)): \(readable.kept) — \(readable.reason)")
            }
        }
        for skipped in report.skipped { output.line("warning: skipped \(show(skipped.path)): \(skipped.reason)") }
        if let namesake = report.namesake {
            output.line("warning: another device also syncs as \"\(namesake.device)\" (its commit \(namesake.commit.prefix(7)) "
                + "of \(DateText.short(namesake.time)) arrived): the two read alike here and in 'quire conflicts'")
            output.line("  give this device a name of its own: 'device: NAME' in .quire/local/config.yml (or QUIRE_DEVICE=NAME)")
        }
        for path in report.keptUserEdits {
            output.line("kept your edit of \(show(path)) made during the sync; it is merged at the next sync")
        }
        if report.pushed {
            output.line("pushed \(plural(report.pushedCommits, "commit")) to origin" + (report.attempts > 1 ? " (after \(report.attempts) attempts: the remote moved meanwhile)" : ""))
        } else if options.push {
            output.line("nothing to push")
        } else {
            output.line("not pushed (--no-push)")
        }
        switch report.remoteHead {
        case .pointed(let branch)?:
            output.line("pointed the remote's HEAD at \(branch): a plain 'git clone' of it checks out the notes")
        case .unborn(let branch)?:
            output.line("warning: the remote's HEAD names no branch: a plain 'git clone' of it checks out nothing")
            output.line("  set it on the server: git --git-dir=PATH/OF/THE/REPOSITORY symbolic-ref HEAD refs/heads/\(branch)")
            output.line("  (on a hosting service: make \(branch) the repository's default branch)")
        case nil:
            break
        }
    }

    /// `{"state": "pointed"|"unborn", "branch": …}`, or null.
    static func remoteHeadJSON(_ head: SyncReport.RemoteHead?) -> JSON {
        switch head {
        case .pointed(let branch)?: return .object([("state", .string("pointed")), ("branch", .string(branch))])
        case .unborn(let branch)?: return .object([("state", .string("unborn")), ("branch", .string(branch))])
        case nil: return .null
        }
    }

    /// What a fast-forward brought: notes added, changed, moved and deleted, ten at most.
    static func printArrival(_ arrived: [String], show: (String) -> String, output: Output) {
        let words = ["A": "added", "M": "changed", "D": "deleted", "R": "moved"]
        for line in arrived.prefix(10) {
            guard let space = line.firstIndex(of: " "), let word = words[String(line[..<space])] else { continue }
            let rest = line[line.index(after: space)...]
            if word == "moved", let arrow = rest.range(of: " -> ") {
                output.line("  moved \(show(String(rest[..<arrow.lowerBound]))) → \(show(String(rest[arrow.upperBound...])))")
            } else {
                output.line("  \(word) \(show(String(rest)))")
            }
        }
        if arrived.count > 10 { output.line("  … and \(arrived.count - 10) more") }
    }

    /// One line per note where this device's text lost, with the command that brings it back.
    static func printLost(_ lost: [ConflictRecord], context: CommandContext, vault: Vault) {
        guard !lost.isEmpty else { return }
        let device = vault.deviceName(environment: context.environment)
        context.output.line("your text lost in \(plural(lost.count, "note")) (kept in history):")
        for record in lost {
            let path = context.displayPath(record.path, vault: vault)
            context.output.line("  \(path): \(record.readableReason(seenBy: device)) — 'quire restore \(path) --conflict \(record.id)' brings it back")
        }
    }

    static func plural(_ count: Int, _ noun: String) -> String { count == 1 ? "1 \(noun)" : "\(count) \(noun)s" }
}
