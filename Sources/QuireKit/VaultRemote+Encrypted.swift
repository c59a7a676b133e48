import Foundation
import QuireCore
import QuireGit
import QuireSync

extension VaultRemote {
    /// `quire remote URL --encrypt`: a new vault key wrapped by `passphrase` and this device's
    /// identity, the first carrier commit (the keyring and a manifest listing no pack) pushed to
    /// the empty repository at `url` — the host's HEAD pointed at `main` — then `url` set as the
    /// remote and marked encrypted (`remote.origin.quire-encrypted`); the next sync pushes the
    /// vault's notes, sealed. A host that already holds a branch is refused
    /// (`CarrierError.hostNotEmpty`) and the vault is left as it was. Returns the URL redacted.
    @discardableResult
    public static func setEncrypted(_ url: String, in vault: Vault, passphrase: String,
                                    environment: [String: String]) throws -> String {
        let repository = try Repository.open(at: vault.root)
        let now = try QuireClock.now(environment: environment)
        let made = RemoteKeys.files(at: vault.root, environment: environment).filter { !FileManager.default.fileExists(atPath: $0) }
        do {
            let sealing = try RemoteKeys.create(at: vault.root, passphrase: passphrase,
                                                device: vault.deviceName(environment: environment), now: now,
                                                environment: environment)
            try EncryptedHost.start(repository, url: url, sealing: sealing,
                                    options: TransferSettings.options(vault: vault, environment: environment, progress: nil))
        } catch {
            for path in made { try? FileManager.default.removeItem(atPath: path) }
            throw error
        }
        let shown = try set(url, in: vault)
        try EncryptedHost.mark(repository, encrypted: true)
        // What a plain remote left: the encrypted fetch alone sets these now.
        for tracking in try repository.references(matching: "refs/remotes/origin/*") {
            try repository.deleteReference(tracking.name)
        }
        return shown
    }

    /// Whether the vault's remote is an encrypted one.
    public static func isEncrypted(_ vault: Vault) throws -> Bool {
        try EncryptedHost.isEncrypted(Repository.open(at: vault.root))
    }
}
