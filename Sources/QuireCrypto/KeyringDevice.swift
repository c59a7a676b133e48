/// One device in the keyring, as `Keyring.devices` reads it with the vault key.
public struct KeyringDevice: Sendable, Equatable {
    /// The device's name.
    public let name: String
    /// When it was added (ISO 8601, UTC).
    public let addedAt: String
    /// Whether this is the device asking (its identity's public key holds the slot).
    public let isThisDevice: Bool
    /// The slot's id in hex.
    public let slotID: String
}
