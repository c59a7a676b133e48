import Foundation
import Testing
@testable import QuireCrypto

/// `DeviceIdentity` and `KeyMemory` files: owner-only, read back as written.
@Suite struct DeviceFilesTests {
    static func scratch() throws -> String {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("quire-crypto-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        return folder
    }

    static func mode(_ path: String) throws -> Int {
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        return (attributes[.posixPermissions] as? Int) ?? -1
    }

    @Test func anIdentityIsCreatedOnceOwnerOnly() throws {
        let folder = try Self.scratch()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/quire/device.json"
        let made = try DeviceIdentity.loadOrCreate(at: path)
        #expect(try Self.mode(path) == 0o600)
        #expect(try Self.mode(folder + "/quire") == 0o700)
        let again = try DeviceIdentity.loadOrCreate(at: path)
        #expect(again.publicKey == made.publicKey)
        let sealed = try DeviceIdentity.sealedBox([1, 2, 3], to: made.publicKey)
        #expect(again.openSealedBox(sealed) == [1, 2, 3])
        #expect(!"\(made)".contains("secret"))
    }

    @Test func aMemoryRoundTripsOwnerOnly() throws {
        let folder = try Self.scratch()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let (keyring, key, _, _) = try KeyringFixture.twoDevices()
        var memory = KeyMemory(keyring: keyring, key: key)
        memory.manifestCounter = 12
        memory.manifestHash = "ab01"
        let path = folder + "/memory.json"
        try memory.save(to: path)
        #expect(try Self.mode(path) == 0o600)
        #expect(try KeyMemory.load(at: path) == memory)
        #expect(try KeyMemory.load(at: folder + "/none.json") == nil)
        try Data("{".utf8).write(to: URL(fileURLWithPath: path))
        #expect(throws: CryptoError.self) { try KeyMemory.load(at: path) }
    }
}
