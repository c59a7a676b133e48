import Foundation
import QuireCrypto
import QuireGit
import QuireSync

extension VaultClone {
    /// The keys of an encrypted remote being cloned.
    struct EncryptedKeys {
        var keyring: Keyring
        var key: VaultKey
        var sealing: VaultSealing
    }

    /// When the branch just fetched into `repository` is an encrypted vault's (its tree holds
    /// `keyring` and `manifest`), its keyring unlocked with the passphrase (`wrongPassphrase`
    /// for a wrong one) and the fetched branch dropped: what the host holds is read through the
    /// carrier instead. nil for a plain remote.
    static func unlockEncrypted(_ repository: Repository, _ options: Options) throws -> EncryptedKeys? {
        let fetched = "refs/remotes/origin/main"
        guard case .encrypted(let data) = try EncryptedHost.holding(tip: repository.referenceTarget(fetched), in: repository) else {
            return nil
        }
        guard let passphrase = options.passphrase else { throw CarrierError.keyUnavailable }
        let (keyring, key) = try RemoteKeys.unlock(keyring: data, passphrase: passphrase())
        for tracking in try repository.references(matching: "refs/remotes/origin/*") {
            try repository.deleteReference(tracking.name)
        }
        return EncryptedKeys(keyring: keyring, key: key, sealing: VaultSealing(key: key, keyring: keyring))
    }
}
