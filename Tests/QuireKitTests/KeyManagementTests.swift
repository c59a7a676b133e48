import Foundation
import QuireCrypto
import Testing
@testable import QuireKit

/// `KeyManagement` and `DeviceKeys`: the `quire key` workflows against a host kept in memory,
/// each device with its own key files.
@Suite struct KeyManagementTests {
    /// A host holding one keyring; `interfere` runs once before a publication and makes it lose
    /// the race (another device pushed).
    final class MemoryHost: KeyringHost, @unchecked Sendable {
        var stored: [UInt8] = []
        var publications = 0
        var manifestKeys: [VaultKey] = []
        var interfere: ((MemoryHost) throws -> Void)?

        func currentKeyring() throws -> Keyring { try Keyring.decode(stored) }

        func publish(_ keyring: Keyring, key: VaultKey) throws -> Bool {
            if let interfere {
                self.interfere = nil
                try interfere(self)
                return false
            }
            stored = keyring.encoded()
            publications += 1
            manifestKeys.append(key)
            return true
        }
    }

    static let now = Date(timeIntervalSince1970: 1_780_000_000)
    static let environment = ["QUIRE_PASSPHRASE_COST": "interactive"]

    static func device() throws -> DeviceKeys {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("quire-keys-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root.appendingPathComponent(".git"), withIntermediateDirectories: true)
        return DeviceKeys(vaultRoot: root, environment: environment)
    }

    /// A vault made encrypted on "laptop", joined by "desktop" with the passphrase.
    static func twoDevices() throws -> (host: MemoryHost, laptop: DeviceKeys, desktop: DeviceKeys, key: VaultKey) {
        let host = MemoryHost()
        let laptop = try device()
        let desktop = try device()
        let (keyring, key) = try laptop.create(passphrase: "old words", deviceName: "laptop", now: now)
        host.stored = keyring.encoded()
        let joined = try desktop.unlock(try host.currentKeyring(), passphrase: { "old words" }, deviceName: "desktop", now: now)
        #expect(joined.addedThisDevice && joined.key == key)
        host.stored = joined.keyring.encoded()
        try desktop.remember(joined.keyring, key: joined.key)
        return (host, laptop, desktop, key)
    }

    @Test func statusListsTheDevicesAndTheKeyAge() throws {
        let (host, laptop, _, _) = try Self.twoDevices()
        let status = try KeyManagement(keys: laptop, host: host)
            .status(passphrase: nil, deviceName: "laptop", now: Self.now.addingTimeInterval(3_600))
        #expect(status.devices.map(\.name) == ["desktop", "laptop"])
        #expect(status.devices.map(\.isThisDevice) == [false, true])
        #expect(status.generation == 1 && status.revision == 2)
        #expect(status.keyAge == 3_600)
        #expect(try FileManager.default.attributesOfItem(atPath: laptop.memoryPath)[.posixPermissions] as? Int == 0o600)
        #expect(try FileManager.default.attributesOfItem(atPath: laptop.identityPath)[.posixPermissions] as? Int == 0o600)
    }

    @Test func aPassphraseChangeKeepsTheKeyAndAWrongOnePublishesNothing() throws {
        let (host, laptop, desktop, key) = try Self.twoDevices()
        let keys = KeyManagement(keys: laptop, host: host)
        #expect(throws: CryptoError.wrongPassphrase) { try keys.changePassphrase(old: "wrong", new: "new words") }
        #expect(host.publications == 0)
        let change = try keys.changePassphrase(old: "old words", new: "new words")
        #expect(change.generation == 1 && change.revision == 3)
        #expect(host.manifestKeys == [key])
        let keyring = try host.currentKeyring()
        #expect(try keyring.unlock(passphrase: "new words") == key)
        #expect(throws: CryptoError.wrongPassphrase) { try keyring.unlock(passphrase: "old words") }
        #expect(try desktop.unlock(keyring, passphrase: nil, deviceName: "desktop", now: Self.now).key == key)
    }

    /// A lost passphrase with a surviving device: that device's key sets a new one.
    @Test func aSurvivingDeviceSetsANewPassphraseWithoutTheOldOne() throws {
        let (host, _, desktop, key) = try Self.twoDevices()
        _ = try KeyManagement(keys: desktop, host: host).changePassphrase(old: nil, new: "found again")
        #expect(try host.currentKeyring().unlock(passphrase: "found again") == key)
        let stranger = try Self.device()
        #expect(throws: CryptoError.noDeviceSlot) {
            try KeyManagement(keys: stranger, host: host).changePassphrase(old: nil, new: "mine now")
        }
    }

