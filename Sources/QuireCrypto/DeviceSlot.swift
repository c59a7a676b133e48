import QuireCore

/// One device's slot: a random id, the device's X25519 public key, the vault key in a sealed box
/// to it, and its name and added date sealed under the vault key.
struct DeviceSlot: Sendable, Equatable {
    /// 16 random bytes naming the slot.
    var id: [UInt8]
    /// The device's X25519 public key.
    var publicKey: [UInt8]
    /// `crypto_box_seal` of the vault key to `publicKey`.
    var sealedKey: [UInt8]
    /// `{"name", "addedAt"}` sealed under the vault key, bound to the slot id.
    var sealedLabel: [UInt8]

    /// What a label is bound to.
    static func context(id: [UInt8]) -> String { "quire keyring v1 device label \(ContentDigest.hex(id))" }

    /// A slot for the device `name` holding `publicKey`, added at `addedAt`.
    static func make(name: String, addedAt: String, publicKey: [UInt8], key: VaultKey) throws(CryptoError) -> DeviceSlot {
        let id = try Sodium.randomBytes(16)
        var plain = key.copyBytes()
        defer { Sodium.wipe(&plain) }
        let label = JSON.object([("name", .string(name)), ("addedAt", .string(addedAt))]).encoded(.compact)
        return DeviceSlot(id: id, publicKey: publicKey,
                          sealedKey: try DeviceIdentity.sealedBox(plain, to: publicKey),
                          sealedLabel: try ManifestSeal.seal(label, key: key, context: context(id: id)))
    }

    /// The device's name and added date.
    func label(key: VaultKey) throws(CryptoError) -> (name: String, addedAt: String) {
        let plain = try ManifestSeal.open(sealedLabel, key: key, context: Self.context(id: id))
        guard let json = try? JSON.parse(plain), let name = json["name"]?.string, let added = json["addedAt"]?.string else {
            throw CryptoError.malformed(what: "keyring device label", reason: "no name and date")
        }
        return (name, added)
    }
}
