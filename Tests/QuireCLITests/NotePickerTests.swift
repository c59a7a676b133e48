import Foundation
import QuireTestSupport
import Testing

/// `quire edit` / `show` without a NOTE: a picker on a terminal (built in, or fzf when on PATH),
/// the usual usage error elsewhere. Terminal runs go through `Tests/Servers/pty-editor.py`.
@Suite("quire edit/show note picker")
struct NotePickerTests {
    static let groceries = noteText("title: Groceries list\nupdatedAt: 2026-01-01T00:00:00+00:00", body: "Milk.\n")
    static let agenda = noteText("title: Meeting agenda\nupdatedAt: 2026-02-01T00:00:00+00:00", body: "Agenda body.\n")
    static let minutes = noteText("title: Meeting notes\nupdatedAt: 2026-03-01T00:00:00+00:00", body: "Minutes body.\n")
    /// The picker's order: most recently updated first.
    static let listed = "  1  Meeting notes  (Work/)\n  2  Meeting agenda\n  3  Groceries list\n"

    static func vault() throws -> TestVault {
        let vault = try TestVault()
        try vault.write(groceries, to: "groceries.md")
        try vault.write(agenda, to: "meeting-agenda.md")
        try FileManager.default.createDirectory(at: vault.url("Work"), withIntermediateDirectories: true)
        try vault.write(minutes, to: "Work/meeting-notes.md")
        return vault
    }

    /// The test process's PATH.
    static let searchPath = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"

    /// The real fzf, when it is installed (TEST_PACKAGES in the Makefile has it).
    static let realFzf = searchPath.split(separator: ":").map { "\($0)/fzf" }.first { FileManager.default.isExecutableFile(atPath: $0) }

    /// Runs quire with `arguments` on a pseudo-terminal, typing each step's keys once its text
    /// appears; `EDITOR` appends a line to the note. quire's PATH is `path` (by default an empty
    /// folder, so an installed fzf is not found and the built-in picker runs). Gives up (exit 124)
    /// after 60 seconds.
    static func onTerminal(_ vault: TestVault, _ arguments: [String], steps: [(waitFor: String, keys: String)],
                           path: String? = nil) throws -> (code: Int32, screen: String) {
        let driver = Harness.packageRoot.appendingPathComponent("Tests/Servers/pty-editor.py")
        var environment = Harness.environment(home: vault.root.appendingPathComponent(".test-home"),
                                              extra: ["QUIRE_NOW": "2026-11-30T08:00:00Z", "TERM": "xterm"])
        environment["EDITOR"] = try TestVault.script("echo appended >> \"$1\"")
        environment.removeValue(forKey: "VISUAL")
        let quirePath = try path ?? Harness.temporaryDirectory("quire-empty-path").path
        let keys = steps.flatMap { [$0.waitFor, $0.keys] }
        let command = ["/usr/bin/env", "PATH=\(quirePath)", Harness.binary.path] + arguments
        let run = try ChaosSupport.capture(["python3", driver.path, "60"] + keys + ["--"] + command,
                                           in: vault.root, environment: environment, withErrors: true)
        return (run.code, run.output.replacingOccurrences(of: "\r\n", with: "\n"))
    }

    /// `text` after `quire edit` appended a line and stamped updatedAt.
    static func edited(_ text: String) -> String {
        text.replacingOccurrences(of: #"updatedAt: 2026-0\d-01T00:00:00\+00:00"#, with: "updatedAt: 2026-11-30T08:00:00+00:00",
                                  options: .regularExpression) + "appended\n"
    }

    static let prompt = "note (number or words, Enter for none): "

