import Foundation

/// What an encrypted remote needs from the cryptography layer (QuireKit implements it over
/// QuireCrypto with the vault key of this device): QuireSync moves sealed bytes and never
/// sees a key of its own. Every byte an encrypted remote sends to the host passes through it.
public protocol CarrierSealing: Sendable {
    /// `plain` (a git pack) sealed under a fresh random key, padded to a size bucket; the key goes
    /// into the manifest.
    func sealPack(_ plain: Data) throws -> (sealed: Data, key: Data)
    /// The pack `sealed` held; throws when it does not authenticate under `key`.
    func openPack(_ sealed: Data, key: Data) throws -> Data
    /// A manifest sealed under the vault key (authenticated encryption).
    func sealManifest(_ plain: Data) throws -> Data
    /// The manifest `sealed` held; throws when it does not authenticate under the vault key.
    func openManifest(_ sealed: Data) throws -> Data
    /// The content hash of `bytes` (BLAKE2b-256) in lowercase hex: names packs and chains manifests.
    func contentHash(_ bytes: Data) throws -> String
    /// The keyring file to keep on the host's branch, given the one there now (nil: none yet):
    /// the newer of the two.
    func keyring(replacing current: Data?) throws -> Data
    /// The sealing for the keyring `keyring` a fetch found on the host, before its manifests are
    /// opened: after another device rotated the key, one holding the new key (and the earlier
    /// ones, for manifests sealed before); throws when this device may not accept it (revoked,
    /// a forged or rolled-back keyring). The default keeps this sealing.
    func adopting(keyring: Data) throws -> any CarrierSealing
}

extension CarrierSealing {
    /// Keeps this sealing: for sealings whose key never changes.
    public func adopting(keyring: Data) throws -> any CarrierSealing { self }
}
