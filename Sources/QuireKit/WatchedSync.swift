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
/// the daemon; SIGINT or SIGTERM stop the daemon (after its cycle), which stops the watcher.
public enum WatchedSync {
    /// The watcher, handed to its thread.
    private final class ServerBox: @unchecked Sendable {
        let server: WatchServer
        var failure: String?
        init(_ server: WatchServer) { self.server = server }
    }

    /// Runs both until they stop. `log` hears the daemon's lines; `started` is told how many
    /// folders are watched once both run. Throws `SyncDaemonError` or `WatchError` when either
    /// cannot start, `WatchedSyncError` when either stopped with an error.
    public static func run(_ vault: Vault, environment: [String: String], overrides: [String: Double],
                           log: @escaping (String) -> Void, started: (_ folders: Int) -> Void) throws {
        let root = vault.root.path
        // First: it blocks the stop signals, which the watcher's thread then inherits.
        let daemon = try SyncDaemon(vault: vault, environment: environment, overrides: overrides, logLine: log)
        let box = ServerBox(try WatchServer(realRoot: root))
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
        started(box.server.folderCount)
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
