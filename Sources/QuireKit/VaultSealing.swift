import Foundation
import QuireCore
import QuireCrypto
import QuireSync

/// QuireSync's `CarrierSealing` over QuireCrypto with this device's vault key: packs sealed by
/// `PackSeal` (secretstream, padded to size buckets, a fresh key each), manifests by
/// `ManifestSeal` under the vault key, hashes by `ContentDigest` (BLAKE2b-256).
struct VaultSealing: CarrierSealing {
    /// The context bound into every sealed manifest.
    static let manifestContext = "quire manifest v1"

    /// The vault key.
    let key: VaultKey
    /// This device's newest keyring.
    let keyring: Keyring
    /// The keys of the generations before `key`, newest first: manifests sealed before a
    /// rotation open under them.
    var earlierKeys: [VaultKey] = []
    /// This device's key files, to accept a newer keyring from the host (`adopting`); nil: the
    /// key never changes (a clone in progress).
    var deviceKeys: DeviceKeys?

    func sealPack(_ plain: Data) throws -> (sealed: Data, key: Data) {
        let (sealed, key) = try PackSeal.seal(Array(plain))
        return (Data(sealed), Data(key))
    }

    func openPack(_ sealed: Data, key: Data) throws -> Data {
        Data(try PackSeal.open(Array(sealed), key: Array(key)))
    }

    func sealManifest(_ plain: Data) throws -> Data {
        Data(try ManifestSeal.seal(Array(plain), key: key, context: Self.manifestContext))
    }

    func openManifest(_ sealed: Data) throws -> Data {
        let bytes = Array(sealed)
        for older in earlierKeys {
            if let plain = try? ManifestSeal.open(bytes, key: older, context: Self.manifestContext) { return Data(plain) }
        }
        return Data(try ManifestSeal.open(bytes, key: key, context: Self.manifestContext))
    }

    func contentHash(_ bytes: Data) throws -> String {
        ContentDigest.hex(try ContentDigest.of(Array(bytes)))
    }

    /// The host's keyring when it is newer (a generation or revision later: another device
    /// changed it; every device checks its MAC when it unlocks it), else this device's.
    func keyring(replacing current: Data?) throws -> Data {
        if let current, let hosted = try? Keyring.decode(Array(current)),
           (hosted.generation, hosted.revision) > (keyring.generation, keyring.revision) {
            return current
        }
        return Data(keyring.encoded())
    }

    /// The sealing for the host's keyring: this one when the host holds this device's keyring or
    /// an older one; when this device joined by passphrase and the host's keyring (same key, its
    /// MAC checked) lacks its slot, that keyring with this device's slot added again (to publish
    /// with the next push: another device's change, made meanwhile, is kept); else the host's
    /// keyring accepted by this device's slot (`DeviceKeys.accept`: its MAC, its previous-key
    /// chain back to the key this device knows, no rollback), with its key and the earlier ones.
    /// A device revoked by a rotation throws `CryptoError.noDeviceSlot`.
    func adopting(keyring data: Data) throws -> any CarrierSealing {
        let hosted = try Keyring.decode(Array(data))
        guard let deviceKeys, hosted != keyring else { return self }
        let identity = try deviceKeys.identity()
        if !hosted.hasSlot(for: identity), keyring.hasSlot(for: identity), hosted.generation == keyring.generation,
           let me = try keyring.devices(key: key, identity: identity).first(where: \.isThisDevice) {
            _ = try hosted.devices(key: key, identity: nil)  // its MAC under this key, else `tampered`
            try deviceKeys.remember(hosted, key: key)
            let added = QuireClock.parseISO8601(me.addedAt) ?? Date()
            let rejoined = try hosted.adding(deviceName: me.name, identity: identity, key: key, now: added)
            try deviceKeys.store(rejoined)
            return VaultSealing(key: key, keyring: rejoined, earlierKeys: earlierKeys, deviceKeys: deviceKeys)
        }
        guard (hosted.generation, hosted.revision) > (keyring.generation, keyring.revision) else { return self }
        let newKey = try deviceKeys.accept(hosted)
        let older = hosted.generation > keyring.generation ? try hosted.earlierKeys(from: newKey, downTo: keyring.generation) : []
        return VaultSealing(key: newKey, keyring: hosted, earlierKeys: older + earlierKeys, deviceKeys: deviceKeys)
    }
}
