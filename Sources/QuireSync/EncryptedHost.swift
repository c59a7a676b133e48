import Foundation
import QuireGit

/// Setting up and cloning an encrypted remote, for QuireKit's `quire remote --encrypt` and
/// `quire clone` (a sync goes through `Syncer`): what a host holds, the first manifest, and a
/// verified fetch into a vault.
public enum EncryptedHost {
    /// What a remote's branch holds, as its tree tells.
    public enum Holding: Equatable, Sendable {
        /// No branch yet.
        case empty
        /// An encrypted vault: its keyring file (plain JSON, authenticated by its own MAC).
        case encrypted(keyring: Data)
        /// Something else (a plain vault, any other repository).
        case plain
    }

    /// Whether the vault's remote `origin` is marked encrypted.
    public static func isEncrypted(_ repository: Repository) throws -> Bool {
        try EncryptedRemote.isConfigured(in: repository)
    }

    /// Marks (or unmarks) the vault's remote `origin` as encrypted.
    public static func mark(_ repository: Repository, encrypted: Bool) throws {
        try repository.setConfigString(EncryptedRemote.configKey, encrypted ? "true" : "false")
    }

    /// What commit `tip` of a remote's branch holds: an encrypted vault when its tree has
    /// `keyring` and `manifest` and nothing but `packs/` beside them.
    public static func holding(tip: OID?, in repository: Repository) throws -> Holding {
        guard let tip else { return .empty }
        let entries = try repository.treeEntries(repository.treeID(ofCommit: tip))
        let names = Set(entries.map(\.path))
        guard names.contains("manifest"), let keyring = entries.first(where: { $0.path == "keyring" }),
              names.allSatisfy({ $0 == "keyring" || $0 == "manifest" || $0.hasPrefix("packs/") }) else { return .plain }
        return .encrypted(keyring: try repository.blobData(keyring.id))
    }

    /// Starts an encrypted remote at `url` for the vault `repository`: fetches the host, and on an
    /// empty one pushes the first carrier commit (the keyring `sealing` gives, a manifest listing
    /// no pack) and points the host's HEAD at `main`. Throws `CarrierError.hostNotEmpty` when the
    /// host already holds a branch.
    public static func start(_ repository: Repository, url: String, sealing: any CarrierSealing,
                             options: TransferOptions) throws {
        let remote = try EncryptedRemote(vault: repository, url: url, sealing: sealing)
        try remote.carrier.remote().fetch(options: options)
        let holding = try holding(tip: remote.carrier.fetchedTip(), in: remote.carrier.repository)
        guard holding == .empty else { throw CarrierError.hostNotEmpty(encrypted: holding != .plain) }
        try remote.push(local: nil, packing: repository, options: options)
    }

    /// Fetches the encrypted remote at `url` into the vault `repository` with verification
    /// (`EncryptedRemote.fetch`), its branch `main` into `tracking`.
    public static func fetch(_ repository: Repository, url: String, sealing: any CarrierSealing, tracking: String,
                             options: TransferOptions) throws {
        try EncryptedRemote(vault: repository, url: url, sealing: sealing).fetch(tracking: tracking, options: options)
    }
}
