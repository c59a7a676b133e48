import Foundation
import QuireCrypto

/// The `quire key` workflows of an encrypted remote: what the keyring holds (`status`), a new
/// passphrase (`changePassphrase`: the same key, so no pack changes), a new key (`rotate`,
/// optionally revoking a device: it reads nothing sealed after). Each reads the keyring the host
/// holds, checks it against what this device remembers (`DeviceKeys`), publishes the change as a
/// fast-forward (`KeyringHost`) and remembers it; when another device pushed meanwhile, it reads
/// the host again and redoes the change (`attempts` times at most).
public struct KeyManagement {
    /// This device's keys.
    public let keys: DeviceKeys
    /// The host of the keyring.
    public let host: any KeyringHost
    /// How many times a change is tried against a host that keeps moving.
    public var attempts = 3

    /// The workflows for `keys` against `host`.
    public init(keys: DeviceKeys, host: any KeyringHost) {
        self.keys = keys
        self.host = host
    }

    /// The keyring's generation, revision, key age and devices (names read with the key: through
    /// this device's slot, else `passphrase`).
    public func status(passphrase: (() throws -> String)?, deviceName: String, now: Date) throws -> KeyStatus {
        let keyring = try host.currentKeyring()
        let unlocked = try keys.unlock(keyring, passphrase: passphrase, deviceName: deviceName, now: now)
        let devices = try keyring.devices(key: unlocked.key, identity: try keys.identity())
        return KeyStatus(generation: keyring.generation, revision: keyring.revision, keyCreatedAt: keyring.keyCreatedAt,
                         keyAge: keyring.keyAge(now: now), devices: devices)
    }

    /// A new passphrase for the same vault key. `old` must open the keyring's passphrase slot
    /// (else `CryptoError.wrongPassphrase`, nothing published); nil when the old passphrase is
    /// lost: this device's slot gives the key instead (else `CryptoError.noDeviceSlot`).
    public func changePassphrase(old: String?, new: String) throws -> KeyChange {
        try publishing { keyring in
            let key: VaultKey
            if let old {
                key = try keyring.unlock(passphrase: old, memory: try keys.memory())
            } else {
                key = try keyring.unlock(identity: try keys.identity(), memory: try keys.memory())
            }
            return (try keyring.changingPassphrase(to: new, key: key, cost: keys.cost), key)
        }
    }

    /// A new vault key (generation + 1) for every device but `revoking` (a device name; nil
    /// revokes none; this device's own name is refused: `KeyManagementError.revokingThisDevice`). `passphrase` must open the current passphrase slot (else
    /// `CryptoError.wrongPassphrase`, nothing published); the new slot is for `newPassphrase`,
    /// else for the same passphrase (whoever knows it can join again: revoking a person wants
    /// a new one).
    public func rotate(revoking device: String?, passphrase: String, newPassphrase: String?, now: Date) throws -> KeyChange {
        try publishing { keyring in
            let current = try keyring.unlock(passphrase: passphrase, memory: try keys.memory())
            if let device, try keyring.devices(key: current, identity: try keys.identity())
                .contains(where: { $0.name == device && $0.isThisDevice }) {
                throw KeyManagementError.revokingThisDevice(name: device)
            }
            return try keyring.rotating(revoking: device, current: current, passphrase: newPassphrase ?? passphrase,
                                        cost: keys.cost, now: now)
        }
    }

    /// Reads the host's keyring, changes it, publishes and remembers the result.
    private func publishing(_ change: (Keyring) throws -> (keyring: Keyring, key: VaultKey)) throws -> KeyChange {
        for attempt in 1...max(1, attempts) {
            let keyring = try host.currentKeyring()
            let changed = try change(keyring)
            if try host.publish(changed.keyring, key: changed.key) {
                try keys.remember(changed.keyring, key: changed.key)
                return KeyChange(generation: changed.keyring.generation, revision: changed.keyring.revision,
                                 deviceCount: changed.keyring.deviceCount, attempts: attempt)
            }
        }
        throw KeyManagementError.hostKeptMoving(attempts: max(1, attempts))
    }
}

/// What `quire key status` shows.
public struct KeyStatus: Sendable, Equatable {
    /// The key generation (1 for the first key).
    public let generation: Int
    /// The keyring's revision.
    public let revision: Int
    /// When the current key was made (ISO 8601, UTC).
    public let keyCreatedAt: String
    /// Seconds since then.
    public let keyAge: TimeInterval
    /// The devices holding a slot, by name.
    public let devices: [KeyringDevice]
}

/// A keyring change published.
public struct KeyChange: Sendable, Equatable {
    /// The key generation after it.
    public let generation: Int
    /// The keyring's revision after it.
    public let revision: Int
    /// How many devices hold a slot.
    public let deviceCount: Int
    /// How many reads of the host it took (more than one: another device pushed meanwhile).
    public let attempts: Int
}

/// Why a key workflow gave up.
public enum KeyManagementError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Another device pushed before each of `attempts` publications.
    case hostKeptMoving(attempts: Int)
    /// The vault's remote is not an encrypted one (or there is none): it has no keyring.
    case notEncrypted
    /// `quire key revoke` named the device it runs on: it would keep the new key anyway.
    case revokingThisDevice(name: String)

    /// A readable, lowercase description.
    public var description: String {
        switch self {
        case let .hostKeptMoving(attempts):
            return "the remote changed during each of \(attempts) attempts to publish the keyring"
        case .notEncrypted:
            return "the vault's remote is not encrypted: it has no keys"
        case let .revokingThisDevice(name):
            return "'\(name)' is this device: a device cannot revoke itself"
        }
    }
}
