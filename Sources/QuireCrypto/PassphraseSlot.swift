import CSodium
import QuireCore

/// The keyring's passphrase slot: the vault key sealed under the key Argon2id derives from the
/// passphrase, with the salt and cost it was derived with.
struct PassphraseSlot: Sendable, Equatable {
    /// 16 random bytes.
    var salt: [UInt8]
    /// The Argon2id cost.
    var cost: PassphraseCost
    /// The vault key, sealed (`ManifestSeal`) under the derived key.
    var wrappedKey: [UInt8]

    /// What the wrapped key is bound to.
    static func context(generation: Int) -> String { "quire keyring v1 passphrase slot generation \(generation)" }

    /// A slot for `key` under `passphrase` with a fresh salt.
    static func make(passphrase: String, key: VaultKey, generation: Int, cost: PassphraseCost) throws(CryptoError) -> PassphraseSlot {
        let salt = try Sodium.randomBytes(Int(crypto_pwhash_saltbytes()))
        var derived = try cost.derive(passphrase: passphrase, salt: salt)
        defer { Sodium.wipe(&derived) }
        var plain = key.copyBytes()
        defer { Sodium.wipe(&plain) }
        let wrapped = try ManifestSeal.seal(plain, rawKey: derived, context: context(generation: generation))
        return PassphraseSlot(salt: salt, cost: cost, wrappedKey: wrapped)
    }

    /// The vault key, or `wrongPassphrase`.
    func open(passphrase: String, generation: Int) throws(CryptoError) -> VaultKey {
        guard cost.isAcceptable else {
            throw CryptoError.malformed(what: "keyring passphrase slot", reason: "Argon2id cost out of bounds")
        }
        var derived = try cost.derive(passphrase: passphrase, salt: salt)
        defer { Sodium.wipe(&derived) }
        var plain: [UInt8]
        do {
            plain = try ManifestSeal.open(wrappedKey, rawKey: derived, context: Self.context(generation: generation))
        } catch {
            throw CryptoError.wrongPassphrase
        }
        defer { Sodium.wipe(&plain) }
        return try VaultKey(bytes: plain)
    }
}
