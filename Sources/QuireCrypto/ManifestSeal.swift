import CSodium

/// Seals an encrypted remote's manifest (and the keyring's small secrets) with
/// XChaCha20-Poly1305-IETF under the vault key: a random 24-byte nonce, then the ciphertext
/// with its 16-byte tag. The context (format version and purpose, e.g. "quire manifest v1") is
/// authenticated as additional data, so a sealed value cannot be replayed as another kind.
public enum ManifestSeal {
    /// Seals `plain` under `key`, binding `context`.
    public static func seal(_ plain: [UInt8], key: VaultKey, context: String) throws(CryptoError) -> [UInt8] {
        var raw = key.copyBytes()
        defer { Sodium.wipe(&raw) }
        return try seal(plain, rawKey: raw, context: context)
    }

    /// Opens what `seal` made with the same key and context; anything else (a flipped byte, a
    /// wrong key or context, a short value) is `CryptoError.tampered(what: context)`.
    public static func open(_ sealed: [UInt8], key: VaultKey, context: String) throws(CryptoError) -> [UInt8] {
        var raw = key.copyBytes()
        defer { Sodium.wipe(&raw) }
        return try open(sealed, rawKey: raw, context: context)
    }

    static let nonceBytes = Int(crypto_aead_xchacha20poly1305_ietf_npubbytes())
    static let tagBytes = Int(crypto_aead_xchacha20poly1305_ietf_abytes())

    /// `seal` with a key given as 32 raw bytes (a passphrase-derived key).
    static func seal(_ plain: [UInt8], rawKey: [UInt8], context: String) throws(CryptoError) -> [UInt8] {
        try Sodium.ensure()
        guard rawKey.count == Int(crypto_aead_xchacha20poly1305_ietf_keybytes()) else {
            throw CryptoError.malformed(what: "key", reason: "\(rawKey.count) bytes")
        }
        let nonce = try Sodium.randomBytes(nonceBytes)
        let additional = Array(context.utf8)
        var sealed = nonce + [UInt8](repeating: 0, count: plain.count + tagBytes)
        var sealedLength: UInt64 = 0
        let status = sealed.withUnsafeMutableBufferPointer { out -> Int32 in
            guard let outBase = out.baseAddress else { return -1 }
            return crypto_aead_xchacha20poly1305_ietf_encrypt(
                outBase + nonceBytes, &sealedLength, plain, UInt64(plain.count),
                additional, UInt64(additional.count), nil, nonce, rawKey)
        }
        try Sodium.check(status, "crypto_aead_xchacha20poly1305_ietf_encrypt")
        return sealed
    }

    /// `open` with a key given as 32 raw bytes.
    static func open(_ sealed: [UInt8], rawKey: [UInt8], context: String) throws(CryptoError) -> [UInt8] {
        try Sodium.ensure()
        guard rawKey.count == Int(crypto_aead_xchacha20poly1305_ietf_keybytes()) else {
            throw CryptoError.malformed(what: "key", reason: "\(rawKey.count) bytes")
        }
        guard sealed.count >= nonceBytes + tagBytes else { throw CryptoError.tampered(what: context) }
        let additional = Array(context.utf8)
        var plain = [UInt8](repeating: 0, count: sealed.count - nonceBytes - tagBytes)
        var plainLength: UInt64 = 0
        let status = sealed.withUnsafeBufferPointer { input -> Int32 in
            plain.withUnsafeMutableBufferPointer { out -> Int32 in
                guard let inBase = input.baseAddress else { return -1 }
                return crypto_aead_xchacha20poly1305_ietf_decrypt(
                    out.baseAddress, &plainLength, nil, inBase + nonceBytes,
                    UInt64(input.count - nonceBytes), additional, UInt64(additional.count),
                    inBase, rawKey)
            }
        }
        guard status == 0 else { throw CryptoError.tampered(what: context) }
        return plain
    }
}
