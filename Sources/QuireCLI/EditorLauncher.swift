import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Runs the user's editor the way git runs `core.editor`: `/bin/sh -c '<editor> "$@"'` as a child
/// in quire's own process group, so a terminal editor is in the terminal's foreground group and
/// may read and configure it; quire ignores SIGINT and SIGQUIT while it waits (the editor gets
/// them, with their default actions restored), and restores its own handlers afterwards.
struct EditorLauncher {
    /// How the editor ended.
    enum Outcome: Equatable {
        /// It exited with this status.
        case exited(Int32)
        /// A signal ended it.
        case signaled(Int32)
    }

    /// The editor command line: `$VISUAL`, else `$EDITOR` (non-empty ones), else `vi`.
    let command: String

    init(environment: [String: String]) {
        command = [environment["VISUAL"], environment["EDITOR"]].compactMap { $0 }
            .first { !$0.trimmingCharacters(in: .whitespaces).isEmpty } ?? "vi"
    }

    /// Opens `path` in the editor with `environment` and waits for it to end.
    func edit(path: String, environment: [String: String]) throws -> Outcome {
        let arguments = ["/bin/sh", "-c", "\(command) \"$@\"", "quire-edit", path]
        let environmentLines = environment.keys.sorted().compactMap { key in environment[key].map { "\(key)=\($0)" } }
        // strdup'd C strings, freed right after the spawn (the child has its own copies by then).
        let argv = arguments.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        let envp = environmentLines.map { strdup($0) } + [nil]
        defer { envp.forEach { free($0) } }

        var attributes = posix_spawnattr_t()
        guard posix_spawnattr_init(&attributes) == 0 else { throw startFailure(errno, "posix_spawnattr_init") }
        defer { posix_spawnattr_destroy(&attributes) }
        var defaults = sigset_t()
        sigemptyset(&defaults)
        sigaddset(&defaults, SIGINT)
        sigaddset(&defaults, SIGQUIT)
        var unblocked = sigset_t()
        sigemptyset(&unblocked)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setsigmask(&attributes, &unblocked)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK))

        // Ignored before the spawn, so a Ctrl-C typed in the editor never ends quire first.
        var ignore = sigaction()
        ignore.__sigaction_handler.sa_handler = SIG_IGN
        sigemptyset(&ignore.sa_mask)
        var savedInterrupt = sigaction()
        var savedQuit = sigaction()
        sigaction(SIGINT, &ignore, &savedInterrupt)
        sigaction(SIGQUIT, &ignore, &savedQuit)
        defer {
            sigaction(SIGINT, &savedInterrupt, nil)
            sigaction(SIGQUIT, &savedQuit, nil)
        }

        var child = pid_t()
        let spawned = posix_spawn(&child, "/bin/sh", nil, &attributes, argv, envp)
        guard spawned == 0 else { throw startFailure(spawned, "posix_spawn") }
        var status: Int32 = 0
        while waitpid(child, &status, 0) == -1 {
            guard errno == EINTR else { throw startFailure(errno, "waitpid") }
        }
        // WIFEXITED / WEXITSTATUS / WTERMSIG are C macros: the bits as <sys/wait.h> defines them.
        let signal = status & 0x7f
        return signal == 0 ? .exited((status >> 8) & 0xff) : .signaled(signal)
    }

    private func startFailure(_ code: Int32, _ function: String) -> CLIError {
        CLIError("cannot run the editor '\(command)' (\(function): \(String(cString: strerror(code))))",
                 hint: "set VISUAL or EDITOR to an editor command")
    }
}
