import Foundation
import QuireCore
import QuireGit
import QuireSync

/// `quire clone`: a new device's copy of a vault. The repository is made (branch `main` for an
/// empty remote), the remote fetched, the branch the remote's HEAD names checked out — less the
/// paths no device may write (`CloneScreen`: under `.git`, `..`, …), left out as a sync leaves
/// them out and committed so — and quire's merge driver registered. A repository that is not
/// yet a vault becomes one. A failed clone leaves nothing behind.
public enum VaultClone {
    /// What to clone, and where.
    public struct Options: Sendable {
        /// The remote: a URL, or an absolute local path.
        public var url: String
        /// The folder to clone into: missing, or empty.
        public var root: URL
        /// The folder as the user named it (for messages).
        public var displayName: String
        /// An https certificate to trust by fingerprint (normal form; kept for the new vault).
        public var pinnedCertificate: String?
        /// The environment: credentials (`QUIRE_GIT_TOKEN`, …), `QUIRE_TIMEOUT`, TLS authorities,
        /// `HOME` for ssh files, the device name.
        public var environment: [String: String]
        /// The time of the commit that leaves out unwritable paths.
        public var now: Date
        /// The `quire` binary git runs as the merge driver; nil: the running program.
        public var driverProgram: String?
        /// Hears how the fetch goes (on libgit2's thread; keep it quick).
        public var progress: (@Sendable (TransferActivity) -> Void)?
        /// Asked as the clone goes: the signal (SIGINT, SIGTERM) that asked it to stop, or nil
        /// (`SyncInterrupts.received`). A stopped clone leaves nothing behind.
        public var interruption: (@Sendable () -> Int32?)?
        /// Asked for the passphrase when the remote is an encrypted one (nil: such a remote is
        /// refused with `CarrierError.keyUnavailable`).
        public var passphrase: (@Sendable () throws -> String)?

        /// Creates options.
        public init(url: String, root: URL, displayName: String, pinnedCertificate: String? = nil,
                    environment: [String: String], now: Date, driverProgram: String? = nil,
                    progress: (@Sendable (TransferActivity) -> Void)? = nil) {
            self.url = url
            self.root = root
            self.displayName = displayName
            self.pinnedCertificate = pinnedCertificate
            self.environment = environment
            self.now = now
            self.driverProgram = driverProgram
            self.progress = progress
        }
    }

    /// What a clone did.
    public struct Report: Equatable, Sendable {
        /// The remote, redacted.
        public var url: String
        /// The new vault's root.
        public var root: URL
        /// The branch checked out (`main` for an empty remote).
        public var branch: String
        /// Paths of the remote's tree left out, and why.
        public var skipped: [SkippedPath]
    }

    /// Clones as `options` say; on failure the folder is left as it was (removed when it was made),
    /// and so it is when `options.interruption` asks the clone to stop (`KitError.cloneInterrupted`).
    public static func run(_ options: Options) throws -> Report {
        let root = options.root
        let manager = FileManager.default
        let existed = manager.fileExists(atPath: root.path)
        if existed, let contents = try? manager.contentsOfDirectory(atPath: root.path), !contents.isEmpty {
            throw KitError.folderNotEmpty(options.displayName)
        }
        do {
            let report = try clone(options)
            try stopIfAsked(options)
            return report
        } catch {
            // Leave nothing half-made behind.
            if existed {
                for item in (try? manager.contentsOfDirectory(atPath: root.path)) ?? [] {
                    try? manager.removeItem(at: root.appendingPathComponent(item))
                }
            } else {
                try? manager.removeItem(at: root)
            }
            if let signal = options.interruption?() { throw KitError.cloneInterrupted(signal: signal, folder: options.displayName) }
            throw error
        }
    }

    /// Test hook (`FaultInjection`): `QUIRE_FAULT=<point>:stop` stops the process there until
    /// SIGCONT (a test sends a signal in between), `<point>:kill` kills it; a clone has no
    /// injected failure.
    private static func pause(at point: String, _ options: Options) {
        _ = FaultInjection(environment: options.environment).trigger(point)
    }

    /// Throws `KitError.cloneInterrupted` when a signal asked the clone to stop.
    private static func stopIfAsked(_ options: Options) throws {
        if let signal = options.interruption?() { throw KitError.cloneInterrupted(signal: signal, folder: options.displayName) }
    }

    private static func clone(_ options: Options) throws -> Report {
        let root = options.root
        let repository = try Repository.create(at: root, initialBranch: "main")
        let remote = try repository.createRemote(named: VaultRemote.name, url: options.url)
        try remote.fetch(options: transferOptions(options))
        pause(at: "clone-after-fetch", options)
        try stopIfAsked(options)
        let encrypted = try unlockEncrypted(repository, options)
        if let encrypted {
            try EncryptedHost.fetch(repository, url: options.url, sealing: encrypted,
                                    tracking: "refs/remotes/origin/main", options: transferOptions(options))
        }
        let remoteBranch = try branchToCheckOut(remoteHead: encrypted != nil ? "refs/heads/main" : remote.defaultBranch(),
                                                in: repository)
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
        try repository.setConfigString("branch.\(name).remote", VaultRemote.name)
        try repository.setConfigString("branch.\(name).merge", "refs/heads/\(name)")
        let vault = try Vault.create(at: root)
        try MergeDriverRegistration.register(repository: repository, vault: vault, binary: options.driverProgram)
        var skipped: [SkippedPath] = []
        if let screen {
            let environment = SyncEnvironment(device: vault.deviceName(environment: options.environment),
                                              now: options.now, variables: options.environment)
            if let commit = try screen.commit(repository: repository, environment: environment, vault: vault) {
                try repository.setReference("refs/heads/\(name)", to: commit, message: "quire clone: left out paths this device cannot write")
            }
            skipped = screen.skipped
        }
        if let pin = options.pinnedCertificate { try VaultRemote.pinCertificate(pin, in: vault) }
        if encrypted != nil { try EncryptedHost.mark(repository, encrypted: true) }
        return Report(url: VaultRemote.redacted(options.url), root: root, branch: name, skipped: skipped)
    }

    /// The fetch's options (`TransferSettings`: a new vault has no local config yet) with the
    /// pinned certificate.
    static func transferOptions(_ options: Options) -> TransferOptions {
        var progress: (@Sendable (TransferProgress) -> Void)?
        if let report = options.progress { progress = { report(TransferActivity($0)) } }
        var transfer = TransferSettings.options(vault: nil, environment: options.environment, progress: progress)
        if let interruption = options.interruption { transfer.shouldStop = { interruption() != nil } }
        if let pin = options.pinnedCertificate { transfer.trust.pinnedCertificates.append(pin) }
        return transfer
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
}
