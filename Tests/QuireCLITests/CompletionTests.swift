import Foundation
import Testing

/// `quire completion SHELL` scripts, and the candidates they get from `quire __complete`.
@Suite("shell completion")
struct CompletionTests {
    static func vault() throws -> TestVault {
        let vault = try TestVault()
        try vault.write(noteText("title: Vim tricks\ntags: [editor, tools]\nreviewer: Pete"), to: "vim.md")
        try vault.write(noteText("title: Crème brûlée\ntags: [food]"), to: "Food/Sweet/brulee.md")
        return vault
    }

    @Test(arguments: [
        (["se"], ["search", "set", "service"]),
        (["folder", ""], ["add", "rename", "rm"]),
        (["show", ""], ["Crème brûlée", "Vim tricks"]),
        (["show", "vi"], ["Vim tricks"]),
        (["edit", "'Vim t"], ["Vim tricks"]),
        (["edit", "Vim\\ t"], ["Vim tricks"]),
        (["set", "vim", "rev"], ["reviewer="]),
        (["unset", "vim", "ta"], ["tags"]),
        (["tag", "vim", "-"], ["-editor", "-food", "-tools"]),
        (["new", "x", "--folder", ""], ["Food", "Food/Sweet"]),
        (["--vault", ".", "new", "x", "--tag", "e"], ["editor"]),
        (["list", "tag:f"], ["tag:food"]),
        (["list", "--sort", "t"], ["title"]),
        (["mv", "vim", ""], ["Food", "Food/Sweet"]),
        (["completion", ""], ["bash", "zsh", "fish"]),
        (["rename", "--f"], ["--force"]),
        (["show", "vim", ""], []),
    ])
    func candidates(_ words: [String], _ expected: [String]) throws {
        let vault = try Self.vault()
        let run = try vault.run(["__complete"] + words)
        #expect(run.code == 0)
        #expect(run.stdout.split(separator: "\n", omittingEmptySubsequences: true).map(String.init) == expected, "\(words)")
        #expect(run.stderr == "")
    }

    @Test func outsideAVaultCommandsStillComplete() throws {
        let directory = try Harness.temporaryDirectory()
        let run = try Harness.run(["__complete", "show", ""], in: directory)
        #expect(run.code == 0)
        #expect(run.stdout == "")
        #expect(try Harness.run(["__complete", "ini"], in: directory).stdout == "init\n")
    }

    /// Runs `script` in `shell` with the built quire first on PATH, in the vault.
    static func shell(_ shell: String, _ script: String, in vault: TestVault) throws -> (code: Int32, output: String) {
        var environment = Harness.environment(home: vault.root.appendingPathComponent(".test-home"), extra: [:])
        environment["PATH"] = Harness.binary.deletingLastPathComponent().path + ":" + (environment["PATH"] ?? "/usr/bin:/bin")
        return try ChaosSupport.capture([shell, "-c", script], in: vault.root, environment: environment, withErrors: true)
    }

    static func installed(_ shell: String) -> Bool {
        ["/usr/bin/", "/bin/"].contains { FileManager.default.isExecutableFile(atPath: $0 + shell) }
    }

    @Test func scriptsAreValidForTheirShells() throws {
        let vault = try Self.vault()
        for shell in ["bash", "zsh", "fish"] where Self.installed(shell) {
            let check = try Self.shell(shell, "quire completion \(shell) > script && \(shell) -n script", in: vault)
            #expect(check.code == 0, "\(shell): \(check.output)")
        }
        #expect(try vault.run(["completion", "tcsh"]).code == 2)
    }

    @Test func bashCompletesATitleQuoted() throws {
        let vault = try Self.vault()
        let run = try Self.shell("bash", """
            source <(quire completion bash)
            COMP_WORDS=(quire show Vim); COMP_CWORD=2; _quire; printf '[%s]\\n' "${COMPREPLY[@]}"
            COMP_WORDS=(quire set vim rev); COMP_CWORD=3; _quire; printf '[%s]\\n' "${COMPREPLY[@]}"
            COMP_LINE='quire tag vim +f'; COMP_POINT=${#COMP_LINE}; COMP_WORDS=(quire tag vim +f); COMP_CWORD=3; _quire; printf '[%s]\\n' "${COMPREPLY[@]}"
            COMP_LINE='quire list tag:fo'; COMP_POINT=${#COMP_LINE}; COMP_WORDS=(quire list tag : fo); COMP_CWORD=4; _quire; printf '[%s]\\n' "${COMPREPLY[@]}"
            """, in: vault)
        #expect(run.code == 0, "\(run.output)")
        // Without the bash-completion package bash splits `tag:fo` at the colon: the script joins
        // it again and gives bash what follows the colon (it completed nothing).
        #expect(run.output == "[Vim\\ tricks]\n[reviewer=]\n[+food]\n[food]\n")
    }

    @Test func zshAndFishComplete() throws {
        let vault = try Self.vault()
        if Self.installed("fish") {
            let run = try Self.shell("fish", "quire completion fish | source; complete -C 'quire show Vi'", in: vault)
            #expect(run.code == 0, "\(run.output)")
            #expect(run.output == "Vim tricks\n")
        }
        if Self.installed("zsh") {
            // compadd needs the completion system running: the candidate list the function reads.
            let run = try Self.shell("zsh", "words=(quire tag vim +f); CURRENT=4; print -l \"${(@f)$(quire __complete \"${(@Q)words[2,CURRENT]}\")}\"", in: vault)
            #expect(run.output == "+food\n", "\(run.output)")
        }
    }
}
