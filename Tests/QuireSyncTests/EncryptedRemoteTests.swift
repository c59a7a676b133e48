import Foundation
import QuireCore
import QuireGit
@testable import QuireSync
import Testing

/// A stand-in for QuireCrypto in these in-process tests of the carrier's git side: every byte
/// is XORed with a key and followed by a SHA-256 of key and bytes (tamper-evident, not secret).
/// The real cryptography's tests, and the end-to-end ones, run with QuireCrypto.
struct TestSealing: CarrierSealing {
    let vaultKey = Data("vault key of the test".utf8)

    private func seal(_ plain: Data, key: Data) -> Data {
        var sealed = Data(plain.enumerated().map { $0.element ^ key[key.startIndex + $0.offset % key.count] })
        sealed += SHA256.digest(key + sealed)
        return sealed
    }

    private func open(_ sealed: Data, key: Data) throws -> Data {
        guard sealed.count >= 32 else { throw CarrierError.keyUnavailable }
        let body = sealed.prefix(sealed.count - 32)
        guard Data(SHA256.digest(key + body)) == sealed.suffix(32) else { throw CarrierError.keyUnavailable }
        return Data(body.enumerated().map { $0.element ^ key[key.startIndex + $0.offset % key.count] })
    }

    func sealPack(_ plain: Data) throws -> (sealed: Data, key: Data) {
        let key = Data(UUID().uuidString.utf8)
        return (seal(plain, key: key), key)
    }
    func openPack(_ sealed: Data, key: Data) throws -> Data { try open(sealed, key: key) }
    func sealManifest(_ plain: Data) throws -> Data { seal(plain, key: vaultKey) }
    func openManifest(_ sealed: Data) throws -> Data { try open(sealed, key: vaultKey) }
    func contentHash(_ bytes: Data) -> String { SHA256.digest(bytes).map { String(format: "%02x", $0) }.joined() }
    func keyring(replacing current: Data?) throws -> Data { current ?? Data("keyring".utf8) }
}

/// Two devices syncing through an encrypted remote on a local path, in process.
struct EncryptedWorld {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("quire-encrypted-\(UUID().uuidString)")
    var host: URL { folder.appendingPathComponent("host.git") }

    init() throws {
        _ = try Repository.create(at: folder.appendingPathComponent("host.git"), bare: true)
    }

    func device(_ name: String) throws -> Vault {
        let root = folder.appendingPathComponent(name)
        let repository = try Repository.create(at: root)
        try repository.createRemote(named: "origin", url: host.path)
        try repository.setConfigString(EncryptedRemote.configKey, "true")
        return try Vault.create(at: root)
    }

    @discardableResult
    func sync(_ vault: Vault, _ name: String, sealing: (any CarrierSealing)? = TestSealing(),
              network: Bool = true) throws -> SyncReport {
        var environment = SyncEnvironment(device: name, now: Date(timeIntervalSince1970: 1_800_000_000),
                                          variables: ["HOME": folder.path, "QUIRE_DEVICE": name])
        environment.sealing = sealing
        var options = SyncOptions()
        options.network = network
        return try Syncer(vault: vault, environment: environment, transfer: TransferOptions()).run(options)
    }

    func write(_ vault: Vault, _ path: String, _ text: String) throws {
        try Data(text.utf8).write(to: vault.root.appendingPathComponent(path))
    }

    func read(_ vault: Vault, _ path: String) -> String? {
        (try? Data(contentsOf: vault.root.appendingPathComponent(path))).map { String(decoding: $0, as: UTF8.self) }
    }

    /// Every blob, tree and commit on the host, inflated, as one text.
    func hostText() throws -> String {
        let process = Process()
        let output = Pipe()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["sh", "-c", "git cat-file --batch-all-objects --batch"]
        process.currentDirectoryURL = host
        process.environment = ["PATH": "/usr/bin:/bin", "HOME": folder.path]
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self)
    }

    func remove() { try? FileManager.default.removeItem(at: folder) }
}

@Suite struct EncryptedRemoteTests {
    @Test func twoDevicesSyncAndMergeThroughSealedPacks() throws {
        let world = try EncryptedWorld()
        defer { world.remove() }
        let laptop = try world.device("laptop")
        try world.write(laptop, "Canary.md", "---\ntitle: Canary title\ntags: [secrettag]\n---\nbody canary-text-4711\n")
        try world.sync(laptop, "laptop")
        let phone = try world.device("phone")
        try world.write(phone, "Phone.md", "from the phone\n")
        try world.sync(phone, "phone")
        #expect(world.read(phone, "Canary.md")?.contains("canary-text-4711") == true)
        try world.sync(laptop, "laptop")
        #expect(world.read(laptop, "Phone.md") == "from the phone\n")
        let host = try world.hostText()
        for secret in ["canary-text-4711", "Canary title", "secrettag", "Canary.md", "Phone.md", "laptop", "phone"] {
            #expect(!host.contains(secret), "the host holds \(secret)")
        }
    }

    @Test func aSyncWithoutTheKeyIsRefused() throws {
        let world = try EncryptedWorld()
        defer { world.remove() }
        let laptop = try world.device("laptop")
        try world.write(laptop, "A.md", "a\n")
        #expect(throws: CarrierError.keyUnavailable) { try world.sync(laptop, "laptop", sealing: nil) }
    }
}

@Suite struct EncryptedRemoteUpkeepTests {
    /// The manifest on the host, opened.
    private func manifest(_ world: EncryptedWorld) throws -> CarrierManifest {
        let host = try Repository.open(at: world.host)
        let tip = try #require(try host.referenceTarget("refs/heads/main"))
        let blob = try #require(try host.entry(atPath: "manifest", inTree: host.treeID(ofCommit: tip)))
        return try #require(CarrierManifest.decode(try TestSealing().openManifest(host.blobData(blob.id))))
    }

    @Test func smallPacksAreConsolidatedOnceAndEveryDeviceStillReadsThem() throws {
        let world = try EncryptedWorld()
        defer { world.remove() }
        let laptop = try world.device("laptop")
        for number in 1...EncryptedRemote.consolidateAfter {
            try world.write(laptop, "n\(number).md", "note \(number)\n")
            try world.sync(laptop, "laptop")
        }
        #expect(try manifest(world).packs.count == EncryptedRemote.consolidateAfter)
        // The phone's first sync pushes its own first commit merged: the ninth push carries every
        // object in one consolidated pack and drops the eight.
        let phone = try world.device("phone")
        try world.sync(phone, "phone")
        #expect(try manifest(world).packs.map(\.consolidated) == [true])
        try world.write(laptop, "last.md", "last\n")
        try world.sync(laptop, "laptop")
        for number in 1...3 {
            try world.write(laptop, "m\(number).md", "more \(number)\n")
            try world.sync(laptop, "laptop")
        }
        #expect(try manifest(world).packs.map(\.consolidated) == [true, false, false, false, false])
        // A device that had the old packs and a new one both read it all.
        let tablet = try world.device("tablet")
        for device in [(phone, "phone"), (tablet, "tablet")] {
            try world.sync(device.0, device.1)
            #expect(world.read(device.0, "n1.md") == "note 1\n")
            #expect(world.read(device.0, "last.md") == "last\n")
            #expect(world.read(device.0, "m3.md") == "more 3\n")
        }
    }
}
