import Foundation
import Testing

@Suite("quire --help, --version, usage errors, vault discovery")
struct GlobalOptionTests {
    static let commands: [[String]] = [
        ["init"], ["new"], ["show"], ["list"], ["edit"], ["set"], ["unset"], ["tag"], ["mv"], ["rename"], ["rm"],
        ["folders"], ["folder", "add"], ["folder", "rename"], ["folder", "rm"], ["stats"], ["check"],
        ["links"], ["backlinks"], ["graph"], ["import"], ["export"], ["migrate"], ["daily"], ["service"], ["lsp"],
    ]

    @Test(arguments: commands)
    func everyCommandHasHelp(_ command: [String]) throws {
        let directory = try Harness.temporaryDirectory()
        let run = try Harness.run(command + ["--help"], in: directory)
        #expect(run.code == 0)
        #expect(run.stdout.contains("USAGE: quire \(command.joined(separator: " "))"))
        #expect(run.stderr == "")
        #expect(FileManager.default.fileExists(atPath: directory.appendingPathComponent(".git").path) == false)
    }

    @Test func topLevelHelpListsEveryCommand() throws {
        let run = try Harness.run(["--help"], in: try Harness.temporaryDirectory())
        #expect(run.code == 0)
        #expect(run.stdout.contains("USAGE: quire"))
        for command in Self.commands { #expect(run.stdout.contains("  \(command.joined(separator: " ")) ")) }
    }

    @Test func version() throws {
        let run = try Harness.run(["--version"], in: try Harness.temporaryDirectory())
        #expect(run.code == 0)
        #expect(run.stdout.range(of: #"^quire \d+\.\d+\.\d+\n$"#, options: .regularExpression) != nil)
    }

    @Test func unknownCommandIsAUsageError() throws {
        let run = try Harness.run(["frobnicate"], in: try Harness.temporaryDirectory())
        #expect(run.code == 2)
        #expect(run.stdout == "")
        #expect(run.stderr == "quire: error: unknown command 'frobnicate'\nhint: run 'quire --help' to see the commands\n")
    }

    @Test(arguments: [["list", "--bogus"], ["show", "x", "--bogus"], ["new", "T", "--folder"], ["stats", "--json", "--nope"]])
    func unknownOrIncompleteOptionIsAUsageError(_ arguments: [String]) throws {
        let vault = try TestVault()
        let run = try vault.run(arguments)
        #expect(run.code == 2)
        #expect(run.stderr.hasPrefix("quire: error: "))
        #expect(run.stderr.contains("\nusage: quire \(arguments[0])"))
        #expect(run.stderr.hasSuffix("hint: see 'quire \(arguments[0]) --help'\n"))
    }

    @Test(arguments: [["list"], ["new", "X"], ["show", "x"], ["folders"], ["stats"], ["check"]])
    func outsideAVaultPointsAtInit(_ arguments: [String]) throws {
        let directory = try Harness.temporaryDirectory()
        let run = try Harness.run(arguments, in: directory)
        #expect(run.code == 1)
        #expect(run.stderr == "quire: error: not inside a quire vault (no .quire/ found from \(directory.path) upward)\n"
            + "hint: run 'quire init' to make this folder a vault, or pass --vault PATH\n")
        #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent("x.md").path))
    }

    @Test func vaultOptionAndEnvironment() throws {
        let vault = try TestVault()
        try vault.write(noteText("title: Far"), to: "far.md")
        let elsewhere = try Harness.temporaryDirectory()
        let byOption = try Harness.run(["--vault", vault.root.path, "show", "Far", "--json"], in: elsewhere)
        #expect(byOption.code == 0)
        #expect(byOption.stdout.contains("\"path\": \"far.md\""))
        let afterCommand = try Harness.run(["list", "--vault", vault.root.path, "--json"], in: elsewhere)
        #expect(afterCommand.code == 0)
        let byEnvironment = try Harness.run(["show", "far.md", "--json"], in: elsewhere, environment: ["QUIRE_VAULT": vault.root.path])
        #expect(byEnvironment.code == 0)
        #expect(byEnvironment.stdout.contains("\"title\": \"Far\""))
        let created = try Harness.run(["new", "Near", "--vault", vault.root.path], in: elsewhere)
        #expect(created.code == 0)
        #expect(vault.exists("near.md"))
        let notVault = try Harness.run(["list"], in: elsewhere, environment: ["QUIRE_VAULT": elsewhere.path])
        #expect(notVault.code == 1)
        #expect(notVault.stderr == "quire: error: not a quire vault (\(elsewhere.path))\n"
            + "hint: --vault and QUIRE_VAULT name a vault's root folder, the one holding .quire/; 'quire init' makes one\n")
        let missing = try Harness.run(["list", "--vault", elsewhere.appendingPathComponent("nope").path], in: elsewhere)
        #expect(missing.code == 1)
        #expect(missing.stderr.hasPrefix("quire: error: "))
        #expect(missing.stderr.contains("\nhint: "))
    }

    @Test func runsFromASubfolderOfTheVault() throws {
        let vault = try TestVault()
        try vault.write(noteText("title: Top"), to: "top.md")
        try vault.write(noteText("title: Inner"), to: "A/B/inner.md")
        let run = try vault.run(["show", "top"], subfolder: "A/B")
        #expect(run.code == 0)
        #expect(run.stdout.hasPrefix("Top\n../../top.md\n"))
    }
}
