import Foundation
import QuireCore
import QuireKit
import QuireSearch
#if canImport(Glibc)
import Glibc
#endif

/// `quire watch [start|stop|status|run]` — a background process that watches the vault's
/// folders so that commands need not look at every note to know the catalog is fresh.
struct WatchCommand: Command {
    static let configuration = CommandConfiguration(
        name: "watch",
        abstract: "Start, stop or show the watcher that keeps search fast on large vaults.",
        usage: "watch [start|stop|status|run] [--sync] [--debounce S] [--fetch-interval S] [--max-backoff S] [--idle S] [--json] [--timeout S]",
        discussion: """
        Without a watcher every command compares each note's size, times and inode with the
        cached catalog before it answers (one 'stat' per note: about 2 ms per 1,000 notes).
        'quire watch start' starts a background process that watches every folder of the vault
        with inotify; commands then ask it which notes changed and look only at those. It
        answers only this user (its socket is not a file), writes its output to
        .quire/local/watch.log, and stops with 'quire watch stop', when the vault folder goes
        away, or with the machine. 'quire watch run' serves in the
        foreground (for a systemd user unit or another supervisor). Without an action:
        'status'. When the watcher cannot vouch for the vault (a symlink that leads to a note
        or folder, events the kernel dropped), commands walk the vault as without it.
        In a vault of 5,000 notes or more the first command that finds no watcher starts one
        by itself, which exits after an idle hour; 'watch: off' in .quire/config.yml (or
        .quire/local/config.yml) turns that off. See Docs/search.md.
        With --sync (or 'sync: auto' in .quire/config.yml) it also syncs by itself: a few
        seconds after your edits settle (longer while a file keeps changing), and every minute
        to bring other devices' changes in; it backs off while the remote cannot be reached and
        stops retrying when the credentials or the host key need you. One line per cycle goes
        to .quire/local/log; 'quire status' shows its health. SIGHUP reloads the settings;
        SIGINT or SIGTERM let a running cycle finish, then stop it. 'quire watch stop' returns once
        the process is gone (a cycle in flight finishes first), or after --timeout seconds
        (default 30), saying it still runs (exit 1). See Docs/sync.md.
        """,
        examples: ["quire watch start", "quire watch start --sync", "quire watch run --sync --debounce 2",
                   "quire watch status --json", "quire watch stop"],
        options: [.flag("--json", help: "Print the status as JSON (status only)."),
                  .flag("--sync", help: "Also sync by itself (start and run)."),
                  .value("--debounce", name: "S", help: "Seconds of quiet after the last change before a sync (default 5)."),
                  .value("--fetch-interval", name: "S", help: "Seconds between fetches when nothing changes (default 60)."),
                  .value("--max-backoff", name: "S", help: "Longest wait between attempts while offline (default 900)."),
                  .value("--idle", name: "S", help: "Exit after S seconds nobody asked it anything (start and run, not with --sync)."),
                  .value("--timeout", name: "S", help: "How long 'stop' waits for the process to end (default 30 seconds).")],
        positionals: 0...1)

    enum Action: String { case start, stop, status, run }

    let action: Action
    let json: Bool
    let sync: Bool
    /// Settings from the command line: config key → seconds.
    let overrides: [String: Double]
    /// How long `stop` waits for the process to end.
    let timeout: Double
    /// Seconds without a question after which the watcher exits (nil: it stays).
    let idle: Double?

