import Foundation
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

    /// This sealing when the host's keyring is no newer than this device's; else the host's
    /// keyring accepted by this device's slot (`DeviceKeys.accept`: its MAC, its previous-key
    /// chain back to the key this device knows, no rollback), with its key and the earlier ones.
    /// A device revoked by the rotation throws `CryptoError.noDeviceSlot`.
    func adopting(keyring data: Data) throws -> any CarrierSealing {
        let hosted = try Keyring.decode(Array(data))
        guard let deviceKeys, (hosted.generation, hosted.revision) > (keyring.generation, keyring.revision) else { return self }
        let newKey = try deviceKeys.accept(hosted)
        let older = hosted.generation > keyring.generation ? try hosted.earlierKeys(from: newKey, downTo: keyring.generation) : []
        return VaultSealing(key: newKey, keyring: hosted, earlierKeys: older + earlierKeys, deviceKeys: deviceKeys)
    }
}
