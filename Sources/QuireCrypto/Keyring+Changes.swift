import Foundation
import QuireCore

extension Keyring {
    /// The devices holding a slot, sorted by name then slot id; `identity` marks this device.
    public func devices(key: VaultKey, identity: DeviceIdentity?) throws(CryptoError) -> [KeyringDevice] {
        try verify(key: key, memory: nil)
        var devices: [KeyringDevice] = []
        for slot in deviceSlots {
            let label = try slot.label(key: key)
            devices.append(KeyringDevice(name: label.name, addedAt: label.addedAt,
                                         isThisDevice: slot.publicKey == identity?.publicKey, slotID: ContentDigest.hex(slot.id)))
        }
        return devices.sorted { ($0.name, $0.slotID) < ($1.name, $1.slotID) }
    }

    /// This keyring with a slot for the device `deviceName` holding `publicKey` (replacing a
    /// slot of that public key), revision bumped, under the same key.
    public func adding(deviceName: String, publicKey: [UInt8], key: VaultKey, now: Date) throws(CryptoError) -> Keyring {
        try verify(key: key, memory: nil)
        var changed = self
        changed.deviceSlots.removeAll { $0.publicKey == publicKey }
        changed.deviceSlots.append(try DeviceSlot.make(name: deviceName, addedAt: QuireClock.iso8601UTC(now),
                                                       publicKey: publicKey, key: key))
        return try changed.sealed(key: key)
    }

    /// `adding(deviceName:publicKey:key:now:)` for `identity`.
    public func adding(deviceName: String, identity: DeviceIdentity, key: VaultKey, now: Date) throws(CryptoError) -> Keyring {
        try adding(deviceName: deviceName, publicKey: identity.publicKey, key: key, now: now)
    }

    /// This keyring with a new passphrase slot (fresh salt) for the same key: no pack or
    /// manifest changes.
    public func changingPassphrase(to passphrase: String, key: VaultKey, cost: PassphraseCost = .moderate) throws(CryptoError) -> Keyring {
        try verify(key: key, memory: nil)
        var changed = self
        changed.passphraseSlot = try PassphraseSlot.make(passphrase: passphrase, key: key, generation: generation, cost: cost)
        return try changed.sealed(key: key)
    }

    /// A new generation: a fresh vault key, sealed for every device but those named
    /// `revokedDevice` (nil: rotate without revoking), a new passphrase slot for `passphrase`,
    /// the current key added to the previous-key chain under the new one. Throws
    /// `unknownDevice` when no device has that name.
    public func rotating(revoking revokedDevice: String?, current: VaultKey, passphrase: String,
                         cost: PassphraseCost = .moderate, now: Date) throws(CryptoError) -> (keyring: Keyring, key: VaultKey) {
        try verify(key: current, memory: nil)
        var kept: [(slot: DeviceSlot, name: String, addedAt: String)] = []
        var revoked = false
        for slot in deviceSlots {
            let label = try slot.label(key: current)
            if label.name == revokedDevice { revoked = true } else { kept.append((slot, label.name, label.addedAt)) }
        }
        if let revokedDevice, !revoked { throw CryptoError.unknownDevice(name: revokedDevice) }
        let key = try VaultKey.random()
        var changed = self
        changed.generation = generation + 1
        changed.keyCreatedAt = QuireClock.iso8601UTC(now)
        changed.passphraseSlot = try PassphraseSlot.make(passphrase: passphrase, key: key, generation: changed.generation, cost: cost)
        changed.deviceSlots = []
        for device in kept {
            changed.deviceSlots.append(try DeviceSlot.make(name: device.name, addedAt: device.addedAt,
                                                           publicKey: device.slot.publicKey, key: key))
        }
        var old = current.copyBytes()
        defer { Sodium.wipe(&old) }
        changed.previousKeys.append(PreviousKey(generation: generation,
                                                wrappedKey: try ManifestSeal.seal(old, key: key, context: PreviousKey.context(generation))))
        return (try changed.sealed(key: key), key)
    }

    /// This keyring with its revision bumped and its MAC made under `key`.
    func sealed(key: VaultKey) throws(CryptoError) -> Keyring {
        var changed = self
        changed.revision = revision + 1
        changed.mac = try changed.computeMAC(key: key)
        return changed
    }
}
