import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// The watcher a command starts by itself in a big vault (`QUIRE_WATCH_NOTES` makes three notes
/// "big"): exactly one per vault, reused, never with `watch: off`, gone after its idle time,
/// shared with the sync daemon, started again after its process died.
@Suite("watcher started by a command", .serialized)
struct WatchAutoStartTests {
    /// Three notes, and an environment in which they are a big vault.
    func bigVault(_ extra: [String: String] = [:]) throws -> (TestVault, [String: String]) {
        let vault = try TestVault()
        for index in 1...3 {
            try vault.write(noteText("title: Note \(index)", body: "Word\(index) here.\n"), to: "n\(index).md")
        }
        return (vault, ["QUIRE_WATCH_NOTES": "3"].merging(extra) { $1 })
    }

    /// The pids of `quire watch run` processes for `vault` (`sync`: those with `--sync`).
    func watchProcesses(_ vault: TestVault, sync: Bool = false) -> [Int] {
        let root = vault.root.resolvingSymlinksInPath().path
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return entries.compactMap(Int.init).filter { pid in
            guard let data = FileManager.default.contents(atPath: "/proc/\(pid)/cmdline") else { return false }
            let fields = data.split(separator: 0).map { String(decoding: $0, as: UTF8.self) }
            guard fields.count > 4, fields[1] == "watch", fields[2] == "run", fields.contains(root),
                  WatcherRunning.isAlive(pid) else { return false }
            return fields.contains("--sync") == sync
        }.sorted()
    }

    /// `quire watch status --json`'s pid, once the watcher answers.
    func watcherPID(_ vault: TestVault) throws -> Int {
        var pid: Int?
        try waitUntil("the watcher answers") {
            let run = try vault.run(["watch", "status", "--json"])
            let object = try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any]
            pid = object?["pid"] as? Int
            return pid != nil
        }
        return try #require(pid)
    }

    func method(_ vault: TestVault, _ environment: [String: String]) throws -> String? {
        let run = try vault.run(["index", "--json"], environment: environment)
        let object = try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any]
        return (object?["freshness"] as? [String: Any])?["method"] as? String
    }

    @Test func theFirstCommandStartsExactlyOneWatcherAndTheNextOnesUseIt() throws {
        let (vault, environment) = try bigVault()
        defer { _ = try? vault.run(["watch", "stop"]) }
        // Below the size nothing starts.
        #expect(try vault.run(["list", "--paths"], environment: ["QUIRE_WATCH_NOTES": "4"]).code == 0)
        #expect(!vault.exists(".quire/local/watch.log"))
        // Two commands before it answers: one watcher.
        let first = try vault.run(["search", "word1", "--paths"], environment: environment)
        #expect(first.stdout == "n1.md\n" && first.stderr == "")
        _ = try vault.run(["list", "--paths"], environment: environment)
        let pid = try watcherPID(vault)
        try waitUntil("a watcher that could not claim the vault is gone") { watchProcesses(vault) == [pid] }
        // The next command stores its token, the ones after it ask the watcher.
        _ = try method(vault, environment)
        #expect(try method(vault, environment) == "watcher")
        try vault.write(noteText("title: Note 4", body: "Fresh words.\n"), to: "n4.md")
        #expect(try vault.run(["search", "fresh", "--paths"], environment: environment).stdout == "n4.md\n")
        #expect(try watcherPID(vault) == pid && watchProcesses(vault) == [pid])
    }

    @Test func watchOffStartsNone() throws {
        let (vault, environment) = try bigVault()
        let config = try vault.read(".quire/config.yml")
        try vault.write(config + "watch: off\n", to: ".quire/config.yml")
        #expect(try vault.run(["list", "--paths"], environment: environment).code == 0)
        #expect(try vault.run(["search", "word2", "--paths"], environment: environment).stdout == "n2.md\n")
        #expect(!vault.exists(".quire/local/watch.log"))
        #expect(watchProcesses(vault).isEmpty)
        #expect(try vault.run(["watch", "status"]).stdout.hasPrefix("no watcher runs for "))
        // This device's own config can turn it back on for any size.
        try vault.write("watch: on\n", to: ".quire/local/config.yml")
        defer { _ = try? vault.run(["watch", "stop"]) }
        _ = try vault.run(["list"], environment: ["QUIRE_WATCH_NOTES": "1000"])
        _ = try watcherPID(vault)
    }

    @Test func itExitsAfterItsIdleTimeWhenNobodyAsks() throws {
        let (vault, environment) = try bigVault(["QUIRE_WATCH_IDLE": "0.3"])
        _ = try vault.run(["list"], environment: environment)
        try waitUntil("the idle watcher exited") {
            ((try? vault.read(".quire/local/watch.log")) ?? "").contains("stopped: nobody asked anything")
        }
        try waitUntil("its process is gone") { watchProcesses(vault).isEmpty }
        #expect(try vault.read(".quire/local/watch.log").contains("exits after 1 s nobody asked it anything"))
    }

    @Test func theSyncDaemonUsesTheRunningWatcherAndStopStopsBoth() throws {
        let (vault, environment) = try bigVault(["QUIRE_NOW": ""])
        _ = try vault.run(["list"], environment: environment)
        let watcher = try watcherPID(vault)
        let started = try vault.run(["watch", "start", "--sync", "--fetch-interval", "3600"], environment: environment)
        defer { _ = try? vault.run(["watch", "stop"]) }
        #expect(started.code == 0, "\(started.stderr)")
        #expect(started.stdout.contains("a watcher already runs") && started.stdout.contains("using that watcher"))
        let daemons = watchProcesses(vault, sync: true)
        #expect(daemons.count == 1 && !daemons.contains(watcher))
        #expect(try watchProcesses(vault) == [watcher] && watcherPID(vault) == watcher)
        let stopped = try vault.run(["watch", "stop"])
        #expect(stopped.code == 0 && stopped.stdout.hasPrefix("stopped the watcher"))
        #expect(watchProcesses(vault).isEmpty && watchProcesses(vault, sync: true).isEmpty)
    }

    @Test func aDeadWatcherIsReplacedByTheNextCommand() throws {
        let (vault, environment) = try bigVault()
        defer { _ = try? vault.run(["watch", "stop"]) }
        _ = try vault.run(["list"], environment: environment)
        let first = try watcherPID(vault)
        // Killed outright: its socket (an abstract one, no file) goes with it.
        #expect(kill(pid_t(first), SIGKILL) == 0)
        try waitUntil("the killed watcher is gone") { watchProcesses(vault).isEmpty }
        #expect(try vault.run(["search", "word3", "--paths"], environment: environment).stdout == "n3.md\n")
        let second = try watcherPID(vault)
        #expect(second != first)
        _ = try method(vault, environment)
        #expect(try method(vault, environment) == "watcher")
    }
}

/// Whether a process still runs (not a zombie).
enum WatcherRunning {
    static func isAlive(_ pid: Int) -> Bool {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let close = stat.lastIndex(of: ")") else { return false }
        let state = stat[stat.index(after: close)...].trimmingCharacters(in: .whitespaces)
        return !state.hasPrefix("Z") && !state.hasPrefix("X")
    }
}
