import Foundation
import QuireCore
import QuireKit

/// `quire clone URL [DIR]` — a new device's copy of a vault.
struct CloneCommand: Command {
    static let configuration = CommandConfiguration(
        name: "clone",
        abstract: "Clone a vault from a remote onto this device (and register quire's merge driver).",
        usage: "clone URL [DIR] [--pin-certificate SHA256:…] [-q]",
        discussion: """
        DIR defaults to the last part of URL without .git; it must not exist or be empty. An empty
        remote gives an empty vault that 'quire sync' will push. A repository that is not yet a
        vault (no .quire/) becomes one: the next sync commits .quire/config.yml.
        Transports: local paths, file://, ssh:// and user@host:path (ssh-agent, ~/.ssh/id_ed25519,
        ~/.ssh/id_rsa; the host must be in ~/.ssh/known_hosts), https:// (QUIRE_GIT_TOKEN or
        ~/.git-credentials), git://. An https server with a certificate this device does not trust
        is refused with its fingerprint; --pin-certificate trusts it (kept for the new vault).
        An encrypted remote (made with 'quire remote URL --encrypt') asks for its passphrase on a
        terminal (QUIRE_PASSPHRASE in scripts); a wrong one exits with 4 and leaves nothing behind.
        """,
        examples: ["quire clone git@github.com:me/notes.git ~/notes", "quire clone /mnt/usb/notes.git laptop-notes"],
        options: [.value("--pin-certificate", name: "FINGERPRINT",
                         help: "Trust the https certificate with this SHA-256 fingerprint (as quire showed it)."),
                  .quiet],
        positionals: 1...2)

    let url: String
    let directory: String?
    let pin: String?

    init(_ arguments: ParsedArguments) throws {
        url = arguments.positionals[0]
        directory = arguments.positionals.count > 1 ? arguments.positionals[1] : nil
        pin = try RemoteCommand.fingerprint(arguments.value("--pin-certificate"))
    }

    func run(_ context: CommandContext) throws {
        let remoteURL = RemoteCommand.normalize(url, context: context)
        let name = directory ?? Self.defaultDirectory(for: remoteURL)
        guard !name.isEmpty else { throw CLIError.usage("cannot tell a folder name from '\(url)'", hint: "give DIR") }
        var progress: (@Sendable (TransferActivity) -> Void)?
        let line = TransferSetup.progressLine(context.output)
        if let line { progress = { line.update($0) } }
        var options = VaultClone.Options(url: remoteURL, root: context.absoluteURL(name), displayName: name,
                                         pinnedCertificate: pin, environment: context.environment, now: try context.now(),
                                         progress: progress)
        // Ctrl-C (or SIGTERM) stops the clone where it is and removes what it made: killed at
        // once, it left a folder holding only `.git`, which a second clone refused.
        let interrupts = SyncInterrupts(announcing: SyncInterrupts.cloneAnnouncements, announce: { FileHandle.standardError.write(Data(($0 + "\n").utf8)) })
        defer { interrupts.restore() }
        options.interruption = { interrupts.received() }
        // Asked on this thread, during the clone (only for an encrypted remote).
        nonisolated(unsafe) let reader = PassphraseReader(environment: context.environment, output: context.output)
        options.passphrase = { try reader.existing() }
        let report: VaultClone.Report
        do {
            report = try VaultClone.run(options)
        } catch {
            line?.stop()
            throw error
        }
        line?.stop()
        for skipped in report.skipped {
            context.output.line("warning: skipped \(skipped.path): \(skipped.reason)")
        }
        context.output.line("Cloned \(report.url) into \(PathDisplay.relative(report.root.path, from: context.currentDirectory.path))")
    }

    /// `notes` for `git@host:me/notes.git`, `https://host/me/notes`, `/mnt/usb/notes.git`.
    static func defaultDirectory(for url: String) -> String {
        var text = url
        while text.hasSuffix("/") { text.removeLast() }
        if let last = text.split(whereSeparator: { $0 == "/" || $0 == ":" }).last { text = String(last) }
        if text.hasSuffix(".git") { text.removeLast(4) }
        return text
    }
}
