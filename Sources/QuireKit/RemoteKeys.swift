import Foundation
import QuireCore
import QuireCrypto
import QuireSync

/// The keys a sync, `quire remote --encrypt` and `quire clone` use for the vault's encrypted
/// remote: this device's identity and key memory (`DeviceKeys`), and beside them the keyring as
/// this device last made or joined it (`.quire/local/keyring.json`, never synced), which the next
/// push publishes when it is newer than the host's (a device that joined by passphrase adds its
/// slot that way).
public enum RemoteKeys {
    /// The keyring as this device last saw or changed it.
    static let keyringPath = ".quire/local/keyring.json"

    /// The sealing a sync of `vault` uses: nil when this device holds no key (a sync with an
    /// encrypted remote then refuses with `CarrierError.keyUnavailable`).
    static func sealing(for vault: Vault, environment: [String: String]) throws -> (any CarrierSealing)? {
        guard let memory = try DeviceKeys(vaultRoot: vault.root, environment: environment).memory(),
              let data = FileManager.default.contents(atPath: vault.url(for: keyringPath).path) else { return nil }
        return VaultSealing(key: try memory.vaultKey(), keyring: try Keyring.decode(Array(data)),
                            deviceKeys: DeviceKeys(vaultRoot: vault.root, environment: environment))
    }

    /// A new vault key for the vault at `root`, wrapped by `passphrase` and by this device
    /// (`DeviceKeys.create`), its keyring kept on this device.
    static func create(at root: URL, passphrase: String, device: String, now: Date,
                       environment: [String: String]) throws -> VaultSealing {
        let made = try DeviceKeys(vaultRoot: root, environment: environment).create(passphrase: passphrase,
                                                                                   deviceName: device, now: now)
        return try keep(made.keyring, key: made.key, at: root)
    }

    /// The vault key from a host's `keyring` file, through this device's slot or `passphrase`
    /// (`DeviceKeys.unlock`: `CryptoError.wrongPassphrase` for a wrong one); the keyring with
    /// this device added is kept for the next push to publish.
    static func join(at root: URL, keyring data: Data, passphrase: (() throws -> String)?, device: String, now: Date,
                     environment: [String: String]) throws -> VaultSealing {
        let keys = DeviceKeys(vaultRoot: root, environment: environment)
        let unlocked = try keys.unlock(try Keyring.decode(Array(data)), passphrase: passphrase, deviceName: device, now: now)
        return try keep(unlocked.keyring, key: unlocked.key, at: root)
    }

    /// Files this module makes for a vault at `root`, to remove when a setup fails.
    static func files(at root: URL, environment: [String: String]) -> [String] {
        let keys = DeviceKeys(vaultRoot: root, environment: environment)
        return [keys.memoryPath, root.appendingPathComponent(keyringPath).path]
    }

    private static func keep(_ keyring: Keyring, key: VaultKey, at root: URL) throws -> VaultSealing {
        let url = root.appendingPathComponent(keyringPath)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try AtomicFile.write(Data(keyring.encoded()), to: url, displayPath: keyringPath)
        return VaultSealing(key: key, keyring: keyring)
    }
}
