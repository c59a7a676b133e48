import Foundation
import QuireCore

/// The sync daemon of one vault as a service of the user's session manager: a systemd user
/// unit (`quire service install|uninstall|status`), or a launchd agent plist for macOS (printed
/// for the user to copy). The unit runs `quire watch run --sync --vault ROOT`; SIGHUP (`systemctl
/// --user reload`) reloads its settings, SIGTERM lets a running cycle finish.
public struct SyncService: Sendable {
    /// The vault root (symlinks resolved).
    public let root: String
    /// The absolute path of the `quire` binary the unit runs.
    public let executable: String
    /// The caller's environment (`HOME`, `XDG_CONFIG_HOME`, `PATH` for `systemctl`).
    public let environment: [String: String]

    /// The service of the vault at `root`, run with `executable`.
    public init(root: String, executable: String = MergeDriverRegistration.executablePath(), environment: [String: String]) {
        self.root = root
        self.executable = executable
        self.environment = environment
    }

    /// `quire-sync-<folder name>-<8 hex digits of the root's hash>`: one per vault, readable.
    public var name: String {
        let folder = (root as NSString).lastPathComponent
        let slug = String(folder.lowercased().map { $0.isLetter && $0.isASCII || $0.isNumber && $0.isASCII ? $0 : "-" }.prefix(40))
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in root.utf8 { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3 }
        return "quire-sync-\(slug.isEmpty ? "vault" : slug)-\(String(format: "%08x", UInt32(truncatingIfNeeded: hash ^ (hash >> 32))))"
    }

    /// The systemd unit's file name.
    public var unitName: String { name + ".service" }

