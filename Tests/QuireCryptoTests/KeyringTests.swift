import Foundation
import QuireCore
import Testing
@testable import QuireCrypto

/// `Keyring`: the passphrase and device slots, its file, and tampering refused.
@Suite struct KeyringTests {
    @Test func unlocksWithThePassphraseAndWithEachDevice() throws {
        let (keyring, key, laptop, desktop) = try KeyringFixture.twoDevices()
        #expect(try keyring.unlock(passphrase: "correct horse") == key)
        #expect(try keyring.unlock(identity: laptop, memory: nil) == key)
        #expect(try keyring.unlock(identity: desktop, memory: nil) == key)
        #expect(keyring.generation == 1)
        #expect(keyring.revision == 2)
        #expect(keyring.deviceCount == 2)
    }

    @Test func aWrongPassphraseIsRefused() throws {
        let (keyring, _, _, _) = try KeyringFixture.twoDevices()
        #expect(throws: CryptoError.wrongPassphrase) { try keyring.unlock(passphrase: "correct horse ") }
        #expect(throws: CryptoError.wrongPassphrase) { try keyring.unlock(passphrase: "") }
    }

    @Test func aStrangerHasNoSlot() throws {
        let (keyring, _, _, _) = try KeyringFixture.twoDevices()
        #expect(throws: CryptoError.noDeviceSlot) { try keyring.unlock(identity: try DeviceIdentity.generate(), memory: nil) }
    }

    @Test func theFileRoundTripsAndHoldsNoName() throws {
        let (keyring, key, laptop, _) = try KeyringFixture.twoDevices()
        let bytes = keyring.encoded()
        let read = try Keyring.decode(bytes)
        #expect(read == keyring)
        #expect(try read.unlock(identity: laptop, memory: nil) == key)
        let text = String(decoding: bytes, as: UTF8.self)
        #expect(!text.contains("laptop") && !text.contains("desktop"))
        #expect(!text.contains(ContentDigest.hex(key.copyBytes())))
    }

    @Test func devicesAndKeyAgeAreReadWithTheKey() throws {
        let (keyring, key, laptop, _) = try KeyringFixture.twoDevices()
        let devices = try keyring.devices(key: key, identity: laptop)
        #expect(devices.map(\.name) == ["desktop", "laptop"])
        #expect(devices.map(\.isThisDevice) == [false, true])
        #expect(devices[0].addedAt == QuireClock.iso8601UTC(KeyringFixture.later))
        #expect(keyring.keyAge(now: KeyringFixture.later) == 86_400 * 30)
        #expect(throws: CryptoError.self) { try keyring.devices(key: try VaultKey.random(), identity: nil) }
    }

    /// Every member of the file, changed a little, is refused by both ways of unlocking.
    @Test func everyTamperedFieldIsRefused() throws {
        let (base, key, laptop, _) = try KeyringFixture.twoDevices()
        let (keyring, newKey) = try base.rotating(revoking: nil, current: key, passphrase: "correct horse",
                                                  cost: KeyringFixture.cost, now: KeyringFixture.later)
        let memory = KeyMemory(keyring: base, key: key)
        #expect(try keyring.unlock(identity: laptop, memory: memory) == newKey)
        let json = try JSON.parse(keyring.encoded())
        let paths: [[String]] = [
            ["generation"], ["revision"], ["keyCreatedAt"],
            ["passphrase", "salt"], ["passphrase", "opsLimit"], ["passphrase", "memLimit"], ["passphrase", "wrappedKey"],
            ["devices", "0", "slot"], ["devices", "0", "publicKey"], ["devices", "0", "sealedKey"], ["devices", "0", "label"],
            ["devices", "1", "slot"], ["devices", "1", "label"],
            ["previousKeys", "0", "generation"], ["previousKeys", "0", "wrappedKey"], ["mac"],
        ]
        for path in paths {
            let changed = KeyringFixture.replacing(json, at: path, KeyringFixture.nudged)
            #expect(changed != json, "\(path) was not changed")
            let forged = try Keyring.decode(changed.encoded(.compact))
            #expect(throws: CryptoError.self, "\(path) by device") { try forged.unlock(identity: laptop, memory: memory) }
            #expect(throws: CryptoError.self, "\(path) by passphrase") { try forged.unlock(passphrase: "correct horse", memory: memory) }
        }
        let dropped = KeyringFixture.replacing(json, at: ["devices"]) { devices in .array(Array(devices.array?.dropFirst() ?? [])) }
        let forged = try Keyring.decode(dropped.encoded(.compact))
        #expect(throws: CryptoError.self) { try forged.unlock(passphrase: "correct horse", memory: nil) }
    }

    @Test func aFileThatIsNoKeyringIsMalformed() throws {
        #expect(throws: CryptoError.self) { try Keyring.decode(Array("{}".utf8)) }
        #expect(throws: CryptoError.self) { try Keyring.decode(Array("not json".utf8)) }
        let (keyring, _, _, _) = try KeyringFixture.twoDevices()
        let newer = KeyringFixture.replacing(try JSON.parse(keyring.encoded()), at: ["version"]) { _ in .int(99) }
        #expect(throws: CryptoError.unsupportedVersion(what: "keyring", version: 99)) { try Keyring.decode(newer.encoded(.compact)) }
    }

    @Test func anUnboundedCostIsRefusedBeforeDeriving() throws {
        let (keyring, _, _, _) = try KeyringFixture.twoDevices()
        let greedy = KeyringFixture.replacing(try JSON.parse(keyring.encoded()), at: ["passphrase", "memLimit"]) { _ in .int(1 << 40) }
        #expect(throws: CryptoError.self) { try Keyring.decode(greedy.encoded(.compact)).unlock(passphrase: "correct horse") }
    }

    @Test func moderateIsTheDefaultAndInteractiveWorks() throws {
        #expect(PassphraseCost.moderate.memLimit == 256 << 20)
        let identity = try DeviceIdentity.generate()
        let (keyring, key) = try Keyring.create(passphrase: "pass", deviceName: "d", identity: identity,
                                                cost: .interactive, now: KeyringFixture.created)
        #expect(try keyring.unlock(passphrase: "pass") == key)
    }

    @Test func aPassphraseIsReadInOneUnicodeForm() throws {
        let identity = try DeviceIdentity.generate()
        let (keyring, key) = try Keyring.create(passphrase: "caf\u{E9}", deviceName: "d", identity: identity,
                                                cost: KeyringFixture.cost, now: KeyringFixture.created)
        #expect(try keyring.unlock(passphrase: "cafe\u{301}") == key)
    }
}
