import Foundation
import QuireCore
import QuireGit
import QuireSync

/// `quire clone URL [DIR]` — a new device's copy of a vault.
struct CloneCommand: Command {
    static let configuration = CommandConfiguration(
        name: "clone",
        abstract: "Clone a vault from a remote onto this device (and register quire's merge driver).",
        usage: "clone URL [DIR] [--pin-certificate SHA256:…]",
        discussion: """
        DIR defaults to the last part of URL without .git; it must not exist or be empty. An empty
        remote gives an empty vault that 'quire sync' will push. A repository that is not yet a
        vault (no .quire/) becomes one: the next sync commits .quire/config.yml.
        Transports: local paths, file://, ssh:// and user@host:path (ssh-agent, ~/.ssh/id_ed25519,
        ~/.ssh/id_rsa; the host must be in ~/.ssh/known_hosts), https:// (QUIRE_GIT_TOKEN or
        ~/.git-credentials), git://. An https server with a certificate this device does not trust
        is refused with its fingerprint; --pin-certificate trusts it (kept for the new vault).
        """,
        examples: ["quire clone git@github.com:me/notes.git ~/notes", "quire clone /mnt/usb/notes.git laptop-notes"],
        options: [.value("--pin-certificate", name: "FINGERPRINT",
                         help: "Trust the https certificate with this SHA-256 fingerprint (as quire showed it).")],
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
        let root = context.absoluteURL(name)
        let manager = FileManager.default
        let existed = manager.fileExists(atPath: root.path)
        if existed, let contents = try? manager.contentsOfDirectory(atPath: root.path), !contents.isEmpty {
            throw CLIError("\(name) exists and is not empty", hint: "clone into a new folder")
        }
        do {
            try clone(remoteURL, into: root, context: context)
        } catch {
            // Leave nothing half-made behind.
            if existed {
                for item in (try? manager.contentsOfDirectory(atPath: root.path)) ?? [] {
                    try? manager.removeItem(at: root.appendingPathComponent(item))
                }
            } else {
                try? manager.removeItem(at: root)
            }
            throw error
        }
        context.output.line("Cloned \(Credentials.redact(remoteURL)) into \(PathDisplay.relative(root.path, from: context.currentDirectory.path))")
    }

    private func clone(_ remoteURL: String, into root: URL, context: CommandContext) throws {
        let repository = try Repository.create(at: root, initialBranch: "main")
        let remote = try repository.createRemote(named: "origin", url: remoteURL)
        var options = TransferSetup.options(context: context, vault: nil)
        if let pin { options.trust.pinnedCertificates.append(pin) }
        try remote.fetch(options: options)
        context.output.clearProgress()
        let remoteBranch = try Self.branchToCheckOut(remoteHead: remote.defaultBranch(), in: repository)
        let name = remoteBranch.map { String($0.dropFirst("refs/remotes/origin/".count)) } ?? "main"
        var screen: CloneScreen?
        if let remoteBranch, let tip = try repository.referenceTarget(remoteBranch) {
            // Paths no device may write (under `.git`, `..`, …) are left out, as a sync leaves them out.
            let screened = try CloneScreen(tip: tip, repository: repository)
            screen = screened
            try repository.setReference("refs/heads/\(name)", to: tip, message: "quire clone")
            try repository.setHead(branch: "refs/heads/\(name)")
            try repository.checkout(tree: screened.tree, mode: .force)
        }
        try repository.setConfigString("branch.\(name).remote", "origin")
        try repository.setConfigString("branch.\(name).merge", "refs/heads/\(name)")
        let vault = try Vault.create(at: root)
        try MergeDriverSetup.register(repository: repository, vault: vault)
        if let screen {
            let environment = SyncEnvironment(device: vault.deviceName(environment: context.environment),
                                              now: try context.now(), variables: context.environment)
            if let commit = try screen.commit(repository: repository, environment: environment, vault: vault) {
                try repository.setReference("refs/heads/\(name)", to: commit, message: "quire clone: left out paths this device cannot write")
            }
            for skipped in screen.skipped {
                context.output.line("warning: skipped \(skipped.path): \(skipped.reason)")
            }
        }
        if let pin { try RemoteCommand.pinCertificate(pin, in: vault) }
    }

    /// The remote-tracking branch whose name the local branch takes, so the vault syncs with the
    /// branch the other devices and the git CLI use: the one the remote's HEAD names (`remoteHead`,
    /// `refs/heads/…`), as `git clone` does; else (an unborn HEAD) main, else master, else the
    /// first by name. nil for an empty remote. (libgit2's `git_clone` checks out the remote's HEAD
    /// by itself; quire does not use it — it makes the repository, `main` for an empty remote, and
    /// fetches into it — so it asks the remote here.)
    static func branchToCheckOut(remoteHead: String?, in repository: Repository) throws -> String? {
        let prefix = "refs/remotes/origin/"
        if let remoteHead, remoteHead.hasPrefix("refs/heads/") {
            let tracking = prefix + remoteHead.dropFirst("refs/heads/".count)
            if try repository.referenceTarget(tracking) != nil { return tracking }
        }
        for candidate in ["main", "master"] where try repository.referenceTarget(prefix + candidate) != nil {
            return prefix + candidate
        }
        return try repository.references(matching: prefix + "*").map(\.name).filter { $0 != prefix + "HEAD" }.sorted().first
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
