import Foundation
import QuireTestSupport
#if canImport(Glibc)
import Glibc
#endif
import Testing

/// `quire service`: the systemd user unit's file, the calls to `systemctl --user` (a stand-in
/// on `PATH` records them), what it says without systemd, uninstall, and the launchd plist.
@Suite("quire service")
struct ServiceCommandTests {
    /// A vault, a config home, and a `bin` folder whose `systemctl` logs its arguments and exits
    /// with `code` (nil: no systemctl at all).
    func setUp(systemctlExit code: Int32?) throws -> (vault: TestVault, config: URL, calls: URL, environment: [String: String]) {
        let vault = try TestVault()
        let scratch = try Harness.temporaryDirectory("quire-service")
        let config = scratch.appendingPathComponent("config"), bin = scratch.appendingPathComponent("bin")
        let calls = scratch.appendingPathComponent("calls")
        try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
        if let code {
            let script = bin.appendingPathComponent("systemctl")
            try ExecutableScript.write("#!/bin/sh\necho \"$*\" >> '\(calls.path)'\necho 'Failed to connect to bus' >&2\nexit \(code)\n", to: script)
        }
        return (vault, config, calls, ["XDG_CONFIG_HOME": config.path, "PATH": bin.path])
    }

    func unitFile(_ config: URL) throws -> URL {
        let folder = config.appendingPathComponent("systemd/user")
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path)
        try #require(names.count == 1, "\(names)")
        return folder.appendingPathComponent(names[0])
    }

    @Test func installWritesTheUnitAndSaysWhatToRunWithoutAUserManager() throws {
        let (vault, config, calls, environment) = try setUp(systemctlExit: 1)
        let run = try vault.run(["service", "install"], environment: environment)
        #expect(run.code == 0, "\(run.stderr)")
        let unit = try unitFile(config)
        #expect(unit.lastPathComponent.hasPrefix("quire-sync-vault-") && unit.lastPathComponent.hasSuffix(".service"))
        let text = try Harness.read(unit)
        let binary = Harness.binary.resolvingSymlinksInPath().path
        #expect(text.contains("\nExecStart=\(binary) watch run --sync --vault \(vault.root.path)\n"), "\(text)")
        #expect(text.contains("\nExecReload=/bin/kill -HUP $MAINPID\n"))
        #expect(text.contains("\n[Install]\nWantedBy=default.target\n"))
        #expect(text.contains("\nRestart=on-failure\n"))
        #expect(run.stdout.contains("not started: systemctl --user daemon-reload failed: Failed to connect to bus"), "\(run.stdout)")
        #expect(run.stdout.contains("  systemctl --user enable --now \(unit.lastPathComponent)\n"))
        #expect(try Harness.read(calls) == "--user daemon-reload\n")

        // Uninstall removes the file (and tries to disable it first).
        let removed = try vault.run(["service", "uninstall"], environment: environment)
        #expect(removed.code == 0)
        #expect(!FileManager.default.fileExists(atPath: unit.path))
        #expect(removed.stdout.contains("removed \(unit.path)"))
        #expect(try Harness.read(calls).contains("--user disable --now \(unit.lastPathComponent)\n"))
        let again = try vault.run(["service", "uninstall"], environment: environment)
        #expect(again.stdout == "no unit was installed for this vault\n")
    }

    @Test func installEnablesTheUnitWhereSystemdAnswers() throws {
        let (vault, config, calls, environment) = try setUp(systemctlExit: 0)
        let run = try vault.run(["service", "install", "--json"], environment: environment)
        #expect(run.code == 0)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
        let name = try unitFile(config).lastPathComponent
        #expect(object["unit"] as? String == name && object["installed"] as? Bool == true && object["systemctl"] as? Bool == true)
        #expect(try Harness.read(calls) == "--user daemon-reload\n--user enable --now \(name)\n")
        let status = try vault.run(["service", "status"], environment: environment)
        #expect(status.stdout.contains("installed: ") && status.stdout.contains("no sync daemon runs"), "\(status.stdout)")
        #expect(try vault.run(["service", "uninstall"], environment: environment).code == 0)
        #expect(try Harness.read(calls).hasSuffix("--user disable --now \(name)\n--user daemon-reload\n"))
    }

    /// A vault path systemd reads specially (issue 32): a newline, a trailing backslash, `%`, `$`,
    /// quotes, spaces. The unit names it as systemd.syntax(7) reads it back — quoted, C escapes,
    /// `%%` and `$$` — and no line of the unit is cut or continued; `systemd-analyze verify`
    /// accepts it where it is installed. The newline used to become a space (ExecStart pointed
    /// elsewhere) and a trailing backslash continued `Description=` into the next line.
    @Test func aVaultPathSystemdReadsSpeciallyIsQuotedAsItReadsItBack() throws {
        let (_, config, _, environment) = try setUp(systemctlExit: 1)
        let parent = try Harness.temporaryDirectory("quire-service-path")
        let root = parent.appendingPathComponent("my notes %h $HOME \"q\" 'x'\nline\\")
        let made = try Harness.run(["init", root.path], in: parent)
        try #require(made.code == 0, "\(made.stderr)")
        let vault = TestVault(existing: root)
        let run = try vault.run(["service", "install"], environment: environment)
        #expect(run.code == 0, "\(run.stderr)")
        let unit = try unitFile(config)
        let text = try Harness.read(unit)
        let binary = Harness.binary.resolvingSymlinksInPath().path
        let quoted = "\"" + parent.path + "/my notes %%h $$HOME \\\"q\\\" 'x'\\nline\\\\\""
        #expect(text.contains("\nExecStart=\(binary) watch run --sync --vault \(quoted)\n"), "\(text)")
        let shown = parent.path + "/my notes %%h $HOME \"q\" 'x'\\nline\\\\"
        #expect(text.contains("\nDescription=Quire sync for \(shown)\nAfter=network-online.target\n"), "\(text)")
        #expect(text.split(separator: "\n", omittingEmptySubsequences: false).allSatisfy { !$0.hasSuffix("\\") || $0.hasSuffix("\\\\") },
                "a line ends in a lone backslash:\n\(text)")
        if let analyze = ["/usr/bin/systemd-analyze", "/bin/systemd-analyze"].first(where: { FileManager.default.isExecutableFile(atPath: $0) }) {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: analyze)
            process.arguments = ["verify", "--man=no", unit.path]
            let errors = Pipe()
            process.standardError = errors
            process.standardOutput = FileHandle.nullDevice
            try process.run()
            let said = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            #expect(!said.contains(unit.lastPathComponent + ":"), "systemd-analyze: \(said)")
        }
    }

    /// A quire whose own path systemd refuses to run (a quote, a control character or a
    /// backslash in it) writes no unit: exit 2, and says what to do.
    @Test func aQuireAtAPathSystemdCannotRunWritesNoUnit() throws {
        let (vault, config, _, environment) = try setUp(systemctlExit: 0)
        let folder = try Harness.temporaryDirectory("quire-service-bin").appendingPathComponent("bin \"odd\"\nname")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let copy = folder.appendingPathComponent("quire")
        try #require(link(Harness.binary.resolvingSymlinksInPath().path, copy.path) == 0, "link: \(errno)")
        let run = try runUntilStopped([copy.path, "service", "install"], in: vault.root,
                                      environment: Harness.environment(home: vault.root.appendingPathComponent(".test-home"),
                                                                       extra: environment)) {}.run
        #expect(run.code == 2, "\(run.stdout)\(run.stderr)")
        #expect(run.stderr.hasPrefix("quire: error: no unit was written: systemd runs no program whose path holds a control character, a quote or a backslash ("),
                "\(run.stderr)")
        #expect(run.stderr.contains("bin \"odd\"\\nname/quire)\nhint: install quire at a plain path"), "\(run.stderr)")
        #expect(!FileManager.default.fileExists(atPath: config.appendingPathComponent("systemd/user").path))
    }

    @Test func withoutSystemctlAndTheLaunchdPlist() throws {
        let (vault, config, _, environment) = try setUp(systemctlExit: nil)
        let run = try vault.run(["service", "install"], environment: environment)
        #expect(run.code == 0 && run.stdout.contains("not started: systemctl was not found"), "\(run.stdout)")
        _ = try unitFile(config)
        let plist = try vault.run(["service", "install", "--print-launchd"], environment: environment)
        let parsed = try PropertyListSerialization.propertyList(from: Data(plist.stdout.utf8), format: nil) as? [String: Any]
        let arguments = parsed?["ProgramArguments"] as? [String]
        #expect(arguments?.suffix(5) == ["watch", "run", "--sync", "--vault", vault.root.path])
        #expect((parsed?["Label"] as? String)?.hasPrefix("org.quire.sync.vault-") == true)
        #expect(try vault.run(["service", "restart"]).code == 2)
    }
}