    init(_ arguments: ParsedArguments) throws {
        let word = arguments.positionals.first ?? "status"
        guard let action = Action(rawValue: word) else {
            throw CLIError.usage("unknown watch action '\(word)'", hint: "use start, stop, status or run")
        }
        self.action = action
        json = arguments.has("--json")
        sync = arguments.has("--sync")
        var overrides: [String: Double] = [:]
        for (option, key) in [("--debounce", "syncDebounce"), ("--fetch-interval", "syncFetchInterval"), ("--max-backoff", "syncBackoffMax")] {
            guard let text = arguments.value(option) else { continue }
            guard let seconds = Double(text), seconds.isFinite, seconds >= 0 else {
                throw CLIError.usage("\(option) takes a number of seconds, not '\(text)'")
            }
            overrides[key] = seconds
        }
        self.overrides = overrides
        if (sync || !overrides.isEmpty) && (action == .stop || action == .status) {
            throw CLIError.usage("--sync and its settings work with 'quire watch start' and 'quire watch run' only")
        }
        if let text = arguments.value("--timeout") {
            guard action == .stop else { throw CLIError.usage("--timeout works with 'quire watch stop' only") }
            guard let seconds = Double(text), seconds.isFinite, seconds >= 0 else {
                throw CLIError.usage("--timeout takes a number of seconds, not '\(text)'")
            }
            timeout = seconds
        } else {
            timeout = 30
        }
        if let text = arguments.value("--idle") {
            guard action == .start || action == .run else { throw CLIError.usage("--idle works with 'quire watch start' and 'quire watch run' only") }
            guard !sync else { throw CLIError.usage("--idle and --sync cannot be used together", hint: "a syncing watcher stays until it is stopped") }
            guard let seconds = Double(text), seconds.isFinite, seconds > 0 else {
                throw CLIError.usage("--idle takes a number of seconds, not '\(text)'")
            }
            idle = seconds
        } else {
            idle = nil
        }
        if json && action != .status {
            throw CLIError.usage("--json works with 'quire watch status' only")
        }
    }

    func run(_ context: CommandContext) throws {
        let vault = try context.vault()
        let root = vault.root.path
        switch action {
        case .status:
            show(WatchClient.status(realRoot: root), root: root, output: context.output,
                 syncing: SyncDaemonHealth.read(vaultRoot: vault.root)?.running == true)
        case .stop:
            switch WatcherStop.run(root: vault.root, timeout: timeout) {
            case .notRunning:
                context.output.line("no watcher runs for \(root)")
            case .stopped:
                context.output.line("stopped the watcher of \(root)")
            case .stillRunning(let processes, let timeout):
                let pids = processes.map(String.init).joined(separator: ", ")
                let waited = timeout == timeout.rounded() ? "\(Int(timeout)) s" : "\(timeout) s"
                throw CLIError("the watcher of \(root) still runs \(waited) after it was asked to stop (pid \(pids))",
                               hint: "a sync it was running finishes first; 'quire watch status' shows it, 'kill \(processes.map(String.init).joined(separator: " "))' ends it")
            }
        case .run where try idle == nil && (sync || SyncDaemonSettings.load(vault).automatic):
            try SyncWatch.run(vault, overrides: overrides, context: context)
        case .run:
            guard let server = try Self.server(root) else { return }
            let limit = idle.map { seconds in
                // A sync daemon using this watcher keeps it.
                WatchIdleLimit(seconds: seconds, stayAwake: { SyncDaemonHealth.lockHolder(vaultRoot: vault.root) != nil })
            }
            let after = idle.map { " (exits after \(Int($0.rounded(.up))) s nobody asked it anything)" } ?? ""
            context.output.line("watching \(root): \(Count.of(server.folderCount, "folder"))\(after); stop with 'quire watch stop'")
            context.output.flush()
            do throws(WatchError) {
                if try server.run(idle: limit) == .idle {
                    context.output.line("stopped: nobody asked anything for \(Int((idle ?? 0).rounded(.up))) s")
                }
            } catch {
                throw CLIError("the watcher stopped: \(error)", hint: "'quire watch start' starts it again")
            }
        case .start:
            var extra: [String] = sync ? ["--sync"] : []
            for (key, value) in overrides.sorted(by: { $0.key < $1.key }) {
                extra += [["syncDebounce": "--debounce", "syncFetchInterval": "--fetch-interval", "syncBackoffMax": "--max-backoff"][key] ?? "", String(value)]
            }
            if let idle { extra += ["--idle", String(idle)] }
            if let status = WatchClient.status(realRoot: root) {
                context.output.line("a watcher already runs for \(root) (pid \(status.processID))")
                // A sync daemon wanted beside it uses it (never a second watcher).
                if try idle == nil && (sync || SyncDaemonSettings.load(vault).automatic)
                    && SyncDaemonHealth.lockHolder(vaultRoot: vault.root) == nil {
                    let daemon = try Self.startInBackground(vault, environment: context.environment, extra: ["--sync"] + extra.filter { $0 != "--sync" }) {
                        SyncDaemonHealth.lockHolder(vaultRoot: vault.root)
                    }
                    context.output.line("syncing by itself in the background (pid \(daemon)), using that watcher")
                }
                return
            }
            let status = try Self.startInBackground(vault, environment: context.environment, extra: extra) {
                WatchClient.status(realRoot: root)
            }
            // Bring the catalog up to date once with the watcher's token: the next command
            // already looks only at what changed.
            do {
                _ = try VaultCatalog.open(vault: vault, environment: context.environment)
            } catch {
                context.output.error("quire: warning: the catalog could not be brought up to date: \(error)")
            }
            context.output.line("watching \(root) in the background (pid \(status.processID), \(Count.of(status.folders, "folder")))")
            if let blocker = status.blocker {
                context.output.line("note: until it is gone, commands still look at every note: \(blocker)")
            }
        }
    }

