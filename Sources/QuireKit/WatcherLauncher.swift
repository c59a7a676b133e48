import Foundation
import QuireCore
import QuireSearch
#if canImport(Glibc)
import Glibc
#endif

/// Why the watcher could not be started in the background.
public enum WatcherLaunchError: Error, Equatable, Sendable {
    /// `posix_spawn` failed (`reason`: its `strerror`).
    case spawnFailed(reason: String)
    /// The process ended before it answered; `lastLine` is the last line of its log at `log`.
    case exited(lastLine: String, log: String)
    /// The process did not answer within 30 seconds.
    case noAnswer(processID: Int32, log: String)
}

/// Starts `quire watch run` for a vault as a background process: the running executable
/// (`/proc/self/exe`) in its own session, no terminal, standard output and error appended to
/// `.quire/local/watch.log`, no other descriptor inherited, no signal blocked and the stop
/// signals at their default action. Waits until the watcher answers on its socket.
public enum WatcherLauncher {
    /// Starts the watcher of `vault` with `environment` and the extra arguments of
    /// `quire watch run` (e.g. `--sync`); returns its status once it answers.
    public static func start(_ vault: Vault, environment: [String: String], extra: [String]) throws -> WatchStatus {
        let root = vault.root.path
        let logDirectory = root + "/.quire/local"
        try? FileManager.default.createDirectory(atPath: logDirectory, withIntermediateDirectories: true)
        let logPath = logDirectory + "/watch.log"
        let executable = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
            ?? CommandLine.arguments[0]
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, logPath, O_WRONLY | O_CREAT | O_APPEND, 0o644)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        // Nothing else is inherited: a caller waiting for its pipes to close must not wait for
        // the watcher. (glibc ignores a close action on a descriptor closed in the meantime.)
        let open = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
        for descriptor in open.compactMap({ Int32($0) }) where descriptor > 2 {
            posix_spawn_file_actions_addclose(&actions, descriptor)
        }
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        // Its own session (no terminal), no signal blocked, and the usual stop signals at their
        // default action whatever the caller blocked or ignored: `kill` must stop it.
        var none = sigset_t()
        sigemptyset(&none)
        posix_spawnattr_setsigmask(&attributes, &none)
        var stopSignals = sigset_t()
        sigemptyset(&stopSignals)
        for signal in [SIGTERM, SIGINT, SIGHUP, SIGQUIT] { sigaddset(&stopSignals, signal) }
        posix_spawnattr_setsigdefault(&attributes, &stopSignals)
        posix_spawnattr_setflags(&attributes, Int16(0x80 | 0x08 | 0x04))  // SETSID | SETSIGMASK | SETSIGDEF
        let arguments = [executable, "watch", "run", "--vault", root] + extra
        var argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        var envp: [UnsafeMutablePointer<CChar>?] = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { for pointer in envp { free(pointer) } }
        var child = pid_t()
        let spawned = posix_spawn(&child, executable, &actions, &attributes, &argv, &envp)
        guard spawned == 0 else { throw WatcherLaunchError.spawnFailed(reason: String(cString: strerror(spawned))) }
        // Wait until it answers, or report why it stopped.
        for _ in 0..<600 {
            if let status = WatchClient.status(realRoot: root) { return status }
            var code: Int32 = 0
            if waitpid(child, &code, WNOHANG) == child {
                let log = (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? ""
                let last = log.split(separator: "\n").last.map(String.init) ?? "it exited"
                throw WatcherLaunchError.exited(lastLine: last, log: logPath)
            }
            usleep(50_000)
        }
        throw WatcherLaunchError.noAnswer(processID: child, log: logPath)
    }
}
