import Foundation
import QuireCore
import QuireCrypto

/// This device's keys for a vault's encrypted remote, in files of their own under
/// `.quire/local/` (mode 0600, never synced): its identity (`device-identity.json`, an X25519
/// pair) and what it remembers (`key-memory.json`: the vault key, its generation, the newest
/// keyring revision and manifest seen). Unlocking a keyring the host holds goes through here, so every keyring this
/// device accepts passes the rollback and rotation checks against what it remembers.
public struct DeviceKeys: Sendable {
    /// The folder of the files: `<vault>/.quire/local`.
    public let folder: URL
    /// The Argon2id cost of the passphrase slots this device writes.
    public let cost: PassphraseCost

    /// The vault's root folder.
    public let root: URL

    /// The keys of the vault at `root`; `environment` may lower the Argon2id cost for tests
    /// (`QUIRE_PASSPHRASE_COST=interactive`, a documented test hook).
    public init(vaultRoot root: URL, environment: [String: String]) {
        self.root = root
        folder = root.appendingPathComponent(".quire/local", isDirectory: true)
        cost = Self.cost(environment: environment)
    }

    /// The Argon2id cost `environment` asks for: MODERATE unless `QUIRE_PASSPHRASE_COST=interactive`.
    public static func cost(environment: [String: String]) -> PassphraseCost {
        environment["QUIRE_PASSPHRASE_COST"] == "interactive" ? .interactive : .moderate
    }

    /// The identity file.
    public var identityPath: String { folder.appendingPathComponent("device-identity.json").path }
    /// The memory file.
    public var memoryPath: String { folder.appendingPathComponent("key-memory.json").path }
    /// This device's copy of the keyring, which its syncs seal with (`RemoteKeys.sealing`).
    public var keyringPath: String { root.appendingPathComponent(RemoteKeys.keyringPath).path }

    /// What this device remembers, nil before it first unlocked a keyring.
    public func memory() throws(CryptoError) -> KeyMemory? {
        try KeyMemory.load(at: memoryPath)
    }

    /// This device's identity, made on first use.
    public func identity() throws(CryptoError) -> DeviceIdentity {
        try DeviceIdentity.loadOrCreate(at: identityPath)
    }

    /// A new keyring for a vault becoming encrypted: a random key under `passphrase` and this
    /// device (`deviceName`); remembered at once.
    public func create(passphrase: String, deviceName: String, now: Date) throws -> (keyring: Keyring, key: VaultKey) {
        let made = try Keyring.create(passphrase: passphrase, deviceName: deviceName, identity: try identity(), cost: cost, now: now)
        try remember(made.keyring, key: made.key)
        return made
    }

    /// The vault key of `keyring` (as the host holds it): through this device's slot, else, when
    /// `passphrase` can give one, through the passphrase — then this device is added and the
    /// keyring to publish (`KeyUnlock.keyring`) holds its slot. Checked against what this device
    /// remembers (rollback, forged rotation); remembers the keyring it accepted.
    public func unlock(_ keyring: Keyring, passphrase: (() throws -> String)?, deviceName: String,
                       now: Date) throws -> KeyUnlock {
        let memory = try memory()
        let identity = try identity()
        if keyring.hasSlot(for: identity) {
            return KeyUnlock(key: try accept(keyring), keyring: keyring, addedThisDevice: false)
        }
        guard let passphrase else { throw CryptoError.noDeviceSlot }
        let key = try keyring.unlock(passphrase: try passphrase(), memory: memory)
        try remember(keyring, key: key)
        let joined = try keyring.adding(deviceName: deviceName, identity: identity, key: key, now: now)
        return KeyUnlock(key: key, keyring: joined, addedThisDevice: true)
    }

    /// The vault key of `keyring` through this device's slot, checked against what this device
    /// remembers; then remembered, and kept as this device's keyring (`keyringPath`).
    /// `CryptoError.noDeviceSlot` when it holds none (revoked).
    public func accept(_ keyring: Keyring) throws -> VaultKey {
        let key = try keyring.unlock(identity: try identity(), memory: try memory())
        try remember(keyring, key: key)
        try store(keyring)
        return key
    }

    /// Keeps `keyring` as this device's keyring (`keyringPath`), the one its syncs publish.
    public func store(_ keyring: Keyring) throws {
        try AtomicFile.write(Data(keyring.encoded()), to: URL(fileURLWithPath: keyringPath), displayPath: RemoteKeys.keyringPath)
    }

    /// Remembers `keyring` (accepted, or published by this device) and its `key`, keeping the
    /// manifest seen; never goes back to an older keyring. This device's copy of the keyring
    /// (`keyringPath`, which may hold its own slot not published yet) is left as it is.
    public func remember(_ keyring: Keyring, key: VaultKey) throws {
        let old = try memory()
        if let old, (keyring.generation, keyring.revision) < (old.generation, old.keyringRevision) { return }
        let memory = old?.remembering(keyring: keyring, key: key) ?? KeyMemory(keyring: keyring, key: key)
        try memory.save(to: memoryPath)
    }
}

/// A keyring unlocked by `DeviceKeys.unlock`.
public struct KeyUnlock: Sendable {
    /// The vault key.
    public let key: VaultKey
    /// The keyring to keep on the host: the one given, or it with this device added.
    public let keyring: Keyring
    /// Whether this device joined by passphrase (the keyring changed and needs publishing).
    public let addedThisDevice: Bool
}
