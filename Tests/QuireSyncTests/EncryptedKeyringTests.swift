import Foundation
import QuireCore
import QuireGit
@testable import QuireSync
import Testing

/// Publishing a changed keyring on an encrypted remote (`EncryptedRemote.publish(keyring:…)`):
/// a fast-forward with a new manifest and the same packs, refused when the host moved.
@Suite struct EncryptedKeyringTests {
    /// `TestSealing` with manifests sealed under another key (as after a rotation): a prefix
    /// stands for the key, enough for the carrier's git side.
    struct RekeyedSealing: CarrierSealing {
        let base = TestSealing()
        let mark = Data("second key:".utf8)
        func sealPack(_ plain: Data) throws -> (sealed: Data, key: Data) { try base.sealPack(plain) }
        func openPack(_ sealed: Data, key: Data) throws -> Data { try base.openPack(sealed, key: key) }
        func sealManifest(_ plain: Data) throws -> Data { mark + plain }
        func openManifest(_ sealed: Data) throws -> Data {
            guard sealed.starts(with: mark) else { throw CarrierError.keyUnavailable }
            return sealed.dropFirst(mark.count)
        }
        func contentHash(_ bytes: Data) -> String { base.contentHash(bytes) }
        func keyring(replacing current: Data?) throws -> Data { current ?? Data("keyring".utf8) }
    }

    static func remote(_ vault: Vault, _ world: EncryptedWorld, sealing: any CarrierSealing = TestSealing()) throws -> EncryptedRemote {
        let remote = try EncryptedRemote(vault: Repository.open(at: vault.root), url: world.host.path, sealing: sealing)
        try remote.fetch(tracking: "refs/remotes/origin/main", options: TransferOptions())
        return remote
    }

    /// A host with one note synced from "laptop", and laptop's remote fetched.
    static func laptop() throws -> (EncryptedWorld, EncryptedRemote) {
        let world = try EncryptedWorld()
        let laptop = try world.device("laptop")
        try world.write(laptop, "A.md", "a\n")
        try world.sync(laptop, "laptop")
        return (world, try remote(laptop, world))
    }

    @Test func aKeyringIsPublishedWithTheSamePacksAndANewManifest() throws {
        let (world, remote) = try Self.laptop()
        defer { world.remove() }
        let host = try Repository.open(at: world.host)
        let before = try remote.carrier.files(of: #require(try host.referenceTarget("refs/heads/main")))
        #expect(try remote.verifiedKeyring() == Data("keyring".utf8))

        #expect(try remote.publish(keyring: Data("keyring 2".utf8), sealedBy: RekeyedSealing(), options: TransferOptions()))
        let after = try remote.carrier.files(of: #require(try host.referenceTarget("refs/heads/main")))
        #expect(after.filter { $0.key.hasPrefix("packs/") } == before.filter { $0.key.hasPrefix("packs/") })
        #expect(after["manifest"] != before["manifest"])
        #expect(try host.blobData(#require(after["keyring"])) == Data("keyring 2".utf8))
        #expect(try remote.verifiedKeyring() == Data("keyring 2".utf8))

        // Another device reads the new manifest only with the new key, and follows the chain.
        let phone = try world.device("phone")
        #expect(throws: CarrierError.self) { try Self.remote(phone, world) }
        let follower = try Self.remote(phone, world, sealing: RekeyedSealing())
        #expect(try follower.currentManifest()?.manifest.counter == 2)
    }

    @Test func aHostThatMovedRefusesThePublication() throws {
        let (world, remote) = try Self.laptop()
        defer { world.remove() }
        let phone = try world.device("phone")
        try world.write(phone, "P.md", "p\n")
        try world.sync(phone, "phone")
        let host = try Repository.open(at: world.host)
        let tip = try host.referenceTarget("refs/heads/main")
        #expect(try !remote.publish(keyring: Data("keyring 2".utf8), sealedBy: TestSealing(), options: TransferOptions()))
        #expect(try host.referenceTarget("refs/heads/main") == tip)
        #expect(try remote.verifiedKeyring() == Data("keyring".utf8))
    }
}
