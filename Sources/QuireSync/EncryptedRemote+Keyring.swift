import Foundation
import QuireGit

extension EncryptedRemote {
    /// The keyring file of the carrier commit this device last verified; nil before the first
    /// verified fetch, or when that commit holds none.
    func verifiedKeyring() throws -> Data? {
        guard let hex = state.verifiedTip, let tip = OID(hex: hex), let blob = try carrier.files(of: tip)["keyring"] else {
            return nil
        }
        return try carrier.repository.blobData(blob)
    }

    /// Publishes `keyring` as a fast-forward of the host's branch: a carrier commit on the tip
    /// last verified holding it, the same packs (none is uploaded), and a new manifest — one
    /// counter higher, chained to the last, the same refs and packs — sealed by `newSealing`
    /// (the vault key the keyring now holds). Returns false, with nothing published and this
    /// device's state unchanged, when the host moved since the last fetch (another device
    /// pushed): fetch again and redo the change.
    func publish(keyring: Data, sealedBy newSealing: any CarrierSealing, options: TransferOptions) throws -> Bool {
        let parent = try carrier.fetchedTip()
        guard let parent, parent.hex == state.verifiedTip, let current = try currentManifest() else {
            throw CarrierError.verificationFailed(reason: "the remote's branch was not verified before the keyring was published")
        }
        let next = CarrierManifest(format: CarrierManifest.currentFormat, counter: current.manifest.counter + 1,
                                   previous: current.hash, refs: current.manifest.refs, packs: current.manifest.packs)
        let sealedManifest = try newSealing.sealManifest(next.encoded())
        var files = try carrier.files(of: parent)
        files["keyring"] = try carrier.repository.writeBlob(keyring)
        files["manifest"] = try carrier.repository.writeBlob(sealedManifest)
        let commit = try carrier.commit(files: files, parent: parent)
        do {
            try carrier.remote().push(branch: Carrier.branch, to: Carrier.branch, expected: parent, options: options)
        } catch let error as GitError where error.category == .pushRejected && error.reason != .refusedByServer {
            return false
        }
        try carrier.repository.setReference(Carrier.tracking, to: commit, message: "quire: keyring published")
        state.verifiedTip = commit.hex
        state.counter = next.counter
        state.manifestHash = try newSealing.contentHash(sealedManifest)
        try state.save(in: carrier.directory)
        return true
    }
}

extension EncryptedHost {
    /// Fetches the encrypted remote at `url` into the vault `repository` with verification (as a
    /// sync's fetch, its branch `main` into `tracking`) and returns the keyring the verified tip
    /// holds; nil when the host holds none.
    public static func keyring(_ repository: Repository, url: String, sealing: any CarrierSealing, tracking: String,
                               options: TransferOptions) throws -> Data? {
        let remote = try EncryptedRemote(vault: repository, url: url, sealing: sealing)
        try remote.fetch(tracking: tracking, options: options)
        return try remote.verifiedKeyring()
    }

    /// Publishes `keyring` on the encrypted remote at `url` as a fast-forward of the tip last
    /// verified (`keyring(_:url:…)` first), its new manifest sealed by `newSealing`; `sealing`
    /// opens the current one. False when the host moved meanwhile (nothing published).
    public static func publish(keyring: Data, _ repository: Repository, url: String, sealing: any CarrierSealing,
                               newSealing: any CarrierSealing, options: TransferOptions) throws -> Bool {
        try EncryptedRemote(vault: repository, url: url, sealing: sealing).publish(keyring: keyring, sealedBy: newSealing, options: options)
    }
}
