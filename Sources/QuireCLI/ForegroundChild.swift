import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Runs a program as git runs `core.editor`: a child in quire's own process group, so a terminal
/// program is in the terminal's foreground group and may read and configure it; quire ignores
/// SIGINT and SIGQUIT while it waits (the child gets them, with their default actions restored),
/// and restores its own handlers afterwards.
enum ForegroundChild {
    /// How the child ended.
    enum Outcome: Equatable {
        /// It exited with this status.
        case exited(Int32)
        /// A signal ended it.
        case signaled(Int32)
    }

    /// A failed system call while starting or waiting for the child.
    struct StartFailure: Error {
        /// The errno value.
        let code: Int32
        /// The function that failed.
        let function: String
    }

    /// Runs `executable` with `arguments` (argv[0] first) and `environment`, its standard input
    /// and output read from / written to `input` and `output` when given (else quire's), and
    /// waits for it to end.
    static func run(_ executable: String, arguments: [String], environment: [String: String],
                    input: Int32? = nil, output: Int32? = nil) throws(StartFailure) -> Outcome {
        let environmentLines = environment.keys.sorted().compactMap { key in environment[key].map { "\(key)=\($0)" } }
        // strdup'd C strings, freed right after the spawn (the child has its own copies by then).
        let argv = arguments.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        let envp = environmentLines.map { strdup($0) } + [nil]
        defer { envp.forEach { free($0) } }

        var attributes = posix_spawnattr_t()
        guard posix_spawnattr_init(&attributes) == 0 else { throw StartFailure(code: errno, function: "posix_spawnattr_init") }
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
        var actions = posix_spawn_file_actions_t()
        guard posix_spawn_file_actions_init(&actions) == 0 else { throw StartFailure(code: errno, function: "posix_spawn_file_actions_init") }
        defer { posix_spawn_file_actions_destroy(&actions) }
        if let input { posix_spawn_file_actions_adddup2(&actions, input, 0) }
        if let output { posix_spawn_file_actions_adddup2(&actions, output, 1) }

        // Ignored before the spawn, so a Ctrl-C typed in the child never ends quire first.
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
        let spawned = posix_spawn(&child, executable, &actions, &attributes, argv, envp)
        guard spawned == 0 else { throw StartFailure(code: spawned, function: "posix_spawn") }
        var status: Int32 = 0
        while waitpid(child, &status, 0) == -1 {
            guard errno == EINTR else { throw StartFailure(code: errno, function: "waitpid") }
        }
        // WIFEXITED / WEXITSTATUS / WTERMSIG are C macros: the bits as <sys/wait.h> defines them.
        let signal = status & 0x7f
        return signal == 0 ? .exited((status >> 8) & 0xff) : .signaled(signal)
    }
}
