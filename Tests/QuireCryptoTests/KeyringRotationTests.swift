import Foundation
import QuireCore
import Testing
@testable import QuireCrypto

/// Rotation, revocation, passphrase change and rollback: what a device that knows a key accepts.
@Suite struct KeyringRotationTests {
    static let cost = KeyringFixture.cost

    @Test func aRotationChainIsAcceptedByADeviceThatMissedIt() throws {
        let (keyring, key, laptop, desktop) = try KeyringFixture.twoDevices()
        let desktopMemory = KeyMemory(keyring: keyring, key: key)
        let (second, _) = try keyring.rotating(revoking: nil, current: key, passphrase: "p2", cost: Self.cost, now: KeyringFixture.later)
        let secondKey = try second.unlock(identity: laptop, memory: KeyMemory(keyring: keyring, key: key))
        let (third, thirdKey) = try second.rotating(revoking: nil, current: secondKey, passphrase: "p3", cost: Self.cost, now: KeyringFixture.later)
        let changed = try third.changingPassphrase(to: "p4", key: thirdKey, cost: Self.cost)
        #expect(changed.generation == 3)
        #expect(try changed.unlock(identity: desktop, memory: desktopMemory) == thirdKey)
        #expect(try changed.unlock(passphrase: "p4", memory: desktopMemory) == thirdKey)
        #expect(thirdKey != key && secondKey != key)
        #expect(try changed.earlierKeys(from: thirdKey) == [secondKey, key])
        #expect(try changed.earlierKeys(from: thirdKey, downTo: 2) == [secondKey])
        #expect(throws: CryptoError.forgedRotation(generation: 3)) { try changed.earlierKeys(from: secondKey) }
    }

    /// What a host can make alone: a new key sealed to every device's public key, a MAC under
    /// that key, even a chain entry under it; it cannot make the chain lead back to key N.
    @Test func aForgedRotationIsRefused() throws {
        let (keyring, key, laptop, _) = try KeyringFixture.twoDevices()
        let memory = KeyMemory(keyring: keyring, key: key)
        let forgedKey = try VaultKey.random()
        var forged = keyring
        forged.generation = 2
        forged.revision = keyring.revision + 1
        forged.deviceSlots = try keyring.deviceSlots.map { slot in
            try DeviceSlot.make(name: "laptop", addedAt: "2026-01-01T00:00:00Z", publicKey: slot.publicKey, key: forgedKey)
        }
        forged.passphraseSlot = try PassphraseSlot.make(passphrase: "host's", key: forgedKey, generation: 2, cost: Self.cost)
        forged.mac = try forged.computeMAC(key: forgedKey)
        #expect(throws: CryptoError.forgedRotation(generation: 2)) { try forged.unlock(identity: laptop, memory: memory) }
        let guess = try VaultKey.random()
        forged.previousKeys = [PreviousKey(generation: 1, wrappedKey: try ManifestSeal.seal(guess.copyBytes(), key: forgedKey,
                                                                                            context: PreviousKey.context(1)))]
        forged.mac = try forged.computeMAC(key: forgedKey)
        #expect(throws: CryptoError.forgedRotation(generation: 2)) { try forged.unlock(identity: laptop, memory: memory) }
        #expect(throws: CryptoError.wrongPassphrase) { try forged.unlock(passphrase: "correct horse", memory: memory) }
        // The same generation under another key: refused too.
        forged.generation = 1
        forged.previousKeys = []
        forged.mac = try forged.computeMAC(key: forgedKey)
        #expect(throws: CryptoError.self) { try forged.unlock(identity: laptop, memory: memory) }
    }

    @Test func aRevokedDeviceCannotUnlockTheNewGeneration() throws {
        let (keyring, key, laptop, desktop) = try KeyringFixture.twoDevices()
        let (rotated, newKey) = try keyring.rotating(revoking: "desktop", current: key, passphrase: "correct horse",
                                                     cost: Self.cost, now: KeyringFixture.later)
        #expect(rotated.deviceCount == 1)
        #expect(try rotated.devices(key: newKey, identity: laptop).map(\.name) == ["laptop"])
        #expect(throws: CryptoError.noDeviceSlot) { try rotated.unlock(identity: desktop, memory: KeyMemory(keyring: keyring, key: key)) }
        // The old key opens nothing sealed under the new one: not the chain, not a manifest.
        let manifest = try ManifestSeal.seal(Array("after revocation".utf8), key: newKey, context: "quire manifest v1")
        #expect(throws: CryptoError.self) { try ManifestSeal.open(manifest, key: key, context: "quire manifest v1") }
        #expect(throws: CryptoError.self) {
            try ManifestSeal.open(rotated.previousKeys[0].wrappedKey, key: key, context: PreviousKey.context(1))
        }
        #expect(throws: CryptoError.self) { try rotated.devices(key: key, identity: desktop) }
        #expect(try rotated.unlock(identity: laptop, memory: KeyMemory(keyring: keyring, key: key)) == newKey)
        #expect(throws: CryptoError.unknownDevice(name: "phone")) {
            try rotated.rotating(revoking: "phone", current: newKey, passphrase: "x", cost: Self.cost, now: KeyringFixture.later)
        }
    }

    @Test func aPassphraseChangeKeepsTheKeyAndEveryPack() throws {
        let (keyring, key, laptop, _) = try KeyringFixture.twoDevices()
        let pack = try PackSeal.seal(Array("# note\n".utf8))
        let manifest = try ManifestSeal.seal(pack.key, key: key, context: "quire manifest v1")
        let changed = try keyring.changingPassphrase(to: "new words", key: key, cost: Self.cost)
        #expect(changed.generation == keyring.generation)
        #expect(changed.revision == keyring.revision + 1)
        #expect(changed.deviceSlots == keyring.deviceSlots)
        #expect(changed.previousKeys == keyring.previousKeys)
        #expect(throws: CryptoError.wrongPassphrase) { try changed.unlock(passphrase: "correct horse") }
        let unlocked = try changed.unlock(passphrase: "new words", memory: KeyMemory(keyring: keyring, key: key))
        #expect(unlocked == key)
        #expect(try changed.unlock(identity: laptop, memory: nil) == key)
        let packKey = try ManifestSeal.open(manifest, key: unlocked, context: "quire manifest v1")
        #expect(try PackSeal.open(pack.sealed, key: packKey) == Array("# note\n".utf8))
    }

    @Test func anOlderKeyringIsARollback() throws {
        let (keyring, key, laptop, _) = try KeyringFixture.twoDevices()
        let changed = try keyring.changingPassphrase(to: "new", key: key, cost: Self.cost)
        let seen = KeyMemory(keyring: changed, key: key)
        #expect(throws: CryptoError.rollback(offeredGeneration: 1, offeredRevision: 2, seenGeneration: 1, seenRevision: 3)) {
            try keyring.unlock(identity: laptop, memory: seen)
        }
        #expect(throws: CryptoError.self) { try keyring.unlock(passphrase: "correct horse", memory: seen) }
        let (rotated, newKey) = try changed.rotating(revoking: nil, current: key, passphrase: "new", cost: Self.cost, now: KeyringFixture.later)
        let afterRotation = seen.remembering(keyring: rotated, key: newKey)
        #expect(throws: CryptoError.rollback(offeredGeneration: 1, offeredRevision: 3, seenGeneration: 2, seenRevision: 4)) {
            try changed.unlock(identity: laptop, memory: afterRotation)
        }
        #expect(try rotated.unlock(identity: laptop, memory: afterRotation) == newKey)
    }
}
