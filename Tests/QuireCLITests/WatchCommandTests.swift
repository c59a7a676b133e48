import Foundation
import Testing
#if canImport(Glibc)
import Glibc
import QuireTestSupport
#endif

/// `quire watch`: the background process runs for real, commands ask it, and after every kind
/// of change a full walk (`quire index --walk`) finds nothing the watcher's answer missed.
@Suite("quire watch", .serialized)
struct WatchCommandTests {
    /// `quire index --json`'s freshness object and counts.
    func index(_ vault: TestVault, walk: Bool = false) throws -> [String: Any] {
        let run = try vault.run(["index", "--json"] + (walk ? ["--walk"] : []))
        try #require(run.code == 0, "index failed: \(run.stderr)")
        let object = try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any]
        return try #require(object)
    }

    func method(_ report: [String: Any]) -> String? {
        (report["freshness"] as? [String: Any])?["method"] as? String
    }

    @Test func startStatusStopAndTheCommandsAnswerFromItsList() throws {
        let vault = try TestVault()
        try vault.write(noteText("title: Alpha"), to: "alpha.md")
        try vault.write(noteText("title: Beta", body: "Beta body.\n"), to: "Work/beta.md")
        #expect(try vault.run(["watch", "status"]).stdout.hasPrefix("no watcher runs for "))
        try vault.withWatcher {
            let again = try vault.run(["watch", "start"])
            #expect(again.code == 0 && again.stdout.hasPrefix("a watcher already runs for "))
            let status = try vault.run(["watch", "status", "--json"])
            let object = try JSONSerialization.jsonObject(with: Data(status.stdout.utf8)) as? [String: Any]
            #expect(object?["running"] as? Bool == true && object?["folders"] as? Int == 2)
            // 'watch start' brought the catalog up to date with the watcher's token.
            let quiet = try index(vault)
            #expect(method(quiet) == "watcher")
            #expect((quiet["freshness"] as? [String: Any])?["checked"] as? Int == 0)

            // An edit that keeps the size: only that note is looked at, and it is found.
            try vault.write(noteText("title: Alpha", body: "Gamma.\n"), to: "alpha.md")
            let search = try vault.run(["search", "gamma", "--paths"])
            #expect(search.stdout == "alpha.md\n")
            #expect(try vault.run(["search", "body", "--paths"]).stdout == "Work/beta.md\n")
            let after = try index(vault)
            #expect(method(after) == "watcher" && after["changed"] as? Int == 0)
            #expect(try index(vault, walk: true)["changed"] as? Int == 0)

            // A note deleted and one created in an existing folder.
            try FileManager.default.removeItem(at: vault.url("Work/beta.md"))
            try vault.write(noteText("title: Delta"), to: "Work/delta.md")
            #expect(try vault.run(["list", "--paths"]).stdout == "Work/delta.md\nalpha.md\n")
            let walked = try index(vault, walk: true)
            #expect(walked["added"] as? Int == 0 && walked["removed"] as? Int == 0 && walked["changed"] as? Int == 0)
        }
        #expect(try vault.run(["watch", "status"]).stdout.hasPrefix("no watcher runs for "))
        let stopped = try vault.run(["watch", "stop"])
        #expect(stopped.code == 0 && stopped.stdout.hasPrefix("no watcher runs for "))
        #expect(method(try index(vault)) == "walk")
    }

    @Test func aSymlinkIntoTheVaultOrChangedIgnoreRulesMakeCommandsWalk() throws {
        let vault = try TestVault()
        try vault.write(noteText("title: Kept"), to: "kept.md")
        try vault.write(noteText("title: Hidden later"), to: "Notes/later.md")
        try vault.withWatcher {
            #expect(method(try index(vault)) == "watcher")
            try FileManager.default.createSymbolicLink(atPath: vault.url("Alias").path, withDestinationPath: vault.url("Notes").path)
            let linked = try index(vault)
            #expect(method(linked) == "walk")
            #expect(((linked["freshness"] as? [String: Any])?["watcherSaid"] as? String)?.contains("symlink Alias") == true)
            #expect(try vault.run(["list", "--paths"]).stdout == "Alias/later.md\nkept.md\n")
            try FileManager.default.removeItem(at: vault.url("Alias"))
            _ = try index(vault)
            #expect(method(try index(vault)) == "watcher")
            #expect(try vault.run(["list", "--paths"]).stdout == "Notes/later.md\nkept.md\n")

            // A rule the watcher cannot see (outside the vault's folders) is noticed by its stamp.
            try FileManager.default.createDirectory(at: vault.url(".git/info"), withIntermediateDirectories: true)
            try vault.write("Notes/\n", to: ".git/info/exclude")
            #expect(try vault.run(["list", "--paths"]).stdout == "kept.md\n")
            #expect(method(try index(vault)) == "watcher")
            // A .gitignore inside the vault is an event.
            try vault.write("kept.md\n", to: ".gitignore")
            #expect(try vault.run(["list", "--paths"]).stdout == "")
        }
    }

    /// A note the rules hide now without any rule file changing (untracked while a `.gitignore`
    /// line covers it) leaves `list` and `search` once the watcher names it, as a walk leaves it out.
    @Test func aNoteTheRulesHideNowLeavesListAndSearchWhenTheWatcherNamesIt() throws {
        let vault = try TestVault()
        try vault.write(noteText("title: Alpha", body: "Apple.\n"), to: "alpha.md")
        try vault.write(noteText("title: Beta", body: "Apple.\n"), to: "beta.md")
        try vault.write(try vault.read(".gitignore") + "alpha.md\n", to: ".gitignore")
        #expect(try vault.git(["add", "-f", "alpha.md"]) == 0)
        try vault.commitAll()
        try vault.withWatcher {
            #expect(try vault.run(["list", "--paths"]).stdout == "alpha.md\nbeta.md\n")
            #expect(try vault.git(["rm", "-q", "--cached", "alpha.md"]) == 0)
            try vault.write(noteText("title: Alpha", body: "Apple pie.\n"), to: "alpha.md")
            #expect(try vault.run(["list", "--paths"]).stdout == "beta.md\n")
            #expect(try vault.run(["search", "apple", "--paths"]).stdout == "beta.md\n")
            #expect(method(try index(vault)) == "watcher")
        }
    }

    @Test func randomChangesLeaveNothingAWalkWouldFind() throws {
        let vault = try TestVault()
        var generator = SeededGenerator(seed: 20261129)
        let words = ["apple", "birch", "cedar", "delta", "ember", "fjord", "grove", "heron"]
        var notes: [String] = []
        var folders = ["", "A", "B/C"]
        for folder in folders where !folder.isEmpty {
            try FileManager.default.createDirectory(at: vault.url(folder), withIntermediateDirectories: true)
        }
        func place(_ folder: String, _ name: String) -> String { folder.isEmpty ? name : folder + "/" + name }
        try vault.withWatcher {
            for step in 0..<40 {
                let word = words[Int(generator.next() % UInt64(words.count))]
                switch notes.isEmpty ? 0 : generator.next() % 8 {
                case 0, 1:
                    let path = place(folders[Int(generator.next() % UInt64(folders.count))], "n\(step).md")
                    try vault.write(noteText("title: Step \(step)", body: "\(word)\n"), to: path)
                    notes.append(path)
                case 2, 3:
                    // Same size, new word: only the content tells.
                    let path = notes[Int(generator.next() % UInt64(notes.count))]
                    let text = try vault.read(path)
                    try vault.write(String(text.dropLast(6)) + word + "\n", to: path)
                case 4:
                    let path = notes.remove(at: Int(generator.next() % UInt64(notes.count)))
                    try FileManager.default.removeItem(at: vault.url(path))
                case 5:
                    let index = Int(generator.next() % UInt64(notes.count))
                    let target = place(folders[Int(generator.next() % UInt64(folders.count))], "m\(step).md")
                    try FileManager.default.moveItem(at: vault.url(notes[index]), to: vault.url(target))
                    notes[index] = target
                case 6:
                    let folder = "F\(step)"
                    try FileManager.default.createDirectory(at: vault.url(folder + "/Deep"), withIntermediateDirectories: true)
                    try vault.write(noteText("title: Deep \(step)", body: "\(word)\n"), to: folder + "/Deep/d.md")
                    notes.append(folder + "/Deep/d.md")
                    folders.append(folder)
                default:
                    let folder = folders[Int(generator.next() % UInt64(folders.count - 1)) + 1]
                    let renamed = "R\(step)"
                    try FileManager.default.moveItem(at: vault.url(folder), to: vault.url(renamed))
                    notes = notes.map { $0.hasPrefix(folder + "/") ? renamed + $0.dropFirst(folder.count) : $0 }
                    folders = folders.filter { $0 != folder && !$0.hasPrefix(folder + "/") } + [renamed]
                }
                let listed = try vault.run(["list", "--paths", "--sort", "path"])
                #expect(listed.stdout == notes.sorted().map { $0 + "\n" }.joined(), "step \(step)")
                // ("touched" may be non-zero: a note indexed within 50 ms of its write is
                // always hashed again, git's racily-clean rule.)
                let walked = try index(vault, walk: true)
                let missed = ["added", "changed", "removed"].filter { walked[$0] as? Int != 0 }
                #expect(missed.isEmpty, "step \(step): the walk found \(missed) after the watcher's answer")
            }
            #expect(method(try index(vault)) == "watcher")
        }
    }

    @Test func aPlainKillStopsTheWatcherWhateverItsStarterBlocked() throws {
        // The test runner's child processes inherit a mask that blocks most signals.
        let vault = try TestVault()
        try vault.withWatcher {
            let status = try vault.run(["watch", "status", "--json"])
            let object = try JSONSerialization.jsonObject(with: Data(status.stdout.utf8)) as? [String: Any]
            let pid = try #require(object?["pid"] as? Int)
            #expect(kill(pid_t(pid), SIGTERM) == 0)
            var running = true
            for _ in 0..<100 where running {
                running = try vault.run(["watch", "status", "--json"]).stdout.contains("\"running\": true")
                if running { Thread.sleep(forTimeInterval: 0.05) }
            }
            #expect(!running, "SIGTERM did not stop the watcher")
            #expect(method(try index(vault)) == "walk")
        }
    }

    @Test func unknownActionIsAUsageError() throws {
        let vault = try TestVault()
        let run = try vault.run(["watch", "begin"])
        #expect(run.code == 2)
        #expect(run.stderr.hasPrefix("quire: error: unknown watch action 'begin'\nhint: use start, stop, status or run\nusage: quire watch"))
        let json = try vault.run(["watch", "start", "--json"])
        #expect(json.code == 2)
        #expect(json.stderr.hasPrefix("quire: error: --json works with 'quire watch status' only\nusage: quire watch"))
    }
}
