import Foundation
import Testing

/// `quire edit` with a real terminal editor: quire runs on a pseudo-terminal as the foreground
/// job of its own session (as an interactive shell starts it), and keys are typed into vim.
@Suite("quire edit in a terminal")
struct EditTerminalTests {
    static let note = noteText("id: 11110000-0000-4000-8000-000000000001\ntitle: Todo\nupdatedAt: 2026-01-01T00:00:00+00:00",
                               body: "Body text here.\n")
    /// vim without any user or system configuration; the arguments are split by the shell.
    static let vim = "vim -u NONE -i NONE -n"

    /// Runs `quire edit todo.md` on a pseudo-terminal (`Tests/Servers/pty-editor.py`): waits for
    /// `waitFor` on the screen, types `keys`, and gives up (exit 124, process group killed) after
    /// 60 seconds, so a stopped editor fails the test instead of hanging it.
    static func editOnTerminal(_ vault: TestVault, editor: String, waitFor: String, keys: String) throws -> (code: Int32, screen: String) {
        let driver = Harness.packageRoot.appendingPathComponent("Tests/Servers/pty-editor.py")
        var environment = Harness.environment(home: vault.root.appendingPathComponent(".test-home"),
                                              extra: ["QUIRE_NOW": "2026-11-30T08:00:00Z", "TERM": "xterm"])
        environment["EDITOR"] = editor
        environment.removeValue(forKey: "VISUAL")
        let run = try ChaosSupport.capture(["python3", driver.path, "60", waitFor, keys, "--", Harness.binary.path, "edit", "todo.md"],
                                        in: vault.root, environment: environment, withErrors: true)
        return (run.code, run.output)
    }

    @Test func vimEditsTheNoteAndUpdatedAtIsStamped() throws {
        let vault = try TestVault()
        try vault.write(Self.note, to: "todo.md")
        let run = try Self.editOnTerminal(vault, editor: Self.vim, waitFor: "Body text",
                                          keys: ":%s/Body text/Typed in vim/\\r:wq\\r")
        #expect(run.code == 0, "\(run.screen)")
        #expect(try vault.read("todo.md") == Self.note
            .replacingOccurrences(of: "2026-01-01T00:00:00+00:00", with: "2026-11-30T08:00:00+00:00")
            .replacingOccurrences(of: "Body text", with: "Typed in vim"))
    }

    @Test func vimQuittingWithAnErrorIsReportedAndTheNoteIsUntouched() throws {
        let vault = try TestVault()
        try vault.write(Self.note, to: "todo.md")
        let run = try Self.editOnTerminal(vault, editor: Self.vim, waitFor: "Body text", keys: ":cq\\r")
        #expect(run.code == 1, "\(run.screen)")
        #expect(run.screen.contains("quire: error: the editor exited with status 1"))
        #expect(try vault.read("todo.md") == Self.note)
    }

    @Test func ctrlCEndsTheEditorAndQuireReportsIt() throws {
        let vault = try TestVault()
        try vault.write(Self.note, to: "todo.md")
        // An editor that writes, then waits for a line from the terminal: Ctrl-C ends it (and its
        // shell); quire, in the same foreground group, ignores the signal and reports the end.
        let editor = try TestVault.script("echo written >> \"$1\"\necho ready\nread line")
        let run = try Self.editOnTerminal(vault, editor: editor, waitFor: "ready", keys: "\\x03")
        #expect(run.code == 1, "\(run.screen)")
        #expect(run.screen.contains("quire: error: the editor was ended by signal 2, the note is left as the editor wrote it"))
        #expect(try vault.read("todo.md") == Self.note + "written\n")
    }
}
