import Foundation
import Testing

/// Chaos regressions where the git CLI committed while a killed sync's journal still waited.
@Suite("Chaos regressions: a commit made over a waiting journal")
struct JournalCommitRegressionTests {
    /// Soak seed 4001 (`--edges 1`) found it: a sync merged with a conflict, updated the work tree
    /// and died before moving the branch; `git add -A && git commit` then committed the merged
    /// files as a plain child of the old head. The next sync saw the head moved, dropped the
    /// journal, and the merge commit — its second parent and its conflict record — never reached
    /// the branch: the losing text was gone and `quire conflicts` did not list it.
    @Test("a merge whose branch move a crash cut short is kept in history after a git CLI commit",
          arguments: ["before-ref-update", "before-checkout"])
    func mergeSurvivesACommitOverItsJournal(crashPoint: String) throws {
        let (_, first, second) = try ChaosSupport.twoDevices()
        let path = "Shared.md"
        try Harness.write("# Shared\n\nbase line\n", to: first.appendingPathComponent(path))
        try #require(try Harness.run(["sync"], in: first, environment: ChaosSupport.device("first", minute: 1)).code == 0)
        try #require(try Harness.run(["sync"], in: second, environment: ChaosSupport.device("second", minute: 2)).code == 0)
        try Harness.write("# Shared\n\nsecond line\n", to: second.appendingPathComponent(path))
        try #require(try Harness.run(["sync"], in: second, environment: ChaosSupport.device("second", minute: 9)).code == 0)
        // The same line changed here, committed earlier: the second's line wins the merge, this loses.
        try Harness.write("# Shared\n\nfirst line\n", to: first.appendingPathComponent(path))
        let crashed = try Harness.run(["sync"], in: first, environment: ChaosSupport.device("first", minute: 4)
                                      .merging(["QUIRE_FAULT": "\(crashPoint):kill"]) { $1 })
        try #require(crashed.code != 0)
        // The user commits with the git CLI whatever the work tree holds.
        try Harness.write("# Other\n\ncommitted with git\n", to: first.appendingPathComponent("Other.md"))
        try #require(try ChaosSupport.git(["add", "-A"], in: first).code == 0)
        try #require(try ChaosSupport.git(["-c", "user.name=cli", "-c", "user.email=cli@example.invalid",
                                           "commit", "-q", "-m", "edited with the git CLI"], in: first).code == 0)
        let finished = try Harness.run(["sync"], in: first, environment: ChaosSupport.device("first", minute: 5))
        try #require(finished.code == 0, "\(finished.stderr)")
        // The merge it finishes is this device's own, never on its branch: no namesake made it
        // (soak seed 10008 warned "another device also syncs as").
        #expect(!finished.stdout.contains("also syncs as"), "\(finished.stdout)")
        try #require(try Harness.run(["sync"], in: second, environment: ChaosSupport.device("second", minute: 10)).code == 0)

        for vault in [first, second] {
            #expect(try Harness.read(vault.appendingPathComponent(path)).contains("second line"))
            #expect(try Harness.read(vault.appendingPathComponent("Other.md")).contains("committed with git"))
            let (ids, listed) = try ChaosSupport.conflictIDs(in: vault)
            try #require(ids.count == 1, "the merge's conflict record is missing: \(listed.stdout)")
            let shown = try Harness.run(["conflicts", "show", ids[0]], in: vault)
            #expect(shown.code == 0, "\(shown.stderr)")
            #expect(shown.stdout.contains("first line"), "the losing text cannot be shown: \(shown.stdout)")
        }
        let status = try ChaosSupport.git(["status", "--porcelain"], in: first)
        #expect(status.output.isEmpty, "the work tree is not clean: \(status.output)")
    }
}
