import Foundation
import QuireGit
import QuireTestSupport

/// A temporary directory removed when the value is released.
final class TemporaryDirectory {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory
            .appendingPathComponent("quire-git-tests-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(at: url)
    }

    func path(_ relative: String) -> URL { url.appendingPathComponent(relative) }
}

enum Fixture {
    static let epoch = Date(timeIntervalSince1970: 1_767_225_600) // 2026-01-01T00:00:00Z

    static func signature(_ seconds: TimeInterval = 0) -> Signature {
        Signature(name: "Test", email: "test@example.com", time: epoch.addingTimeInterval(seconds))
    }

    static func write(_ text: String, to path: String, in root: URL) throws {
        let url = root.appendingPathComponent(path)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: url)
    }

    static func read(_ path: String, in root: URL) throws -> String {
        String(decoding: try Data(contentsOf: root.appendingPathComponent(path)), as: UTF8.self)
    }

    /// Stages everything and commits on HEAD with an explicit time.
    @discardableResult
    static func commitAll(_ repo: Repository, _ message: String, at seconds: TimeInterval) throws -> OID {
        let index = try repo.index()
        try index.addAll()
        try index.write()
        let tree = try index.writeTree()
        let parents = try repo.headCommitID().map { [$0] } ?? []
        return try repo.createCommit(tree: tree, parents: parents, message: message,
                                     author: signature(seconds), committer: signature(seconds),
                                     updateReference: "HEAD")
    }

    /// Runs the git CLI (tests only) with a clean environment; returns stdout.
    @discardableResult
    static func git(_ arguments: [String], in directory: URL) throws -> String {
        let run = try ProgramOutput.run("/usr/bin/git", arguments, in: directory, environment: [
            "HOME": directory.path, "GIT_CONFIG_NOSYSTEM": "1", "PATH": "/usr/bin:/bin", "GIT_AUTHOR_NAME": "T",
            "GIT_AUTHOR_EMAIL": "t@e", "GIT_COMMITTER_NAME": "T", "GIT_COMMITTER_EMAIL": "t@e",
        ])
        guard run.code == 0 else {
            throw GitError(function: "git \(arguments.joined(separator: " "))", code: .other(Int(run.code)), message: "git CLI failed")
        }
        return run.text
    }

    /// A free loopback TCP port (bound then released).
    static func freePort() -> Int {
        let (fd, port) = boundSocket()
        close(fd)
        return port
    }

    /// A TCP socket bound to a free loopback port; the caller closes it.
    static func boundSocket() -> (fd: Int32, port: Int) {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) }
        }
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        return (fd, Int(UInt16(bigEndian: address.sin_port)))
    }
}

/// A server process listening on a loopback port, killed on release. Started with
/// posix_spawn and reaped with waitpid: Foundation's `Process.waitUntilExit` can miss the exit
/// of one child while another runs, and SIGTERM may be blocked in children of the test process.
class LoopbackServer {
    let pid: pid_t
    let port: Int

    init(executable: String, arguments: (Int) -> [String], environment: [String: String]? = nil) throws {
        let port = Fixture.freePort()
        self.port = port
        pid = try Fixture.spawn(executable, arguments(port), environment: environment)
        for _ in 0..<400 {
            if GitDaemon.isListening(port) { break }
            usleep(50_000)
        }
    }

    deinit {
        Fixture.stop(pid)
    }
}

extension Fixture {
    /// Starts a tool with its output discarded; the caller reaps it (`stop` or `run`).
    static func spawn(_ tool: String, _ arguments: [String], environment: [String: String]? = nil) throws -> pid_t {
        var pid: pid_t = 0
        let argv: [UnsafeMutablePointer<CChar>?] = ([tool] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        let envp: [UnsafeMutablePointer<CChar>?]? = environment.map { $0.map { strdup("\($0.key)=\($0.value)") } + [nil] }
        defer { envp?.forEach { free($0) } }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        let result = envp.map { env in env.withUnsafeBufferPointer { posix_spawn(&pid, tool, &actions, nil, argv, $0.baseAddress) } }
            ?? posix_spawn(&pid, tool, &actions, nil, argv, environ)
        guard result == 0 else { throw GitError(function: tool, code: .other(Int(result)), message: "cannot start") }
        return pid
    }

    /// Runs a tool to completion.
    static func run(_ tool: String, _ arguments: [String]) throws {
        wait(try spawn(tool, arguments))
    }

    /// Kills and reaps a spawned process.
    static func stop(_ pid: pid_t) {
        kill(pid, SIGKILL)
        wait(pid)
    }

    private static func wait(_ pid: pid_t) {
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
    }
}

/// A `git daemon` serving a base directory with push enabled.
final class GitDaemon: LoopbackServer {
    init(base: URL) throws {
        try super.init(executable: "/usr/lib/git-core/git-daemon", arguments: { port in
            ["--reuseaddr", "--export-all", "--enable=receive-pack", "--listen=127.0.0.1",
             "--port=\(port)", "--base-path=\(base.path)", base.path]
        }, environment: ["HOME": base.path, "PATH": "/usr/bin:/bin", "GIT_CONFIG_NOSYSTEM": "1"])
    }

    static func isListening(_ port: Int) -> Bool {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = UInt16(port).bigEndian
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
            }
        }
    }
}
