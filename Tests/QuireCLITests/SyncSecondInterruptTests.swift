import Foundation
#if canImport(Glibc)
import Glibc
#endif
import Testing

/// A second Ctrl-C stops a sync at once (issue 21): the first one, while the sync waits on a
/// server that never answers, only asks it to stop at the next safe point (and says so); the
/// second one ends the process with SIGINT instead of waiting for the network timeout.
@Suite struct SyncSecondInterruptTests {
    /// Polls until `file` exists and holds `text` (an event in another process, not a time limit;
    /// false after half a minute, for a process that never gets there).
    static func waitFor(_ text: String, in file: URL) -> Bool {
        for _ in 0..<600 {
            if let data = FileManager.default.contents(atPath: file.path),
               text.isEmpty || String(decoding: data, as: UTF8.self).contains(text) {
                return true
            }
            usleep(50_000)
        }
        return false
    }

    @Test func aSecondInterruptStopsAtOnce() throws {
        let directory = try Harness.temporaryDirectory("quire-second-interrupt")
        let portFile = directory.appendingPathComponent("port"), accepted = directory.appendingPathComponent("accepted")
        // A git:// server that accepts connections, says so, and never answers.
        let server = Process()
        server.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        server.arguments = ["python3", "-c", """
            import os, socket, sys
            listener = socket.socket(); listener.bind(("127.0.0.1", 0)); listener.listen(4)
            open(sys.argv[1] + ".part", "w").write(str(listener.getsockname()[1])); os.rename(sys.argv[1] + ".part", sys.argv[1])
            connections = []
            while True:
                connections.append(listener.accept()[0]); open(sys.argv[2], "w").write("accepted")
            """, portFile.path, accepted.path]
        server.standardOutput = FileHandle.nullDevice
        server.standardError = FileHandle.nullDevice
        try server.run()
        defer { kill(server.processIdentifier, SIGKILL); server.waitUntilExit() }
        try #require(Self.waitFor("", in: portFile))  // the file exists once the server listens
        let port = try Harness.read(portFile)

        let a = try SyncErrorTests.lonely(try SyncWorld())
        try #require(try a.run(["remote", "--replace", "git://127.0.0.1:\(port)/vault.git"]).code == 0)
        let errors = directory.appendingPathComponent("stderr")
        try #require(FileManager.default.createFile(atPath: errors.path, contents: nil))
        let errorHandle = try FileHandle(forWritingTo: errors)
        defer { try? errorHandle.close() }
        let sync = Process()
        sync.executableURL = Harness.binary
        sync.arguments = ["sync"]
        sync.currentDirectoryURL = a.root
        sync.environment = Harness.environment(home: directory, extra: ["QUIRE_DEVICE": "a", "QUIRE_TIMEOUT": "600"])
        sync.standardOutput = FileHandle.nullDevice
        sync.standardError = errorHandle
        sync.standardInput = FileHandle.nullDevice
        try sync.run()
        defer { if sync.isRunning { kill(sync.processIdentifier, SIGKILL) } }

        // The sync is fetching from the silent server: the first Ctrl-C is acknowledged …
        try #require(Self.waitFor("accepted", in: accepted))
        kill(sync.processIdentifier, SIGINT)
        let acknowledged = Self.waitFor("stopping the sync at a safe point", in: errors)
        let said = try Harness.read(errors)
        try #require(acknowledged, "\(said)")
        // … and the second ends the process with SIGINT.
        kill(sync.processIdentifier, SIGINT)
        sync.waitUntilExit()
        #expect(sync.terminationReason == .uncaughtSignal)
        #expect(sync.terminationStatus == SIGINT)
        #expect(try Harness.read(errors).contains("quire: stopping at once"))
        // Nothing was half-done: the next sync (to a reachable remote) goes on from the commit.
        let world = try SyncWorld()
        try #require(try a.run(["remote", "--replace", world.bare.path]).code == 0)
        try a.sync(now: "2026-11-29T12:10:00Z")
        #expect(try world.git(["show", "main:one.md"]).stdout == SyncMergeTests.base)
        #expect(SyncInterruptTests.temporaries(in: a.root) == [])
    }
}