    @Test(arguments: [["edit"], ["show"]])
    func withoutATerminalNoteIsAMissingArgument(_ arguments: [String]) throws {
        let vault = try Self.vault()
        let before = try TestVault.snapshot(vault.root)
        let run = try vault.run(arguments, stdin: "1\n")
        #expect(run.code == 2)
        let usage = arguments == ["edit"] ? "edit [NOTE]" : "show [NOTE] [--json] [--raw] [--render] [--at REV]"
        #expect(run.stderr == """
            quire: error: missing argument NOTE
            hint: without NOTE, a picker of the vault's notes is offered only on a terminal
            usage: quire \(usage)
            hint: see 'quire \(arguments[0]) --help'

            """)
        #expect(run.stdout.isEmpty)
        #expect(try TestVault.snapshot(vault.root) == before)
        let outside = try Harness.run(arguments, in: try Harness.temporaryDirectory())
        #expect(outside.code == 2)
        #expect(outside.stderr.hasPrefix("quire: error: missing argument NOTE\n"), "\(outside.stderr)")
    }

    @Test func builtInPickerChoosesByNumber() throws {
        let vault = try Self.vault()
        let run = try Self.onTerminal(vault, ["edit"], steps: [(Self.prompt, "3\\r")])
        #expect(run.code == 0, "\(run.screen)")
        #expect(run.screen.hasPrefix(Self.listed + Self.prompt + "3\n"), "\(run.screen)")
        #expect(try vault.read("groceries.md") == Self.edited(Self.groceries))
        #expect(try vault.read("meeting-agenda.md") == Self.agenda)
        #expect(try vault.read("Work/meeting-notes.md") == Self.minutes)
    }

    @Test func builtInPickerChoosesByWordsAndLettersInOrder() throws {
        let vault = try Self.vault()
        var run = try Self.onTerminal(vault, ["edit"], steps: [(Self.prompt, "AGENDA\\r")])
        #expect(run.code == 0, "\(run.screen)")
        #expect(try vault.read("meeting-agenda.md") == Self.edited(Self.agenda))
        run = try Self.onTerminal(vault, ["edit"], steps: [(Self.prompt, "grcrs\\r")])
        #expect(run.code == 0, "\(run.screen)")
        #expect(try vault.read("groceries.md") == Self.edited(Self.groceries))
        #expect(try vault.read("Work/meeting-notes.md") == Self.minutes)
    }

    @Test func builtInPickerNarrowsOnSeveralMatchesThenTakesANumber() throws {
        let vault = try Self.vault()
        let run = try Self.onTerminal(vault, ["edit"], steps: [(Self.prompt, "meeting\\r"), (Self.prompt, "2\\r")])
        #expect(run.code == 0, "\(run.screen)")
        #expect(run.screen.contains(Self.prompt + "meeting\n  1  Meeting notes  (Work/)\n  2  Meeting agenda\n" + Self.prompt + "2\n"),
                "\(run.screen)")
        #expect(try vault.read("meeting-agenda.md") == Self.edited(Self.agenda))
        #expect(try vault.read("Work/meeting-notes.md") == Self.minutes)
        #expect(try vault.read("groceries.md") == Self.groceries)
    }

    @Test(arguments: ["\\r", "\\x03", "\\x04"])
    func builtInPickerCancelledChangesNothing(_ keys: String) throws {
        let vault = try Self.vault()
        let before = try TestVault.snapshot(vault.root)
        let run = try Self.onTerminal(vault, ["edit"], steps: [(Self.prompt, keys)])
        #expect(run.code == 1, "\(run.screen)")
        #expect(run.screen.hasSuffix("quire: error: no note chosen\nhint: nothing was changed\n"), "\(run.screen)")
        #expect(try TestVault.snapshot(vault.root) == before)
    }

    @Test func builtInPickerSaysWhenNothingMatchesAndAsksAgain() throws {
        let vault = try Self.vault()
        let run = try Self.onTerminal(vault, ["show"], steps: [(Self.prompt, "zebra\\r"), (Self.prompt, "1\\r")])
        #expect(run.code == 0, "\(run.screen)")
        #expect(run.screen.contains(Self.prompt + "zebra\nno note matches 'zebra'\n" + Self.listed + Self.prompt + "1\nMeeting notes\n"),
                "\(run.screen)")
        #expect(run.screen.hasSuffix("\nMinutes body.\n"), "\(run.screen)")
    }

    /// A fake `fzf` in its own PATH folder: records its standard input and arguments, then runs `body`.
    static func fakeFzf(_ body: String) throws -> (path: String, folder: URL) {
        let folder = try Harness.temporaryDirectory("quire-fzf")
        let script = "#!/bin/sh\ncat > \"\(folder.path)/candidates\"\nprintf '%s\\n' \"$@\" > \"\(folder.path)/arguments\"\n\(body)\n"
        try ExecutableScript.write(script, to: folder.appendingPathComponent("fzf"))
        return (folder.path + ":" + searchPath, folder)
    }

    @Test func fzfGetsTheCandidatesAndShowPrintsTheChosenNote() throws {
        let vault = try Self.vault()
        let fzf = try Self.fakeFzf("sed -n 2p \"$(dirname \"$0\")/candidates\"")
        let run = try Self.onTerminal(vault, ["show"], steps: [], path: fzf.path)
        #expect(run.code == 0, "\(run.screen)")
        // No createdAt: the earlier of updatedAt and the file's time stands in (DateFallbackTests).
        #expect(run.screen == "Meeting agenda\nmeeting-agenda.md\ncreated 2026-02-01 00:00 · updated 2026-02-01 00:00 · 2 words\n\nAgenda body.\n",
                "\(run.screen)")
        #expect(try Harness.read(fzf.folder.appendingPathComponent("candidates"))
            == "Meeting notes\tWork\tWork/meeting-notes.md\nMeeting agenda\t\tmeeting-agenda.md\nGroceries list\t\tgroceries.md\n")
        #expect(try Harness.read(fzf.folder.appendingPathComponent("arguments")).hasPrefix("--delimiter=\t\n--with-nth=1,2\n"))
    }

    @Test func cancelledFzfEndsWithNoNoteChosenAndChangesNothing() throws {
        let vault = try Self.vault()
        let before = try TestVault.snapshot(vault.root)
        let fzf = try Self.fakeFzf("exit 130")
        let run = try Self.onTerminal(vault, ["edit"], steps: [], path: fzf.path)
        #expect(run.code == 1, "\(run.screen)")
        #expect(run.screen == "quire: error: no note chosen\nhint: nothing was changed\n", "\(run.screen)")
        #expect(try TestVault.snapshot(vault.root) == before)
    }

    @Test(.enabled(if: realFzf != nil, "needs fzf (in TEST_PACKAGES)"))
    func realFzfChoosesByTypedWords() throws {
        let vault = try Self.vault()
        let run = try Self.onTerminal(vault, ["edit"], steps: [("note>", "agenda"), ("1/3", "\r")], path: Self.searchPath)
        #expect(run.code == 0, "\(run.screen)")
        #expect(try vault.read("meeting-agenda.md") == Self.edited(Self.agenda))
        #expect(try vault.read("Work/meeting-notes.md") == Self.minutes)
        #expect(try vault.read("groceries.md") == Self.groceries)
    }

    @Test(.enabled(if: realFzf != nil, "needs fzf (in TEST_PACKAGES)"))
    func realFzfEscapeChangesNothing() throws {
        let vault = try Self.vault()
        let before = try TestVault.snapshot(vault.root)
        let run = try Self.onTerminal(vault, ["edit"], steps: [("note>", "\\x1b")], path: Self.searchPath)
        #expect(run.code == 1, "\(run.screen)")
        #expect(run.screen.hasSuffix("quire: error: no note chosen\nhint: nothing was changed\n"), "\(run.screen)")
        #expect(try TestVault.snapshot(vault.root) == before)
    }

    @Test func showAtARevisionPicksTheNoteToo() throws {
        let vault = try Self.vault()
        try vault.commitAll()
        try vault.write(Self.agenda.replacingOccurrences(of: "Agenda body.", with: "Changed since."), to: "meeting-agenda.md")
        let fzf = try Self.fakeFzf("sed -n 2p \"$(dirname \"$0\")/candidates\"")
        let run = try Self.onTerminal(vault, ["show", "--at", "HEAD"], steps: [], path: fzf.path)
        #expect(run.code == 0, "\(run.screen)")
        #expect(run.screen.hasPrefix("Meeting agenda (at "), "\(run.screen)")
        #expect(run.screen.contains("\n\nAgenda body.\n"), "\(run.screen)")
    }
}
