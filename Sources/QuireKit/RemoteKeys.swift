import Foundation
import QuireCore
import QuireCrypto
import QuireSync

/// This device's keys to the vault's encrypted remote, in `.quire/local/` (never synced): its
/// device identity, the keyring as it last saw it, and its key memory (the vault key it holds).
/// `quire remote --encrypt` makes them with a new vault key; `quire clone` of an encrypted
/// remote unlocks the host's keyring with the passphrase and adds this device to it; each sync
/// reads them (`sealing(for:)`).
public enum RemoteKeys {
    /// The device's key pair (sealed boxes).
    static let identityPath = ".quire/local/device-identity.json"
    /// The keyring as this device last saw or changed it.
    static let keyringPath = ".quire/local/keyring.json"
    /// The vault key and the newest keyring seen (`KeyMemory`).
    static let memoryPath = ".quire/local/key-memory.json"

    /// The sealing a sync of `vault` uses: nil when this device holds no key (a sync with an
    /// encrypted remote then refuses with `CarrierError.keyUnavailable`).
    static func sealing(for vault: Vault) throws -> (any CarrierSealing)? {
        guard let memory = try KeyMemory.load(at: vault.url(for: memoryPath).path),
              let data = FileManager.default.contents(atPath: vault.url(for: keyringPath).path) else { return nil }
        return VaultSealing(key: try memory.vaultKey(), keyring: try Keyring.decode(Array(data)),
                            deviceKeys: DeviceKeys(vaultRoot: vault.root, environment: [:]))
    }

    /// A new vault key for `vault`, wrapped by `passphrase` (Argon2id at `cost`) and by this
    /// device's identity (made when missing), saved on this device.
    static func create(for vault: Vault, passphrase: String, device: String, now: Date,
                       cost: PassphraseCost = .moderate) throws -> VaultSealing {
        let identity = try DeviceIdentity.loadOrCreate(at: prepared(vault, identityPath))
        let (keyring, key) = try Keyring.create(passphrase: passphrase, deviceName: device, identity: identity, cost: cost, now: now)
        return try save(keyring: keyring, key: key, in: vault)
    }

    /// The vault key from a host's `keyring` file and `passphrase`: `CryptoError.wrongPassphrase`
    /// for a wrong one, `.tampered` for a keyring changed by anyone without the key.
    static func unlock(keyring data: Data, passphrase: String) throws -> (keyring: Keyring, key: VaultKey) {
        let keyring = try Keyring.decode(Array(data))
        return (keyring, try keyring.unlock(passphrase: passphrase))
    }

    /// Saves `key` for `vault` after adding this device (its identity made when missing) to
    /// `keyring`; the next push publishes the keyring with the new slot.
    static func join(_ vault: Vault, keyring: Keyring, key: VaultKey, device: String, now: Date) throws -> VaultSealing {
        let identity = try DeviceIdentity.loadOrCreate(at: prepared(vault, identityPath))
        let joined = keyring.hasSlot(for: identity) ? keyring
            : try keyring.adding(deviceName: device, identity: identity, key: key, now: now)
        return try save(keyring: joined, key: key, in: vault)
    }

    private static func save(keyring: Keyring, key: VaultKey, in vault: Vault) throws -> VaultSealing {
        let keyringURL = URL(fileURLWithPath: try prepared(vault, keyringPath))
        try AtomicFile.write(Data(keyring.encoded()), to: keyringURL, displayPath: keyringPath)
        try KeyMemory(keyring: keyring, key: key).save(to: prepared(vault, memoryPath))
        return VaultSealing(key: key, keyring: keyring)
    }

    /// The absolute path of `path` in `vault`, its folder made.
    private static func prepared(_ vault: Vault, _ path: String) throws -> String {
        let url = vault.url(for: path)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        return url.path
    }
}
