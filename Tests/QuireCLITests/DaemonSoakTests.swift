import Foundation
import Testing

/// The many-device soak of the sync daemon (`Benchmarks/daemon-soak.py`), short: three devices,
/// each running `quire watch run --sync` against one bare repository (two by its path, one through
/// a git daemon on loopback), tokens appended to shared and own notes for a minute while daemons
/// are killed with SIGKILL and restarted and the git daemon stops now and then. The devices must
/// converge byte for byte with every token in the vault or listed by `quire conflicts`, and every
/// daemon must stop cleanly. (The long run's figures: Docs/benchmarks.md.)
@Suite("Daemon soak, short")
struct DaemonSoakTests {
    @Test("three daemons, a path and a git:// remote, kills and outages for a minute: converged, nothing lost")
    func threeDevicesForAMinute() throws {
        let driver = Harness.packageRoot.appendingPathComponent("Benchmarks/daemon-soak.py")
        let environment = ["PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin",
                           "TMPDIR": NSTemporaryDirectory(), "LANG": "C.UTF-8"]
        let run = try ChaosSupport.capture(["python3", driver.path, "--binary", Harness.binary.path, "--seed", "3",
                                            "--devices", "3", "--seconds", "60", "--kill-rate", "0.08",
                                            "--outage-every", "15", "30", "--outage-length", "4", "8", "--settle", "120"],
                                           in: Harness.packageRoot, environment: environment, withErrors: true)
        #expect(run.code == 0, "daemon soak failed:\n\(run.output)")
        #expect(ChaosSupport.figure("lost", in: run.output) == 0, "\(run.output)")
        #expect((ChaosSupport.figure("edits", in: run.output) ?? 0) > 50, "\(run.output)")
        #expect((ChaosSupport.figure("daemon_kills", in: run.output) ?? 0) > 0, "\(run.output)")
        #expect((ChaosSupport.figure("pushes", in: run.output) ?? 0) > 5, "\(run.output)")
        #expect(ChaosSupport.figure("converged_identical_trees", in: run.output) == 1, "\(run.output)")
    }
}
