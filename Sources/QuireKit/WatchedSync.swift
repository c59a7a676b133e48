import Foundation
import QuireCore
import QuireSearch
#if canImport(Glibc)
import Glibc
#endif

/// Why `quire watch run --sync` stopped.
public enum WatchedSyncError: Error, Equatable, Sendable {
    /// The pipe that tells the daemon the watcher ended could not be made.
    case pipeFailed
    /// The sync daemon stopped with this error.
    case daemonStopped(String)
    /// The catalog watcher stopped with this error.
    case watcherStopped(String)
}

/// `quire watch run --sync`: the catalog watcher (`WatchServer`) on a thread of its own and the
/// sync daemon (`SyncDaemon`) on the caller's. `quire watch stop` stops the watcher, which stops
/// the daemon; SIGINT or SIGTERM stop the daemon (after its cycle), which stops the watcher. When
/// a watcher already runs for the vault (one a command started), the daemon uses it instead of a
/// second one, and `quire watch stop` stops both.
public enum WatchedSync {
    /// How the daemon runs once it started.
    public enum Start: Equatable, Sendable {
        /// Beside its own watcher, which watches `folders` folders.
        case watching(folders: Int)
        /// Using the watcher another process runs for the vault (its pid, when it answered).
        case sharing(watcherProcess: Int32?)
    }

    /// The watcher, handed to its thread.
    private final class ServerBox: @unchecked Sendable {
        let server: WatchServer
        var failure: String?
        init(_ server: WatchServer) { self.server = server }
    }

    /// A watcher of the vault at `root` for this process; nil when one already runs.
    private static func ownWatcher(_ root: String) throws(WatchError) -> WatchServer? {
        do throws(WatchError) {
            return try WatchServer(realRoot: root)
        } catch .alreadyRunning {
            return nil
        } catch {
            throw error
        }
    }

    /// Runs both until they stop. `log` hears the daemon's lines; `started` is told how it runs
    /// once it does. Throws `SyncDaemonError` or `WatchError` when either cannot start,
    /// `WatchedSyncError` when either stopped with an error.
    public static func run(_ vault: Vault, environment: [String: String], overrides: [String: Double],
                           log: @escaping (String) -> Void, started: (Start) -> Void) throws {
        let root = vault.root.path
        // First: it blocks the stop signals, which the watcher's thread then inherits.
        let daemon = try SyncDaemon(vault: vault, environment: environment, overrides: overrides, logLine: log)
        guard let server = try ownWatcher(root) else {
            // One watcher per vault: the daemon uses the one that runs (`quire watch stop` stops
            // both; that watcher stays while a daemon holds its lock).
            started(.sharing(watcherProcess: WatchClient.status(realRoot: root).map { Int32($0.processID) }))
            do {
                try daemon.run()
            } catch {
                throw WatchedSyncError.daemonStopped(String(describing: error))
            }
            return
        }
        let box = ServerBox(server)
        var stopPipe: [Int32] = [-1, -1]
        guard pipe(&stopPipe) == 0 else { throw WatchedSyncError.pipeFailed }
        defer { for end in stopPipe { close(end) } }
        let writeEnd = stopPipe[1]
        let ended = DispatchSemaphore(value: 0)
        let thread = Thread {
            do throws(WatchError) {
                try box.server.run()
            } catch {
                box.failure = String(describing: error)
            }
            var byte = UInt8(0)
            _ = write(writeEnd, &byte, 1)
            ended.signal()
        }
        thread.name = "quire.watch-server"
        thread.start()
        started(.watching(folders: box.server.folderCount))
        var daemonError: Error?
        do {
            try daemon.run(stopDescriptor: stopPipe[0])
        } catch {
            daemonError = error
        }
        _ = WatchClient.stop(realRoot: root)
        ended.wait()
        if let daemonError { throw WatchedSyncError.daemonStopped(String(describing: daemonError)) }
        if let failure = box.failure { throw WatchedSyncError.watcherStopped(failure) }
    }
}
