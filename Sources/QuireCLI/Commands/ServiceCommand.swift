import Foundation
import QuireCore
import QuireKit

/// `quire service install|uninstall|status` — the vault's sync daemon as a systemd user service.
struct ServiceCommand: Command {
    static let configuration = CommandConfiguration(
        name: "service",
        abstract: "Install, remove or show the systemd user service that syncs this vault by itself.",
        usage: "service install|uninstall|status [--print-launchd] [--json]",
        discussion: """
        'install' writes a systemd user unit (~/.config/systemd/user/quire-sync-NAME-HASH.service)
        that runs 'quire watch run --sync' for this vault, then enables and starts it with
        'systemctl --user'; where there is no user systemd it still writes the unit and says what
        to run. 'uninstall' stops, disables and removes it. 'status' says whether it is installed
        and active, and what the daemon last did ('quire status' shows more). --print-launchd
        prints a launchd agent plist instead, for macOS (save it in ~/Library/LaunchAgents and
        'launchctl load' it). See Docs/sync.md.
        """,
        examples: ["quire service install", "quire service status", "quire service uninstall",
                   "quire service install --print-launchd > ~/Library/LaunchAgents/org.quire.sync.plist"],
        options: [.flag("--print-launchd", help: "Print a launchd plist for macOS; change nothing."),
                  .flag("--json", help: "Print the outcome as JSON.")],
        positionals: 1...1)

    enum Action: String { case install, uninstall, status }

    let action: Action
    let printLaunchd: Bool
    let json: Bool

    init(_ arguments: ParsedArguments) throws {
        let word = arguments.positionals.first ?? ""
        guard let action = Action(rawValue: word) else {
            throw CLIError.usage("unknown service action '\(word)'", hint: "use install, uninstall or status")
        }
        self.action = action
        printLaunchd = arguments.has("--print-launchd")
        json = arguments.has("--json")
    }

    func run(_ context: CommandContext) throws {
        let vault = try context.vault()
        let service = SyncService(root: vault.root.path, environment: context.environment)
        let output = context.output
        if printLaunchd {
            output.write(service.launchdPlist)
            return
        }
        let report: SyncService.Report
        switch action {
        case .install: report = try service.install()
        case .uninstall: report = try service.uninstall()
        case .status: report = service.status()
        }
        let health = SyncDaemonHealth.read(vaultRoot: vault.root)
        if json {
            output.line(JSON.object([
                ("unit", .string(report.unitName)), ("path", .string(report.unitPath)), ("installed", .bool(report.installed)),
                ("systemctl", .bool(report.systemctlDone)), ("problem", .string(report.systemctlProblem)),
                ("run", .array(report.commands.map { .string($0) })), ("active", .string(report.active)),
                ("daemonRunning", .bool(health?.running == true)),
            ]).rendered(.output))
            return
        }
        switch action {
        case .install:
            output.line("wrote \(report.unitPath)")
            if report.systemctlDone {
                output.line("enabled and started \(report.unitName): this vault now syncs by itself ('quire status' shows how it goes)")
            } else {
                output.line("not started: \(report.systemctlProblem ?? "systemctl failed")")
                output.line("to start it where a systemd user manager runs:")
                for command in report.commands { output.line("  \(command)") }
                output.line("or run 'quire watch start --sync' now (until you log out)")
            }
        case .uninstall:
            if let problem = report.systemctlProblem, report.commands.isEmpty {
                output.line(problem)
                return
            }
            output.line("removed \(report.unitPath)")
            if !report.systemctlDone {
                output.line("systemctl did not stop it: \(report.systemctlProblem ?? "failed"); run:")
                for command in report.commands { output.line("  \(command)") }
            }
        case .status:
            output.line(report.installed ? "installed: \(report.unitPath)" : "not installed ('quire service install' installs it)")
            if let active = report.active { output.line("systemd says: \(active)") }
            if let problem = report.systemctlProblem { output.line("systemd: \(problem)") }
            output.line(health?.running == true ? "the sync daemon runs (pid \(health?.pid ?? 0))" : "no sync daemon runs for this vault")
        }
    }
}
