import CSodium

/// The vault key: 32 random bytes that seal every manifest of an encrypted remote (pack keys
/// travel inside the manifest). Held in memory of its own, zeroed with `sodium_memzero` and
/// freed when the last reference goes (this class owns the allocation); never shown by
/// `description`.
public final class VaultKey: @unchecked Sendable, CustomStringConvertible, Equatable {
    /// The length of a vault key in bytes.
    public static let length = 32

    /// The key's bytes (owned; written once in `init`, zeroed and freed in `deinit`).
    private let storage: UnsafeMutableRawBufferPointer

    /// A key from exactly `length` bytes (read from a keyring slot or the device's key memory).
    public init(bytes: [UInt8]) throws(CryptoError) {
        guard bytes.count == Self.length else {
            throw CryptoError.malformed(what: "vault key", reason: "\(bytes.count) bytes instead of \(Self.length)")
        }
        storage = UnsafeMutableRawBufferPointer.allocate(byteCount: Self.length, alignment: 16)
        storage.copyBytes(from: bytes)
    }

    /// A fresh key from libsodium's random generator.
    public static func random() throws(CryptoError) -> VaultKey {
        var bytes = try Sodium.randomBytes(length)
        defer { Sodium.wipe(&bytes) }
        return try VaultKey(bytes: bytes)
    }

    deinit {
        if let base = storage.baseAddress { sodium_memzero(base, storage.count) }
        storage.deallocate()
    }

    /// Calls `body` with the key's bytes; they must not escape it.
    public func withBytes<Result, Failure: Error>(_ body: (UnsafeRawBufferPointer) throws(Failure) -> Result) throws(Failure) -> Result {
        try body(UnsafeRawBufferPointer(storage))
    }

    /// A copy of the key's bytes, for writing it where it is kept (the caller wipes the copy).
    public func copyBytes() -> [UInt8] {
        Array(UnsafeRawBufferPointer(storage))
    }

    /// Never the key: `VaultKey(32 bytes)`.
    public var description: String { "VaultKey(32 bytes)" }

    /// Whether two keys are the same bytes, compared in constant time.
    public static func == (lhs: VaultKey, rhs: VaultKey) -> Bool {
        guard let left = lhs.storage.baseAddress, let right = rhs.storage.baseAddress else { return false }
        return sodium_memcmp(left, right, length) == 0
    }
}
