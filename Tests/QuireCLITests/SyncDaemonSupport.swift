import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// A `quire watch run --sync` process on one device, with short intervals, its output in files.
final class DaemonProcess {
    let device: Device
    let pid: pid_t
    let output: URL
    private var exitStatus: Int32?

    /// Starts the daemon of `device` (real clock: `QUIRE_NOW` empty), `settings` as flags.
    init(_ device: Device, settings: [String] = ["--debounce", "0.3", "--fetch-interval", "0.5", "--max-backoff", "2"],
         environment extra: [String: String] = [:]) throws {
        self.device = device
        output = try Harness.temporaryDirectory("quire-daemon")
        var environment = Harness.environment(home: device.root.appendingPathComponent(".test-home"),
                                              extra: ["QUIRE_DEVICE": device.name, "QUIRE_NOW": ""])
        for (key, value) in extra { environment[key] = value }
        let arguments = [Harness.binary.path, "watch", "run", "--sync", "--vault", device.root.path] + settings
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, output.appendingPathComponent("out").path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_addopen(&actions, 2, output.appendingPathComponent("err").path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        let argv = arguments.map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { for pointer in envp { free(pointer) } }
        var child = pid_t()
        let spawned = posix_spawn(&child, arguments[0], &actions, nil, argv, envp)
        try #require(spawned == 0, "posix_spawn failed: \(spawned)")
        pid = child
        // Ready once it wrote its health record (after its first cycle).
        try waitUntil("the daemon of \(device.name) started") { self.health()?["lastCycle"] != nil || self.exited }
    }

    deinit { if exitStatus == nil { _ = stop() } }

    /// Its standard error so far.
    var log: String { (try? String(contentsOf: output.appendingPathComponent("err"), encoding: .utf8)) ?? "" }

    var exited: Bool {
        if exitStatus != nil { return true }
        var status: Int32 = 0
        if waitpid(pid, &status, WNOHANG) == pid { exitStatus = status; return true }
        return false
    }

    /// `quire status --json`'s `daemon` object.
    func health() -> [String: Any]? {
        guard let run = try? device.run(["status", "--json"]), run.code == 0,
              let object = try? JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any] else { return nil }
        return object["daemon"] as? [String: Any]
    }

    /// Sends `signal` and waits for the exit; returns the exit code (-signal when killed by one).
    @discardableResult
    func stop(_ signal: Int32 = SIGTERM) -> Int32 {
        if exitStatus == nil {
            kill(pid, signal)
            var status: Int32 = 0
            while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
            exitStatus = status
        }
        let status = exitStatus ?? 0
        return (status & 0x7f) == 0 ? (status >> 8) & 0xff : -(status & 0x7f)
    }
}

/// Waits (up to `limit` seconds, generous: the machine is shared) until `condition` holds.
func waitUntil(_ what: String, limit: Double = 60, sourceLocation: SourceLocation = #_sourceLocation,
               _ condition: () throws -> Bool) throws {
    let deadline = Date().addingTimeInterval(limit)
    while Date() < deadline {
        if try condition() { return }
        usleep(100_000)
    }
    Issue.record("timed out waiting until \(what)", sourceLocation: sourceLocation)
    throw WaitTimeout(what: what)
}

struct WaitTimeout: Error {
    let what: String
}

extension SyncWorld {
    /// The remote's file `path` on branch main, or nil.
    func remoteFile(_ path: String) throws -> String? {
        let run = try git(["show", "main:\(path)"])
        return run.code == 0 ? run.stdout : nil
    }
}
