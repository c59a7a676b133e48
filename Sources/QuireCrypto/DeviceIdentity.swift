import CSodium
import QuireCore

/// This device's key pair for an encrypted remote: an X25519 pair (`crypto_box_keypair`) whose
/// public half receives the vault key in a sealed box (`crypto_box_seal`) in the keyring.
/// Kept in a file of its own (mode 0600, by the transport under `.git/quire/`), never synced.
/// The secret key is held in memory this class owns, zeroed and freed in `deinit`.
public final class DeviceIdentity: @unchecked Sendable, CustomStringConvertible {
    /// The format version of the identity file.
    public static let formatVersion = 1

    /// The X25519 public key (32 bytes): safe to publish.
    public let publicKey: [UInt8]
    /// The X25519 secret key (owned; zeroed and freed in `deinit`).
    private let secretKey: UnsafeMutableRawBufferPointer

    private init(publicKey: [UInt8], secretKey bytes: [UInt8]) {
        self.publicKey = publicKey
        secretKey = UnsafeMutableRawBufferPointer.allocate(byteCount: bytes.count, alignment: 16)
        secretKey.copyBytes(from: bytes)
    }

    deinit {
        if let base = secretKey.baseAddress { sodium_memzero(base, secretKey.count) }
        secretKey.deallocate()
    }

    /// A fresh key pair.
    public static func generate() throws(CryptoError) -> DeviceIdentity {
        try Sodium.ensure()
        var publicKey = [UInt8](repeating: 0, count: Int(crypto_box_publickeybytes()))
        var secret = [UInt8](repeating: 0, count: Int(crypto_box_secretkeybytes()))
        defer { Sodium.wipe(&secret) }
        try Sodium.check(crypto_box_keypair(&publicKey, &secret), "crypto_box_keypair")
        return DeviceIdentity(publicKey: publicKey, secretKey: secret)
    }

    /// The identity stored at `path`, or a new one written there (mode 0600) when there is none.
    public static func loadOrCreate(at path: String) throws(CryptoError) -> DeviceIdentity {
        if let existing = try load(at: path) { return existing }
        let identity = try generate()
        var secret = identity.secretKey.map { $0 }
        defer { Sodium.wipe(&secret) }
        let json = JSON.object([
            ("version", .int(formatVersion)),
            ("publicKey", .string(ContentDigest.hex(identity.publicKey))),
            ("secretKey", .string(ContentDigest.hex(secret))),
        ])
        try PrivateFile.write(json, to: path)
        return identity
    }

    /// The identity stored at `path`, or nil when there is no file.
    public static func load(at path: String) throws(CryptoError) -> DeviceIdentity? {
        guard let json = try PrivateFile.readJSON(path, formatVersion: formatVersion) else { return nil }
        guard let publicKey = json["publicKey"]?.string.flatMap(ContentDigest.bytes(hex:)),
              publicKey.count == Int(crypto_box_publickeybytes()),
              var secret = json["secretKey"]?.string.flatMap(ContentDigest.bytes(hex:)),
              secret.count == Int(crypto_box_secretkeybytes()) else {
            throw CryptoError.malformed(what: path, reason: "no X25519 key pair")
        }
        defer { Sodium.wipe(&secret) }
        return DeviceIdentity(publicKey: publicKey, secretKey: secret)
    }

    /// Seals `bytes` so that only the holder of `publicKey` can open them (`crypto_box_seal`):
    /// anyone can do this, which is why the keyring authenticates what it seals.
    static func sealedBox(_ bytes: [UInt8], to publicKey: [UInt8]) throws(CryptoError) -> [UInt8] {
        try Sodium.ensure()
        guard publicKey.count == Int(crypto_box_publickeybytes()) else {
            throw CryptoError.malformed(what: "device public key", reason: "\(publicKey.count) bytes")
        }
        var sealed = [UInt8](repeating: 0, count: bytes.count + Int(crypto_box_sealbytes()))
        try Sodium.check(crypto_box_seal(&sealed, bytes, UInt64(bytes.count), publicKey), "crypto_box_seal")
        return sealed
    }

    /// Opens a sealed box made for this device; nil when it was not made for this key pair or
    /// was changed.
    func openSealedBox(_ sealed: [UInt8]) -> [UInt8]? {
        let overhead = Int(crypto_box_sealbytes())
        guard sealed.count >= overhead, let secret = secretKey.baseAddress else { return nil }
        var plain = [UInt8](repeating: 0, count: sealed.count - overhead)
        let status = crypto_box_seal_open(&plain, sealed, UInt64(sealed.count), publicKey,
                                          secret.assumingMemoryBound(to: UInt8.self))
        return status == 0 ? plain : nil
    }

    /// Never the secret key: the public key's first bytes.
    public var description: String { "DeviceIdentity(public \(ContentDigest.hex(Array(publicKey.prefix(4)))))" }
}
