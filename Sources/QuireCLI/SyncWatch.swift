import Foundation
import QuireCore
import QuireKit
import QuireSearch

/// `quire watch run --sync`: QuireKit's `WatchedSync` (the catalog watcher, or the one that
/// runs already, and the sync daemon), its lines on standard error and its failures in the
/// user's words.
enum SyncWatch {
    static func run(_ vault: Vault, overrides: [String: Double], context: CommandContext) throws {
        let root = vault.root.path
        do {
            try WatchedSync.run(vault, environment: context.environment, overrides: overrides, log: { line in
                FileHandle.standardError.write(Data(("quire: " + line + "\n").utf8))
            }, started: { start in
                switch start {
                case .watching(let folders):
                    context.output.line("watching \(root): \(Count.of(folders, "folder")), syncing by itself; stop with 'quire watch stop'")
                case .sharing(let watcher):
                    let pid = watcher.map { " (pid \($0))" } ?? ""
                    context.output.line("syncing \(root) by itself, using the watcher that runs\(pid); stop with 'quire watch stop'")
                }
                context.output.flush()
            })
        } catch let error as SyncDaemonError {
            if case .alreadyRunning = error {
                throw CLIError(String(describing: error), hint: "'quire status' shows it; 'quire watch stop' stops it", code: .locked)
            }
            throw CLIError("cannot start the sync daemon: \(error)",
                           hint: "raise fs.inotify.max_user_watches if the limit was reached")
        } catch let error as WatchError {
            throw WatchCommand.translate(error, root: root)
        } catch WatchedSyncError.pipeFailed {
            throw CLIError("cannot start the watcher: pipe failed")
        } catch WatchedSyncError.daemonStopped(let reason) {
            throw CLIError("the sync daemon stopped: \(reason)", hint: "'quire watch start --sync' starts it again")
        } catch WatchedSyncError.watcherStopped(let reason) {
            throw CLIError("the watcher stopped: \(reason)", hint: "'quire watch start --sync' starts it again")
        }
    }
}
