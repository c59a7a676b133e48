import CSodium

/// The one place libsodium is initialised and its small helpers are called from. `sodium_init`
/// is thread-safe and idempotent; the `static let` runs it once per process.
enum Sodium {
    /// Whether `sodium_init()` succeeded (0: first call, 1: already initialised).
    private static let initialised: Bool = sodium_init() >= 0

    /// Initialises libsodium on first use; throws when it cannot be (no entropy source).
    static func ensure() throws(CryptoError) {
        guard initialised else { throw CryptoError.libsodium(function: "sodium_init") }
    }

    /// Checks a libsodium return code at once: 0 is success, anything else names `function`.
    static func check(_ status: Int32, _ function: String) throws(CryptoError) {
        guard status == 0 else { throw CryptoError.libsodium(function: function) }
    }

    /// `count` bytes from libsodium's random generator (`randombytes_buf`).
    static func randomBytes(_ count: Int) throws(CryptoError) -> [UInt8] {
        try ensure()
        var bytes = [UInt8](repeating: 0, count: count)
        bytes.withUnsafeMutableBytes { raw in
            if let base = raw.baseAddress { randombytes_buf(base, raw.count) }
        }
        return bytes
    }

    /// Whether two byte strings are equal, compared in constant time (`sodium_memcmp`).
    static func equal(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        guard a.count == b.count else { return false }
        guard !a.isEmpty else { return true }
        return a.withUnsafeBytes { left in
            b.withUnsafeBytes { right in
                guard let l = left.baseAddress, let r = right.baseAddress else { return false }
                return sodium_memcmp(l, r, left.count) == 0
            }
        }
    }

    /// Overwrites `bytes` with zeros in a way the compiler does not remove (`sodium_memzero`).
    static func wipe(_ bytes: inout [UInt8]) {
        bytes.withUnsafeMutableBytes { raw in
            if let base = raw.baseAddress { sodium_memzero(base, raw.count) }
        }
    }
}
