import Foundation
import QuireCore
import QuireGit
@testable import QuireSync
import Testing

/// The host changes what an encrypted remote holds; the device refuses each change and keeps
/// its vault as it was.
@Suite struct EncryptedRemoteAttackTests {
    /// A world where the laptop pushed twice and the phone has synced both.
    private func world() throws -> (EncryptedWorld, laptop: Vault, phone: Vault) {
        let world = try EncryptedWorld()
        let laptop = try world.device("laptop")
        try world.write(laptop, "One.md", "one\n")
        try world.sync(laptop, "laptop")
        let phone = try world.device("phone")
        try world.sync(phone, "phone")
        try world.write(laptop, "Two.md", "two\n")
        try world.sync(laptop, "laptop")
        try world.sync(phone, "phone")
        return (world, laptop, phone)
    }

    /// The host's branch moved to a commit of `change(files)` on top of its tip, or replacing it
    /// (the same parent: the device has not seen the tip yet, its manifest is newer).
    private func forge(_ world: EncryptedWorld, replacingTip: Bool = false,
                       _ change: (Repository, inout [String: OID]) throws -> Void) throws {
        let host = try Repository.open(at: world.host)
        let tip = try #require(try host.referenceTarget("refs/heads/main"))
        var files: [String: OID] = [:]
        for entry in try host.treeEntries(host.treeID(ofCommit: tip)) { files[entry.path] = entry.id }
        try change(host, &files)
        let tree = try host.writeTree(entries: files.map { TreeEntry(path: $0.key, id: $0.value) })
        let commit = try host.createCommit(tree: tree, parents: replacingTip ? host.commit(tip).parents : [tip], message: "x\n", author: Carrier.signature,
                                           committer: Carrier.signature)
        try host.setReference("refs/heads/main", to: commit)
    }

    /// The phone's sync is refused with `reason` containing `expected`, and nothing of its vault moved.
    private func expectRefused(_ world: EncryptedWorld, _ phone: Vault, _ expected: String) throws {
        let repository = try Repository.open(at: phone.root)
        let head = try repository.headCommitID()
        let tracking = try repository.referenceTarget("refs/remotes/origin/main")
        try world.write(phone, "Local.md", "local\n")
        do {
            try world.sync(phone, "phone")
            Issue.record("the sync was not refused")
        } catch let CarrierError.verificationFailed(reason) {
            #expect(reason.contains(expected), "\(reason)")
        }
        #expect(try repository.referenceTarget("refs/remotes/origin/main") == tracking)
        // The local commit of Local.md is made; nothing came in.
        #expect(try repository.commit(try #require(try repository.headCommitID())).parents == [try #require(head)])
        #expect(world.read(phone, "Two.md") == "two\n")
    }

    /// One bit of the file at `path` flipped, in the middle.
    private func flip(_ host: Repository, _ files: inout [String: OID], _ path: String) throws {
        var bytes = try host.blobData(try #require(files[path]))
        bytes[bytes.startIndex + bytes.count / 2] ^= 1
        files[path] = try host.writeBlob(bytes)
    }

    private func packs(_ host: Repository, _ files: [String: OID]) -> [String] {
        files.keys.filter { $0.hasPrefix("packs/") }.sorted()
    }

    @Test func aFlippedByteInThePackIsRefused() throws {
        let (world, _, phone) = try world()
        defer { world.remove() }
        try forge(world) { host, files in
            try flip(host, &files, packs(host, files)[0])
        }
        try expectRefused(world, phone, "without a newer manifest")
    }

    @Test func aFlippedByteInANewPackIsRefused() throws {
        let (world, laptop, phone) = try world()
        defer { world.remove() }
        try world.write(laptop, "Three.md", "three\n")
        try world.sync(laptop, "laptop")
        let third = try #require(try Repository.open(at: world.host).referenceTarget("refs/heads/main"))
        try forge(world, replacingTip: true) { host, files in
            let before = Set(try host.treeEntries(host.treeID(ofCommit: host.commit(third).parents[0])).map(\.path))
            try flip(host, &files, try #require(packs(host, files).first { !before.contains($0) }))
        }
        try expectRefused(world, phone, "does not match its hash")
    }

    @Test func aFlippedByteInTheManifestIsRefused() throws {
        let (world, _, phone) = try world()
        defer { world.remove() }
        try forge(world) { host, files in
            var bytes = try host.blobData(try #require(files["manifest"]))
            bytes[bytes.startIndex + 3] ^= 0x40
            files["manifest"] = try host.writeBlob(bytes)
        }
        try expectRefused(world, phone, "does not authenticate")
    }

    @Test func aSwappedPackUnderANewerManifestIsRefused() throws {
        let (world, _, phone) = try world()
        defer { world.remove() }
        // Even a manifest the host could not forge (this stand-in's key is known to the test):
        // the pack's bytes must hash to its name.
        let sealing: any CarrierSealing = TestSealing()
        try forge(world) { host, files in
            let paths = packs(host, files)
            let first = try #require(files[paths[0]])
            files[paths[0]] = files[paths[1]]
            files[paths[1]] = first
            let sealed = try host.blobData(try #require(files["manifest"]))
            guard var manifest = CarrierManifest.decode(try sealing.openManifest(sealed)) else { return }
            manifest.counter += 1
            manifest.previous = try sealing.contentHash(sealed)
            files["manifest"] = try host.writeBlob(sealing.sealManifest(manifest.encoded()))
        }
        try expectRefused(world, phone, "does not match its hash")
    }

    @Test func aMissingPackIsRefused() throws {
        let (world, laptop, phone) = try world()
        defer { world.remove() }
        try world.write(laptop, "Three.md", "three\n")
        try world.sync(laptop, "laptop")
        try forge(world, replacingTip: true) { host, files in files[packs(host, files)[1]] = nil }
        try expectRefused(world, phone, "is missing")
    }

    @Test func aRollbackIsRefused() throws {
        let (world, _, phone) = try world()
        defer { world.remove() }
        let host = try Repository.open(at: world.host)
        let tip = try #require(try host.referenceTarget("refs/heads/main"))
        try host.setReference("refs/heads/main", to: try host.commit(tip).parents[0])
        try expectRefused(world, phone, "rollback")
    }

    @Test func concurrentPushesBothEndWithEveryCommit() throws {
        let (world, laptop, phone) = try world()
        defer { world.remove() }
        // The phone fetched the host's tip; the laptop pushes before the phone does.
        let phoneRepository = try Repository.open(at: phone.root)
        let remote = try EncryptedRemote(vault: phoneRepository, url: world.host.path, sealing: TestSealing())
        try remote.fetch(tracking: "refs/remotes/origin/main", options: TransferOptions())
        try world.write(laptop, "Laptop.md", "laptop\n")
        try world.sync(laptop, "laptop")
        try world.write(phone, "Phone.md", "phone\n")
        try world.sync(phone, "phone", network: false)
        do {
            try remote.push(local: try phoneRepository.headCommitID(), packing: phoneRepository, options: TransferOptions())
            Issue.record("a push over a moved host went through")
        } catch let error as GitError {
            #expect(error.category == .pushRejected)
        }
        try world.sync(phone, "phone")
        try world.sync(laptop, "laptop")
        for vault in [laptop, phone] {
            #expect(world.read(vault, "Laptop.md") == "laptop\n")
            #expect(world.read(vault, "Phone.md") == "phone\n")
        }
    }
}
