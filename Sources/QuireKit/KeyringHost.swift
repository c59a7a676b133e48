import QuireCrypto

/// Where a vault's keyring is kept: the encrypted remote's host. The key workflows
/// (`KeyManagement`) read the keyring the host holds, verified, and publish a changed one
/// through it; the transport implements this over its carrier branch.
public protocol KeyringHost {
    /// The keyring the host holds now (fetched; the host's branch verified as far as it can be
    /// without the key).
    func currentKeyring() throws -> Keyring
    /// Publishes `keyring` as a fast-forward of the host's branch, with the manifest sealed anew
    /// under `key` (the same packs: none is uploaded). Returns false, changing nothing, when the
    /// host moved since `currentKeyring()` (another device pushed): read it again and redo.
    func publish(_ keyring: Keyring, key: VaultKey) throws -> Bool
}
