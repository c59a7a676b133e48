import CSodium

/// BLAKE2b-256 digests (`crypto_generichash`) of an encrypted remote's files, and their hex
/// spelling. Named apart from QuireCore's `ContentHash` (a fast, non-cryptographic change check).
public enum ContentDigest {
    /// The digest length in bytes.
    public static let length = 32

    /// The BLAKE2b-256 digest of `bytes`.
    public static func of(_ bytes: [UInt8]) throws(CryptoError) -> [UInt8] {
        try keyed(bytes, key: [])
    }

    /// The BLAKE2b-256 digest of `bytes` keyed with `key` (16–64 bytes; empty for none): a MAC.
    static func keyed(_ bytes: [UInt8], key: [UInt8]) throws(CryptoError) -> [UInt8] {
        try Sodium.ensure()
        var digest = [UInt8](repeating: 0, count: length)
        let status = bytes.withUnsafeBufferPointer { input in
            key.withUnsafeBufferPointer { keyBytes in
                crypto_generichash(&digest, length, input.baseAddress, UInt64(input.count),
                                   keyBytes.isEmpty ? nil : keyBytes.baseAddress, keyBytes.count)
            }
        }
        try Sodium.check(status, "crypto_generichash")
        return digest
    }

    /// Lowercase hex of `bytes`.
    public static func hex(_ bytes: [UInt8]) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var text = [UInt8]()
        text.reserveCapacity(bytes.count * 2)
        for byte in bytes {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: text, as: UTF8.self)
    }

    /// The bytes spelled by `text` in hex (either case), or nil when it is not hex of whole bytes.
    public static func bytes(hex text: String) -> [UInt8]? {
        let digits = Array(text.utf8)
        guard digits.count % 2 == 0 else { return nil }
        func value(_ digit: UInt8) -> UInt8? {
            switch digit {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): return digit - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): return digit - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): return digit - UInt8(ascii: "A") + 10
            default: return nil
            }
        }
        var bytes = [UInt8]()
        bytes.reserveCapacity(digits.count / 2)
        var index = 0
        while index < digits.count {
            guard let high = value(digits[index]), let low = value(digits[index + 1]) else { return nil }
            bytes.append(high << 4 | low)
            index += 2
        }
        return bytes
    }
}
