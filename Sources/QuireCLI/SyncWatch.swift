import Foundation
import QuireCore
import QuireKit
import QuireSearch
#if canImport(Glibc)
import Glibc
#endif

/// `quire watch run --sync`: the catalog watcher (`WatchServer`) on a thread of its own and the
/// sync daemon (`SyncDaemon`) on this one. `quire watch stop` stops the watcher, which stops the
/// daemon; SIGINT or SIGTERM stop the daemon (after its cycle), which stops the watcher.
enum SyncWatch {
    /// The watcher, handed to its thread.
    private final class ServerBox: @unchecked Sendable {
        let server: WatchServer
        var failure: String?
        init(_ server: WatchServer) { self.server = server }
    }

    static func run(_ vault: Vault, overrides: [String: Double], context: CommandContext) throws {
        let root = vault.root.path
        let daemon: SyncDaemon
        do {
            // First: it blocks the stop signals, which the watcher's thread then inherits.
            daemon = try SyncDaemon(vault: vault, environment: context.environment, overrides: overrides) { line in
                FileHandle.standardError.write(Data(("quire: " + line + "\n").utf8))
            }
        } catch let error as SyncDaemonError {
            if case .alreadyRunning = error {
                throw CLIError(String(describing: error), hint: "'quire status' shows it; 'quire watch stop' stops it", code: .locked)
            }
            throw CLIError("cannot start the sync daemon: \(error)",
                           hint: "raise fs.inotify.max_user_watches if the limit was reached")
        }
        let box = ServerBox(try WatchCommand.server(root))
        var stopPipe: [Int32] = [-1, -1]
        guard pipe(&stopPipe) == 0 else { throw CLIError("cannot start the watcher: pipe failed") }
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
        context.output.line("watching \(root): \(Count.of(box.server.folderCount, "folder")), syncing by itself; stop with 'quire watch stop'")
        context.output.flush()
        var daemonError: Error?
        do {
            try daemon.run(stopDescriptor: stopPipe[0])
        } catch {
            daemonError = error
        }
        _ = WatchClient.stop(realRoot: root)
        ended.wait()
        if let daemonError { throw CLIError("the sync daemon stopped: \(daemonError)", hint: "'quire watch start --sync' starts it again") }
        if let failure = box.failure { throw CLIError("the watcher stopped: \(failure)", hint: "'quire watch start --sync' starts it again") }
    }
}
