import Foundation
import QuireCore
import QuireCrypto
import QuireGit
import QuireSync

/// The keyring's host for `KeyManagement`: the vault's encrypted remote, fetched with
/// verification like a sync (`EncryptedHost.keyring`) and written as a fast-forward with a new
/// manifest and the same packs (`EncryptedHost.publish`).
struct CarrierKeyringHost: KeyringHost {
    let vault: Vault
    let repository: Repository
    let url: String
    let options: TransferOptions
    let keys: DeviceKeys
    let environment: [String: String]

    /// The sealing this device syncs with now (its key memory and keyring).
    private func sealing() throws -> any CarrierSealing {
        guard let sealing = try RemoteKeys.sealing(for: vault, environment: environment) else { throw CarrierError.keyUnavailable }
        return sealing
    }

    func currentKeyring() throws -> Keyring {
        guard let data = try EncryptedHost.keyring(repository, url: url, sealing: sealing(), tracking: "refs/remotes/origin/main",
                                                   options: options) else {
            throw CarrierError.verificationFailed(reason: "the remote's branch holds no keyring")
        }
        return try Keyring.decode(Array(data))
    }

    func publish(_ keyring: Keyring, key: VaultKey) throws -> Bool {
        let newSealing = VaultSealing(key: key, keyring: keyring, deviceKeys: keys)
        guard try EncryptedHost.publish(keyring: Data(keyring.encoded()), repository, url: url, sealing: sealing(),
                                        newSealing: newSealing, options: options) else { return false }
        try keys.store(keyring)
        return true
    }
}

extension KeyManagement {
    /// The key workflows of `vault`'s encrypted remote; `KeyManagementError.notEncrypted` when
    /// its remote is not one (or it has none).
    public static func forVault(_ vault: Vault, environment: [String: String]) throws -> KeyManagement {
        let repository = try Repository.open(at: vault.root)
        guard try EncryptedHost.isEncrypted(repository), let url = try repository.remote(named: "origin")?.url else {
            throw KeyManagementError.notEncrypted
        }
        let keys = DeviceKeys(vaultRoot: vault.root, environment: environment)
        let options = TransferSettings.options(vault: vault, environment: environment, progress: nil)
        return KeyManagement(keys: keys, host: CarrierKeyringHost(vault: vault, repository: repository, url: url,
                                                                  options: options, keys: keys, environment: environment))
    }
}