    /// The watcher of the vault at `root`; with `sharing`, nil when one already runs (the
    /// caller uses it), else that is an error.
    static func server(_ root: String, sharing: Bool = false) throws -> WatchServer? {
        do throws(WatchError) {
            return try WatchServer(realRoot: root)
        } catch .alreadyRunning where sharing {
            return nil
        } catch {
            throw translate(error, root: root)
        }
    }

    /// Why the watcher of `root` cannot start, in the user's words.
    static func translate(_ error: WatchError, root: String) -> CLIError {
        if case .alreadyRunning = error {
            return CLIError("a watcher already runs for \(root)", hint: "'quire watch status' shows it; 'quire watch stop' stops it")
        }
        return CLIError("cannot watch \(root): \(error)",
                        hint: "raise fs.inotify.max_user_watches if the limit was reached; commands work without a watcher")
    }

    private func show(_ status: WatchStatus?, root: String, output: Output, syncing: Bool) {
        if json {
            output.line(JSON.object([
                ("running", .bool(status != nil)), ("pid", .int(status?.processID)),
                ("folders", .int(status?.folders)), ("since", .string(status.map { DateText.iso($0.startedAt) })),
                ("changesCounted", .int(status?.changesCounted)), ("blocker", .string(status?.blocker)),
                ("syncing", .bool(syncing)),
            ]).rendered(.output))
            return
        }
        guard let status else {
            output.line("no watcher runs for \(root): every command compares each note with the catalog")
            output.line("'quire watch start' starts one")
            return
        }
        output.line("watching \(root) since \(DateText.short(status.startedAt)) (pid \(status.processID))")
        output.line("\(Count.of(status.folders, "folder")) watched, \(status.changesCounted) change batches seen")
        if syncing { output.line("it also syncs the vault by itself ('quire status' shows how it goes)") }
        if let blocker = status.blocker {
            output.line("commands still look at every note: \(blocker)")
        } else {
            output.line("commands look only at the notes it names")
        }
    }
}

extension WatchCommand {
    /// Starts `quire watch run` for the vault in the background (QuireKit `WatcherLauncher`) and
    /// waits until `ready` answers; its failures in the user's words.
    private static func startInBackground<Ready>(_ vault: Vault, environment: [String: String], extra: [String],
                                                 ready: () -> Ready?) throws -> Ready {
        do throws(WatcherLaunchError) {
            return try WatcherLauncher.start(vault, environment: environment, extra: extra, ready: ready)
        } catch .spawnFailed(let reason) {
            throw CLIError("cannot start the watcher: \(reason)", hint: "'quire watch run' runs it in the foreground")
        } catch .exited(let last, let log) {
            throw CLIError("the watcher did not start: \(last)", hint: "the whole log is in \(log)")
        } catch .noAnswer(let child, let log) {
            throw CLIError("the watcher did not answer within 30 seconds (pid \(child))", hint: "see \(log)")
        }
    }
}
