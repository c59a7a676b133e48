import Foundation
import QuireGit

extension EncryptedRemote {
    /// What a verified carrier commit brings: its manifest and the manifest's content hash, and
    /// the packs not verified before, opened.
    struct Verified {
        /// One pack new to this device.
        struct Pack {
            /// Its name (the content hash of the sealed bytes).
            var name: String
            /// The blob that holds it in the carrier.
            var blob: OID
            /// The git pack it sealed.
            var plain: Data
        }

        var manifest: CarrierManifest
        var hash: String
        var newPacks: [Pack]
    }

    /// Verifies carrier commit `tip`, new to this device: its manifest authenticates, is newer
    /// than the newest seen (a lower counter is a rollback, an equal one a fork or a tip moved
    /// without a new manifest), and chains back through each carrier commit to the one last
    /// verified; the branch holds nothing but the keyring, the manifest and the packs it lists;
    /// every pack not verified before is there, hashes to its name and opens under its key.
    /// Throws `CarrierError.verificationFailed` naming the first check that failed.
    func verify(tip: OID) throws -> Verified {
        let (manifest, hash) = try manifest(of: tip)
        if manifest.counter < state.counter {
            throw CarrierError.verificationFailed(
                reason: "its manifest (\(manifest.counter)) is older than the newest this device has seen (\(state.counter)): a rollback")
        }
        if manifest.counter == state.counter {
            throw CarrierError.verificationFailed(reason: hash == state.manifestHash
                ? "the remote's branch moved without a newer manifest"
                : "its manifest \(manifest.counter) differs from the one this device has seen under that number")
        }
        if state.counter > 0 { try verifyChain(from: tip, manifest: manifest) }
        let files = try carrier.files(of: tip)
        let listed = Set(manifest.packs.map { "packs/" + $0.name })
        if let stray = files.keys.sorted().first(where: { $0 != "keyring" && $0 != "manifest" && !listed.contains($0) }) {
            throw CarrierError.verificationFailed(reason: "the remote's branch holds a file no manifest lists (\(stray))")
        }
        var newPacks: [Verified.Pack] = []
        for pack in manifest.packs {
            guard let blob = files["packs/" + pack.name] else {
                throw CarrierError.verificationFailed(reason: "pack \(pack.name.prefix(12)) is missing")
            }
            if state.packs[pack.name] == blob.hex { continue }
            let sealed = try carrier.repository.blobData(blob)
            guard try sealing.contentHash(sealed) == pack.name else {
                throw CarrierError.verificationFailed(reason: "pack \(pack.name.prefix(12)) does not match its hash")
            }
            let plain: Data
            do {
                plain = try sealing.openPack(sealed, key: pack.key)
            } catch {
                throw CarrierError.verificationFailed(reason: "pack \(pack.name.prefix(12)) does not open under its key")
            }
            newPacks.append(Verified.Pack(name: pack.name, blob: blob, plain: plain))
        }
        return Verified(manifest: manifest, hash: hash, newPacks: newPacks)
    }

    /// Walks the carrier's first parents from `tip` down to the commit last verified: each
    /// manifest must carry the counter one higher than its parent's and its parent's hash.
    private func verifyChain(from tip: OID, manifest: CarrierManifest) throws {
        var commit = tip
        var newer = manifest
        while true {
            guard let parent = try carrier.repository.commit(commit).parents.first else {
                throw CarrierError.verificationFailed(reason: "the remote's history does not continue from the manifest this device has seen")
            }
            let (older, olderHash) = try self.manifest(of: parent)
            guard newer.previous == olderHash, newer.counter == older.counter + 1 else {
                throw CarrierError.verificationFailed(reason: "manifest \(newer.counter) does not follow manifest \(older.counter)")
            }
            if parent.hex == state.verifiedTip {
                guard olderHash == state.manifestHash else {
                    throw CarrierError.verificationFailed(reason: "the manifest this device verified was replaced")
                }
                return
            }
            if older.counter <= state.counter {
                throw CarrierError.verificationFailed(reason: "the remote's history does not continue from the manifest this device has seen")
            }
            commit = parent
            newer = older
        }
    }

    /// The manifest of carrier commit `commit`, opened and read, and the content hash of its
    /// sealed bytes. Throws `verificationFailed` when it is missing, does not authenticate under
    /// the vault key, or is not a manifest of a format this quire reads.
    func manifest(of commit: OID) throws -> (manifest: CarrierManifest, hash: String) {
        guard let blob = try carrier.files(of: commit)["manifest"] else {
            throw CarrierError.verificationFailed(reason: "the remote's branch holds no manifest")
        }
        let sealed = try carrier.repository.blobData(blob)
        let plain: Data
        do {
            plain = try sealing.openManifest(sealed)
        } catch {
            throw CarrierError.verificationFailed(reason: "its manifest does not authenticate under the vault key")
        }
        guard let manifest = CarrierManifest.decode(plain), manifest.format == CarrierManifest.currentFormat else {
            throw CarrierError.verificationFailed(reason: "its manifest is not one this quire reads")
        }
        return (manifest, try sealing.contentHash(sealed))
    }
}