    @Test func aRevokedDeviceCannotUnlockTheNewKey() throws {
        let (host, laptop, desktop, key) = try Self.twoDevices()
        let change = try KeyManagement(keys: laptop, host: host)
            .rotate(revoking: "desktop", passphrase: "old words", newPassphrase: "after desktop", now: Self.now)
        #expect(change.generation == 2 && change.deviceCount == 1)
        let newKey = try #require(host.manifestKeys.last)
        #expect(newKey != key)
        let keyring = try host.currentKeyring()
        #expect(throws: CryptoError.noDeviceSlot) { try desktop.unlock(keyring, passphrase: nil, deviceName: "desktop", now: Self.now) }
        #expect(throws: CryptoError.wrongPassphrase) {
            try desktop.unlock(keyring, passphrase: { "old words" }, deviceName: "desktop", now: Self.now)
        }
        #expect(try laptop.unlock(keyring, passphrase: nil, deviceName: "laptop", now: Self.now).key == newKey)
        #expect(try laptop.memory()?.generation == 2)
        #expect(throws: KeyManagementError.revokingThisDevice(name: "laptop")) {
            try KeyManagement(keys: laptop, host: host).rotate(revoking: "laptop", passphrase: "after desktop", newPassphrase: nil, now: Self.now)
        }
        #expect(throws: CryptoError.unknownDevice(name: "phone")) {
            try KeyManagement(keys: laptop, host: host).rotate(revoking: "phone", passphrase: "after desktop", newPassphrase: nil, now: Self.now)
        }
    }

    @Test func aChangeIsRedoneWhenAnotherDevicePublishedFirst() throws {
        let (host, laptop, desktop, key) = try Self.twoDevices()
        host.interfere = { host in
            _ = try KeyManagement(keys: desktop, host: host).rotate(revoking: nil, passphrase: "old words", newPassphrase: nil, now: Self.now)
        }
        let change = try KeyManagement(keys: laptop, host: host).changePassphrase(old: "old words", new: "new words")
        #expect(change.attempts == 2)
        #expect(change.generation == 2 && change.revision == 4)
        let keyring = try host.currentKeyring()
        #expect(try keyring.unlock(passphrase: "new words") != key)
        #expect(try keyring.unlock(identity: try laptop.identity(), memory: try laptop.memory()) == host.manifestKeys.last)
    }

    /// A device that joined but has not published its slot asks `status` with the passphrase:
    /// its own copy of the keyring, with its slot, stays for the next push.
    @Test func aStatusByPassphraseKeepsThisDevicesUnpublishedSlot() throws {
        let (host, _, _, _) = try Self.twoDevices()
        let phone = try Self.device()
        let joined = try phone.unlock(try host.currentKeyring(), passphrase: { "old words" }, deviceName: "phone", now: Self.now)
        try phone.store(joined.keyring)
        let status = try KeyManagement(keys: phone, host: host).status(passphrase: { "old words" }, deviceName: "phone", now: Self.now)
        #expect(status.devices.map(\.name) == ["desktop", "laptop"])
        #expect(try Keyring.decode(Array(Data(contentsOf: URL(fileURLWithPath: phone.keyringPath)))) == joined.keyring)
    }

    @Test func anOlderKeyringFromTheHostIsRefused() throws {
        let (host, laptop, _, _) = try Self.twoDevices()
        let before = host.stored
        _ = try KeyManagement(keys: laptop, host: host).changePassphrase(old: "old words", new: "new words")
        host.stored = before
        #expect(throws: CryptoError.rollback(offeredGeneration: 1, offeredRevision: 2, seenGeneration: 1, seenRevision: 3)) {
            try KeyManagement(keys: laptop, host: host).status(passphrase: nil, deviceName: "laptop", now: Self.now)
        }
    }
}
