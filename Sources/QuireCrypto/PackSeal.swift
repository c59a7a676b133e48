import CSodium

/// Seals one pack of an encrypted remote: a fresh random key per pack, libsodium's secretstream
/// (XChaCha20-Poly1305) in 64 KiB chunks, the last chunk tagged final, and the plain text padded
/// inside the encryption to a size bucket (`bucket(for:)`), so the sealed size tells only the
/// bucket. The key travels in the manifest, never beside the pack.
///
/// Layout: the 24-byte secretstream header, then each chunk's ciphertext with its 17-byte tag.
/// The padded text is ISO/IEC 7816-4 padding (`sodium_pad`: a 0x80 byte then zeros).
public enum PackSeal {
    /// The plain bytes in each secretstream chunk (the last may be shorter).
    public static let chunkSize = 64 * 1024

    /// The smallest bucket: nothing seals to less.
    public static let smallestBucket = 256

    /// The padded size for `length` bytes (padding byte included): powers of two from 256 B up
    /// to 64 KiB, then steps of an eighth of the power of two below, so above 64 KiB padding
    /// adds at most 12.5 %.
    public static func bucket(for length: Int) -> Int {
        guard length > smallestBucket else { return smallestBucket }
        guard length > chunkSize else {
            var size = smallestBucket
            while size < length { size *= 2 }
            return size
        }
        var power = chunkSize
        while power * 2 <= length { power *= 2 }
        let step = power / 8
        return (length + step - 1) / step * step
    }

    /// The sealed size of a pack of `plainLength` bytes.
    public static func sealedSize(forPlainLength plainLength: Int) -> Int {
        let padded = bucket(for: plainLength + 1)
        let chunks = (padded + chunkSize - 1) / chunkSize
        return Int(crypto_secretstream_xchacha20poly1305_headerbytes())
            + padded + chunks * Int(crypto_secretstream_xchacha20poly1305_abytes())
    }

    /// Seals `plain` under a fresh random key; returns the sealed bytes and that key (32 bytes,
    /// for the manifest).
    public static func seal(_ plain: [UInt8]) throws(CryptoError) -> (sealed: [UInt8], key: [UInt8]) {
        try Sodium.ensure()
        var key = [UInt8](repeating: 0, count: Int(crypto_secretstream_xchacha20poly1305_keybytes()))
        crypto_secretstream_xchacha20poly1305_keygen(&key)
        let bucket = bucket(for: plain.count + 1)
        var padded = plain
        padded.append(contentsOf: repeatElement(0, count: bucket - plain.count))
        defer { Sodium.wipe(&padded) }
        var paddedLength = 0
        try Sodium.check(sodium_pad(&paddedLength, &padded, plain.count, bucket, bucket), "sodium_pad")
        padded.removeLast(padded.count - paddedLength)

        let headerBytes = Int(crypto_secretstream_xchacha20poly1305_headerbytes())
        let tagBytes = Int(crypto_secretstream_xchacha20poly1305_abytes())
        let chunks = (paddedLength + chunkSize - 1) / chunkSize
        var sealed = [UInt8](repeating: 0, count: headerBytes + paddedLength + chunks * tagBytes)
        var state = crypto_secretstream_xchacha20poly1305_state()
        defer { withUnsafeMutableBytes(of: &state) { raw in if let base = raw.baseAddress { sodium_memzero(base, raw.count) } } }
        try sealed.withUnsafeMutableBufferPointer { (out) throws(CryptoError) in
            guard let outBase = out.baseAddress else { throw CryptoError.libsodium(function: "crypto_secretstream_xchacha20poly1305_init_push") }
            try Sodium.check(crypto_secretstream_xchacha20poly1305_init_push(&state, outBase, key),
                             "crypto_secretstream_xchacha20poly1305_init_push")
            try padded.withUnsafeBufferPointer { (input) throws(CryptoError) in
                guard let inBase = input.baseAddress else { throw CryptoError.libsodium(function: "crypto_secretstream_xchacha20poly1305_push") }
                var offset = 0
                var written = headerBytes
                while offset < paddedLength {
                    let length = min(chunkSize, paddedLength - offset)
                    let last = offset + length == paddedLength
                    let tag = last ? crypto_secretstream_xchacha20poly1305_tag_final() : crypto_secretstream_xchacha20poly1305_tag_message()
                    var chunkLength: UInt64 = 0
                    try Sodium.check(crypto_secretstream_xchacha20poly1305_push(
                        &state, outBase + written, &chunkLength, inBase + offset, UInt64(length), nil, 0, tag),
                                     "crypto_secretstream_xchacha20poly1305_push")
                    offset += length
                    written += Int(chunkLength)
                }
            }
        }
        return (sealed, key)
    }

    /// Opens a sealed pack with its key. Refuses (`CryptoError.tampered`) a flipped byte, a
    /// wrong key, bytes after the final chunk or bad padding, and (`CryptoError.truncated`) a
    /// pack that ends before its final chunk.
    public static func open(_ sealed: [UInt8], key: [UInt8]) throws(CryptoError) -> [UInt8] {
        try Sodium.ensure()
        let headerBytes = Int(crypto_secretstream_xchacha20poly1305_headerbytes())
        let tagBytes = Int(crypto_secretstream_xchacha20poly1305_abytes())
        guard key.count == Int(crypto_secretstream_xchacha20poly1305_keybytes()) else {
            throw CryptoError.malformed(what: "pack key", reason: "\(key.count) bytes")
        }
        guard sealed.count >= headerBytes + tagBytes else { throw CryptoError.truncated(what: "pack") }
        var state = crypto_secretstream_xchacha20poly1305_state()
        defer { withUnsafeMutableBytes(of: &state) { raw in if let base = raw.baseAddress { sodium_memzero(base, raw.count) } } }
        var plain = [UInt8](repeating: 0, count: sealed.count - headerBytes)
        var plainLength = 0
        try sealed.withUnsafeBufferPointer { (input) throws(CryptoError) in
            guard let inBase = input.baseAddress else { throw CryptoError.truncated(what: "pack") }
            guard crypto_secretstream_xchacha20poly1305_init_pull(&state, inBase, key) == 0 else {
                throw CryptoError.tampered(what: "pack")
            }
            try plain.withUnsafeMutableBufferPointer { (out) throws(CryptoError) in
                guard let outBase = out.baseAddress else { throw CryptoError.truncated(what: "pack") }
                var offset = headerBytes
                var sawFinal = false
                while offset < sealed.count {
                    guard !sawFinal else { throw CryptoError.tampered(what: "pack") }
                    let length = min(chunkSize + tagBytes, sealed.count - offset)
                    var messageLength: UInt64 = 0
                    var tag: UInt8 = 0
                    guard crypto_secretstream_xchacha20poly1305_pull(
                        &state, outBase + plainLength, &messageLength, &tag, inBase + offset, UInt64(length), nil, 0) == 0 else {
                        throw CryptoError.tampered(what: "pack")
                    }
                    if tag == crypto_secretstream_xchacha20poly1305_tag_final() { sawFinal = true }
                    offset += length
                    plainLength += Int(messageLength)
                }
                guard sawFinal else { throw CryptoError.truncated(what: "pack") }
            }
        }
        var unpadded = 0
        guard plainLength > 0, sodium_unpad(&unpadded, plain, plainLength, plainLength) == 0 else {
            Sodium.wipe(&plain)
            throw CryptoError.tampered(what: "pack padding")
        }
        plain.removeLast(plain.count - unpadded)
        return plain
    }
}