    /// `$XDG_CONFIG_HOME/systemd/user/<unit>` (default `~/.config/systemd/user/<unit>`).
    public var unitPath: String {
        let home = environment["HOME"] ?? NSHomeDirectory()
        let config = environment["XDG_CONFIG_HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? home + "/.config"
        return config + "/systemd/user/" + unitName
    }

    /// The unit file's text, or nil when systemd could not run the executable from it (its path
    /// holds a control character, a quote or a backslash). The vault path is quoted and escaped
    /// as systemd reads it back (`SystemdText`), whatever it holds.
    public var unitText: String? {
        guard let program = SystemdText.executable(executable) else { return nil }
        let command = ([program] + ["watch", "run", "--sync", "--vault", root].map(SystemdText.argument)).joined(separator: " ")
        return """
        # Written by 'quire service install' for the vault \(SystemdText.shown(root, specifiers: false)).
        # 'quire service uninstall' removes it. Docs/sync.md explains the daemon.
        [Unit]
        Description=Quire sync for \(SystemdText.shown(root, specifiers: true))
        After=network-online.target
        Wants=network-online.target

        [Service]
        Type=simple
        ExecStart=\(command)
        ExecReload=/bin/kill -HUP $MAINPID
        Restart=on-failure
        RestartSec=30
        # SIGTERM lets a running sync cycle finish (fetch and push time out after 60 s).
        TimeoutStopSec=150

        [Install]
        WantedBy=default.target

        """
    }

    /// The launchd agent's label.
    public var launchdLabel: String { "org.quire.sync." + name.dropFirst("quire-sync-".count) }

    /// A launchd agent plist (for `~/Library/LaunchAgents/<label>.plist` on macOS).
    public var launchdPlist: String {
        let arguments = [executable, "watch", "run", "--sync", "--vault", root]
            .map { "        <string>\(Self.xmlEscaped($0))</string>" }.joined(separator: "\n")
        return """
        <?xml version="1.0" encoding="UTF-8"?>
        <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
        <plist version="1.0">
        <dict>
            <key>Label</key>
            <string>\(Self.xmlEscaped(launchdLabel))</string>
            <key>ProgramArguments</key>
            <array>
        \(arguments)
            </array>
            <key>RunAtLoad</key>
            <true/>
            <key>KeepAlive</key>
            <dict>
                <key>SuccessfulExit</key>
                <false/>
            </dict>
            <key>ThrottleInterval</key>
            <integer>30</integer>
            <key>ExitTimeOut</key>
            <integer>150</integer>
            <key>StandardErrorPath</key>
            <string>\(Self.xmlEscaped(root))/.quire/local/service.log</string>
        </dict>
        </plist>

        """
    }

    /// What `install`, `uninstall` or `status` did.
    public struct Report: Equatable, Sendable {
        /// The unit file.
        public var unitPath: String
        /// The unit's name.
        public var unitName: String
        /// Whether the unit file exists now.
        public var installed: Bool
        /// Whether `systemctl --user` did what was asked (enable/start, disable/stop).
        public var systemctlDone: Bool
        /// What `systemctl` said when it failed, or why it was not run.
        public var systemctlProblem: String?
        /// The commands the user should run by hand when `systemctl` could not.
        public var commands: [String]
        /// `systemctl --user is-active` (status only; nil when unknown).
        public var active: String?
    }

    /// Writes the unit (replacing an older one), then `systemctl --user daemon-reload` and
    /// `enable --now`; when there is no `systemctl` or no user manager, says what to run.
    /// Refused (`KitError.serviceUnitUnwritable`, nothing written) when systemd could not run
    /// this quire from a unit.
    public func install() throws -> Report {
        guard let unitText else {
            throw KitError.serviceUnitUnwritable(executable: SystemdText.shown(executable, specifiers: false),
                                                 reason: "systemd runs no program whose path holds a control character, a quote or a backslash")
        }
        let url = URL(fileURLWithPath: unitPath)
        do {
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(unitText.utf8).write(to: url, options: .atomic)
        } catch {
            throw CoreError.writeFailed(path: unitPath, reason: error.localizedDescription)
        }
        let commands = ["systemctl --user daemon-reload", "systemctl --user enable --now \(unitName)"]
        var report = Report(unitPath: unitPath, unitName: unitName, installed: true, systemctlDone: false, commands: commands)
        (report.systemctlDone, report.systemctlProblem) = systemctl([["daemon-reload"], ["enable", "--now", unitName]])
        if report.systemctlDone { report.commands = [] }
        return report
    }

    /// `systemctl --user disable --now`, then removes the unit file and reloads.
    public func uninstall() throws -> Report {
        let existed = FileManager.default.fileExists(atPath: unitPath)
        var report = Report(unitPath: unitPath, unitName: unitName, installed: false, systemctlDone: false,
                            commands: ["systemctl --user disable --now \(unitName)", "systemctl --user daemon-reload"])
        if existed {
            (report.systemctlDone, report.systemctlProblem) = systemctl([["disable", "--now", unitName]])
            do {
                try FileManager.default.removeItem(atPath: unitPath)
            } catch {
                throw CoreError.writeFailed(path: unitPath, reason: error.localizedDescription)
            }
            if report.systemctlDone { _ = systemctl([["daemon-reload"]]) }
        } else {
            report.systemctlProblem = "no unit was installed for this vault"
        }
        if report.systemctlDone || !existed { report.commands = [] }
        return report
    }

    /// Whether the unit is installed, and what `systemctl --user is-active` says.
    public func status() -> Report {
        var report = Report(unitPath: unitPath, unitName: unitName, installed: FileManager.default.fileExists(atPath: unitPath),
                            systemctlDone: false, commands: [])
        if let program = ProgramSearch.find("systemctl", environment: environment) {
            if let run = ProgramSearch.run(program, ["--user", "is-active", unitName], environment: environment) {
                report.systemctlDone = true
                report.active = run.output.split(separator: "\n").first.map(String.init)
            }
        } else {
            report.systemctlProblem = "systemctl was not found"
        }
        return report
    }

    /// Runs `systemctl --user` with each argument list in turn; stops at the first failure.
    private func systemctl(_ calls: [[String]]) -> (done: Bool, problem: String?) {
        guard let program = ProgramSearch.find("systemctl", environment: environment) else {
            return (false, "systemctl was not found (no systemd here)")
        }
        for arguments in calls {
            guard let run = ProgramSearch.run(program, ["--user"] + arguments, environment: environment) else {
                return (false, "systemctl could not be started")
            }
            guard run.code == 0 else {
                let said = run.output.split(separator: "\n").first.map(String.init) ?? "exit \(run.code)"
                return (false, "systemctl --user \(arguments.joined(separator: " ")) failed: \(said)")
            }
        }
        return (true, nil)
    }

    static func xmlEscaped(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
    }
}
