import Foundation
import QuireGit

/// An encrypted remote (Docs/sync.md, "Encrypted remotes"): the vault's repository stays plain,
/// and what goes to the host is its objects in sealed packs listed by a sealed manifest, on the
/// branch `main` of a carrier repository (`Carrier`). A fetch verifies everything new on the host
/// before it indexes a single object (`EncryptedRemote+Verify`); a push adds one pack and a new
/// manifest as a fast-forward of the host's branch, never forced.
final class EncryptedRemote {
    /// The configuration key that marks remote `origin` as encrypted.
    static let configKey = "remote.origin.quire-encrypted"
    /// Small packs are consolidated once this many trail the list (`consolidationPlan`).
    static let consolidateAfter = 8
    /// A pack smaller than this (plain bytes) counts as small.
    static let smallPack = 1 << 20

    /// The vault's repository.
    let vault: Repository
    /// The carrier repository of the remote.
    let carrier: Carrier
    /// The cryptography layer, holding this device's vault key (a newer one adopted from the
    /// host's keyring by `fetch`).
    var sealing: any CarrierSealing
    /// What this device last verified of the host.
    var state: CarrierState

    /// Whether the vault's remote `origin` is an encrypted one.
    static func isConfigured(in repository: Repository) throws -> Bool {
        try repository.configString(configKey) == "true"
    }

    /// The encrypted remote at `url` of the vault `repository`.
    init(vault repository: Repository, url: String, sealing: any CarrierSealing) throws {
        vault = repository
        self.sealing = sealing
        carrier = try Carrier(for: repository, remoteName: "origin", url: url)
        state = try CarrierState.load(in: carrier.directory)
    }

    /// Fetches the host's branch into the carrier, verifies every new manifest and pack, indexes
    /// the new packs into the vault's object database and points `tracking` (the vault's
    /// remote-tracking branch) at the commit the manifest names. Throws
    /// `CarrierError.verificationFailed` — and changes nothing of the vault — when verification
    /// fails. An empty host (no branch yet) leaves `tracking` absent.
    func fetch(tracking: String, options: TransferOptions) throws {
        try carrier.remote().fetch(options: options)
        guard let tip = try carrier.fetchedTip() else {
            if state.counter > 0 { throw CarrierError.verificationFailed(reason: "the remote's branch main is gone") }
            return
        }
        if tip.hex == state.verifiedTip {
            // Nothing new; the remote-tracking branch is set again from the manifest (a `git fetch`
            // by hand points it at the carrier's commit, which must never be merged).
            let main = try currentManifest()?.manifest.main.flatMap(OID.init(hex:))
            let current = try vault.referenceTarget(tracking)
            if let main, current != main {
                try vault.setReference(tracking, to: main, message: "quire: encrypted fetch")
            } else if main == nil, current != nil {
                try vault.deleteReference(tracking)
            }
            return
        }
        if let keyring = try carrier.files(of: tip)["keyring"] {
            sealing = try sealing.adopting(keyring: carrier.repository.blobData(keyring))
        }
        let verified = try verify(tip: tip)
        for pack in verified.newPacks {
            do {
                try vault.indexPack(pack.plain)
            } catch {
                throw CarrierError.verificationFailed(reason: "pack \(pack.name.prefix(12)) holds no valid git pack")
            }
        }
        if let main = verified.manifest.main {
            guard let commit = OID(hex: main), (try? vault.commit(commit)) != nil else {
                throw CarrierError.verificationFailed(reason: "the manifest names a commit no pack holds")
            }
            try vault.setReference(tracking, to: commit, message: "quire: encrypted fetch")
        }
        state.verifiedTip = tip.hex
        state.counter = verified.manifest.counter
        state.manifestHash = verified.hash
        let listed = Set(verified.manifest.packs.map(\.name))
        state.packs = state.packs.filter { listed.contains($0.key) }
        for pack in verified.newPacks { state.packs[pack.name] = pack.blob.hex }
        try state.save(in: carrier.directory)
    }

