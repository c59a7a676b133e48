import Foundation
import QuireCore

/// The keyring of an encrypted remote: the one plain-text file the host keeps beside the packs
/// (it must be readable before anything is decrypted), serialized as JSON (`encoded()`,
/// `decode(_:)`). It holds the vault key wrapped for whoever may read the vault, and nothing
/// the host can use:
/// - the format version, the key generation (1, 2, … one per rotation), the revision (bumped on
///   every change) and the current key's creation date;
/// - a passphrase slot: the vault key sealed (XChaCha20-Poly1305) under a key Argon2id derives
///   from the passphrase, with its salt and cost;
/// - one slot per device: a random slot id, the device's X25519 public key, the vault key in a
///   sealed box to it, and the device's name and added date sealed under the vault key (the host
///   learns how many devices there are, not their names);
/// - the previous keys, each sealed under the next generation's key: the proof that a rotation
///   was made by a holder of the old key (`unlock` walks it back to the key this device knows);
/// - a MAC (keyed BLAKE2b with a `crypto_kdf` subkey of the vault key) over everything else.
///
/// Why so much: anyone can make a sealed box (it takes only a public key), so a host could
/// offer a keyring of its own key. A device that knows key N accepts a keyring only when its MAC
/// checks under the key it unwraps and, for generation N+k, the previous-key chain leads back
/// to key N; it refuses a keyring whose (generation, revision) is older than one it has seen
/// (`KeyMemory`). A new device joins with the passphrase, which the host cannot fake a slot for.
public struct Keyring: Sendable, Equatable {
    /// The format version this quire writes and reads.
    public static let formatVersion = 1

    /// The keyring's format version.
    public internal(set) var version: Int
    /// The key generation: 1 for the first key, bumped by each rotation.
    public internal(set) var generation: Int
    /// Bumped on every change (a device added, a passphrase changed, a rotation).
    public internal(set) var revision: Int
    /// When the current key was made: ISO 8601 in UTC.
    public internal(set) var keyCreatedAt: String
    /// The vault key under the passphrase.
    var passphraseSlot: PassphraseSlot
    /// The vault key for each device.
    var deviceSlots: [DeviceSlot]
    /// Each earlier generation's key sealed under the next generation's key, oldest first.
    var previousKeys: [PreviousKey]
    /// The MAC over everything else, under the current key.
    var mac: [UInt8]

    /// How many devices hold a slot (what the host can count).
    public var deviceCount: Int { deviceSlots.count }

    /// A new keyring for a new vault key: a passphrase slot (Argon2id at `cost`) and a slot for
    /// the device `deviceName` with `identity`, created at `now`.
    public static func create(passphrase: String, deviceName: String, identity: DeviceIdentity,
                              cost: PassphraseCost = .moderate, now: Date) throws(CryptoError) -> (keyring: Keyring, key: VaultKey) {
        let key = try VaultKey.random()
        let stamp = QuireClock.iso8601UTC(now)
        var keyring = Keyring(version: formatVersion, generation: 1, revision: 1, keyCreatedAt: stamp,
                              passphraseSlot: try PassphraseSlot.make(passphrase: passphrase, key: key, generation: 1, cost: cost),
                              deviceSlots: [try DeviceSlot.make(name: deviceName, addedAt: stamp, publicKey: identity.publicKey, key: key)],
                              previousKeys: [], mac: [])
        keyring.mac = try keyring.computeMAC(key: key)
        return (keyring, key)
    }

    /// The vault key from the passphrase slot. Refuses a keyring older than `memory` has seen
    /// (`rollback`), a wrong passphrase (`wrongPassphrase`), a keyring changed by anyone
    /// without the key (`tampered`) and a rotation that does not lead back to `memory`'s key.
    public func unlock(passphrase: String, memory: KeyMemory? = nil) throws(CryptoError) -> VaultKey {
        try refuseRollback(memory)
        let key = try passphraseSlot.open(passphrase: passphrase, generation: generation)
        try verify(key: key, memory: memory)
        return key
    }

    /// The vault key from this device's slot (the one holding `identity`'s public key), checked
    /// as `unlock(passphrase:memory:)` checks it. No slot: `noDeviceSlot` (never added, or
    /// revoked): ask for the passphrase.
    public func unlock(identity: DeviceIdentity, memory: KeyMemory?) throws(CryptoError) -> VaultKey {
        try refuseRollback(memory)
        guard let slot = deviceSlots.first(where: { $0.publicKey == identity.publicKey }) else {
            throw CryptoError.noDeviceSlot
        }
        guard var bytes = identity.openSealedBox(slot.sealedKey) else {
            throw CryptoError.tampered(what: "keyring device slot")
        }
        defer { Sodium.wipe(&bytes) }
        let key = try VaultKey(bytes: bytes)
        try verify(key: key, memory: memory)
        return key
    }

    /// Whether this keyring holds a slot for `identity`.
    public func hasSlot(for identity: DeviceIdentity) -> Bool {
        deviceSlots.contains { $0.publicKey == identity.publicKey }
    }

    /// The time since the current key was made.
    public func keyAge(now: Date) -> TimeInterval {
        guard let created = QuireClock.parseISO8601(keyCreatedAt) else { return 0 }
        return now.timeIntervalSince(created)
    }

    /// Refuses a keyring older than the newest `memory` has seen.
    func refuseRollback(_ memory: KeyMemory?) throws(CryptoError) {
        guard let memory else { return }
        if (generation, revision) < (memory.generation, memory.keyringRevision) {
            throw CryptoError.rollback(offeredGeneration: generation, offeredRevision: revision,
                                       seenGeneration: memory.generation, seenRevision: memory.keyringRevision)
        }
    }

    /// Checks the MAC under `key`, then that `key` is the one `memory` knows or descends from it
    /// through the previous-key chain.
    func verify(key: VaultKey, memory: KeyMemory?) throws(CryptoError) {
        guard Sodium.equal(try computeMAC(key: key), mac) else { throw CryptoError.tampered(what: "keyring") }
        guard let memory else { return }
        let known = try memory.vaultKey()
        if generation == memory.generation {
            guard key == known else { throw CryptoError.tampered(what: "keyring (its key is not the one this device knows)") }
            return
        }
        guard memory.generation >= 1, let oldest = try earlierKeys(from: key, downTo: memory.generation).last,
              oldest == known else {
            throw CryptoError.forgedRotation(generation: generation)
        }
    }

    /// The keys of the generations before this one, newest first, down to `oldest`, opened from
    /// the previous-key chain starting at `key` (this generation's): what reads manifests sealed
    /// before a rotation. Throws `forgedRotation` when a link is missing or does not open.
    public func earlierKeys(from key: VaultKey, downTo oldest: Int = 1) throws(CryptoError) -> [VaultKey] {
        var keys: [VaultKey] = []
        var current = key
        var currentGeneration = generation
        while currentGeneration > max(1, oldest) {
            guard let link = previousKeys.first(where: { $0.generation == currentGeneration - 1 }) else {
                throw CryptoError.forgedRotation(generation: generation)
            }
            var bytes: [UInt8]
            do {
                bytes = try ManifestSeal.open(link.wrappedKey, key: current, context: PreviousKey.context(link.generation))
            } catch {
                throw CryptoError.forgedRotation(generation: generation)
            }
            defer { Sodium.wipe(&bytes) }
            current = try VaultKey(bytes: bytes)
            keys.append(current)
            currentGeneration -= 1
        }
        return keys
    }
}
