import Foundation
import QuireCore
import QuireSearch
#if canImport(Glibc)
import Glibc
#endif

/// Why the watcher could not be started in the background.
public enum WatcherLaunchError: Error, Equatable, Sendable {
    /// `posix_spawn` failed, or its log could not be opened (`reason`: its `strerror`).
    case spawnFailed(reason: String)
    /// The process ended before it answered; `lastLine` is the last line of its log at `log`.
    case exited(lastLine: String, log: String)
    /// The process did not answer within 30 seconds.
    case noAnswer(processID: Int32, log: String)
}

/// Starts `quire watch run` for a vault as a background process: the running executable
/// (`/proc/self/exe`) in its own session, no terminal, standard output and error appended to
/// `.quire/local/watch.log`, no other descriptor inherited, no signal blocked and the stop
/// signals at their default action. `quire watch start` waits until it answers; a command that
/// opens the catalog of a big vault with no watcher starts one without waiting (`WatcherPolicy`).
public enum WatcherLauncher {
    /// Starts `quire watch run` for `vault` with `extra` arguments and waits until `ready` has an
    /// answer (the watcher's status, or the lock of the daemon it starts), or reports why it
    /// stopped.
    public static func start<Ready>(_ vault: Vault, environment: [String: String], extra: [String],
                                    ready: () -> Ready?) throws(WatcherLaunchError) -> Ready {
        let logPath = logPath(of: vault)
        let child = try spawn(vault, environment: environment, extra: extra)
        for _ in 0..<600 {
            if let answer = ready() { return answer }
            var code: Int32 = 0
            if waitpid(child, &code, WNOHANG) == child {
                let log = (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? ""
                let last = log.split(separator: "\n").last.map(String.init) ?? "it exited"
                throw .exited(lastLine: last, log: logPath)
            }
            usleep(50_000)
        }
        throw .noAnswer(processID: child, log: logPath)
    }

    /// After a command opened the catalog of `vault` (`noteCount` notes) and no watcher
    /// answered for it (`walked`: it did not ask, a walk was wanted): starts one that exits after the policy's idle
    /// time, when the policy says the vault is big enough. It does not wait: the next command
    /// walks once more and stores the watcher's token, the ones after it ask the watcher. Two
    /// commands starting one at once leave one: the second cannot claim the vault's socket and
    /// exits. A failure to start changes nothing for this command (the next one tries again).
    public static func startIfBig(_ vault: Vault, noteCount: Int, walked: Bool, environment: [String: String]) {
        let policy = WatcherPolicy.of(vault, environment: environment)
        guard policy.startsWatcher(noteCount: noteCount) else { return }
        // A walk asked for (`check`, `index --walk`) did not ask the watcher whether it runs.
        guard !walked || WatchClient.status(realRoot: vault.root.path) == nil else { return }
        _ = try? spawn(vault, environment: environment, extra: ["--idle", String(policy.idleSeconds)])
    }

    private static func logPath(of vault: Vault) -> String { vault.root.path + "/.quire/local/watch.log" }

    /// Spawns `quire watch run --vault ROOT EXTRA…` in its own session, inheriting nothing but
    /// `/dev/null` as input and the log as output; returns its pid.
    private static func spawn(_ vault: Vault, environment: [String: String], extra: [String]) throws(WatcherLaunchError) -> pid_t {
        let root = vault.root.path
        try? FileManager.default.createDirectory(atPath: root + "/.quire/local", withIntermediateDirectories: true)
        let logPath = logPath(of: vault)
        let executable = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
            ?? CommandLine.arguments[0]
        // Opened here, not in the child: once this returns, the log shows a watcher was started.
        let log = open(logPath, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o644)
        guard log >= 0 else {
            throw .spawnFailed(reason: "cannot open \(logPath): \(String(cString: strerror(errno)))")
        }
        defer { close(log) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, log, 1)
        posix_spawn_file_actions_adddup2(&actions, log, 2)
        // Nothing else is inherited: a caller waiting for its pipes to close must not wait for
        // the watcher. (glibc ignores a close action on a descriptor closed in the meantime.)
        let inherited = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
        for descriptor in inherited.compactMap({ Int32($0) }) where descriptor > 2 && descriptor != log {
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
        guard spawned == 0 else { throw .spawnFailed(reason: String(cString: strerror(spawned))) }
        return child
    }
}