    /// Pushes `local` (a commit of the vault; nil for the first manifest of a vault with no commit
    /// yet, holding no pack) as the host's `refs/heads/main`: one new sealed pack
    /// of the objects the host lacks (built in `packing`, a `forPushing()` handle), a new
    /// manifest one counter higher chained to the last one verified, in a carrier commit whose
    /// parent is the host's tip as last fetched, pushed without force. A host that moved
    /// meanwhile refuses it (`GitError` with category `.pushRejected`): fetch, merge, push again.
    func push(local: OID?, packing: Repository, options: TransferOptions) throws {
        let parent = try carrier.fetchedTip()
        guard parent?.hex == state.verifiedTip else {
            throw CarrierError.verificationFailed(reason: "the remote's branch was not verified before the push")
        }
        let current = try currentManifest()
        let previous = current?.manifest ?? CarrierManifest(format: CarrierManifest.currentFormat, counter: 0,
                                                            previous: nil, refs: [:], packs: [])
        let plan = Self.consolidationPlan(previous.packs)
        let hiding = (plan.consolidating ? plan.kept.last?.tip : previous.main).flatMap(OID.init(hex:))
        var next = CarrierManifest(format: CarrierManifest.currentFormat, counter: previous.counter + 1,
                                   previous: current?.hash, refs: [:], packs: plan.kept)
        var sealedPack: Data?
        if let local {
            let plain = try packing.pack(from: local, hiding: hiding.map { [$0] } ?? [])
            let (sealed, key) = try sealing.sealPack(plain)
            next.packs.append(CarrierManifest.Pack(name: try sealing.contentHash(sealed), key: key, size: plain.count,
                                                   sealedSize: sealed.count, tip: local.hex, consolidated: plan.consolidating))
            next.refs["refs/heads/main"] = local.hex
            sealedPack = sealed
        }
        let sealedManifest = try sealing.sealManifest(next.encoded())
        let old = try parent.map(carrier.files(of:)) ?? [:]
        var files: [String: OID] = [:]
        let keyring = try old["keyring"].map(carrier.repository.blobData)
        files["keyring"] = try carrier.repository.writeBlob(sealing.keyring(replacing: keyring))
        files["manifest"] = try carrier.repository.writeBlob(sealedManifest)
        for kept in plan.kept {
            guard let blob = old["packs/" + kept.name] else {
                throw CarrierError.verificationFailed(reason: "pack \(kept.name.prefix(12)) is missing")
            }
            files["packs/" + kept.name] = blob
        }
        if let sealedPack, let pack = next.packs.last {
            files["packs/" + pack.name] = try carrier.repository.writeBlob(sealedPack)
        }
        let commit = try carrier.commit(files: files, parent: parent)
        try carrier.remote().push(branch: Carrier.branch, to: Carrier.branch, expected: parent, options: options)
        try carrier.repository.setReference(Carrier.tracking, to: commit, message: "quire: pushed")
        state.verifiedTip = commit.hex
        state.counter = next.counter
        state.manifestHash = try sealing.contentHash(sealedManifest)
        state.packs = Dictionary(uniqueKeysWithValues: next.packs.compactMap { pack in
            files["packs/" + pack.name].map { (pack.name, $0.hex) }
        })
        try state.save(in: carrier.directory)
        // A bare repository from `git init --bare` names an unborn branch: a clone then finds main.
        _ = try? carrier.remote().pointUnbornHead(at: Carrier.branch)
    }

    /// The packs a push keeps, and whether it consolidates: when `consolidateAfter` small packs
    /// not yet consolidated trail the list, the push drops them and its one new pack holds their
    /// objects too (built hiding the tip of the last pack kept). Consolidated packs are never
    /// consolidated again, so each object is uploaded at most twice.
    static func consolidationPlan(_ packs: [CarrierManifest.Pack]) -> (kept: [CarrierManifest.Pack], consolidating: Bool) {
        let trailing = packs.reversed().prefix { $0.size < smallPack && !$0.consolidated }.count
        guard trailing >= consolidateAfter else { return (packs, false) }
        return (Array(packs.dropLast(trailing)), true)
    }

    /// The manifest of the carrier's verified tip (opened, not verified again: the same commit
    /// holds the same bytes) and its content hash; nil before anything was verified.
    func currentManifest() throws -> (manifest: CarrierManifest, hash: String)? {
        guard let hex = state.verifiedTip, let tip = OID(hex: hex) else { return nil }
        return try manifest(of: tip)
    }
}
