import Foundation
import CSodium

/// How much work Argon2id (`crypto_pwhash`, `ALG_ARGON2ID13`) puts into a passphrase: passes
/// over memory and memory in bytes. `moderate` by default; `interactive` for tests and the
/// documented test hook `QUIRE_PASSPHRASE_COST=interactive`.
public struct PassphraseCost: Sendable, Equatable {
    /// Passes over memory (`opslimit`).
    public let opsLimit: Int
    /// Memory in bytes (`memlimit`).
    public let memLimit: Int

    /// A cost of `opsLimit` passes over `memLimit` bytes.
    public init(opsLimit: Int, memLimit: Int) {
        self.opsLimit = opsLimit
        self.memLimit = memLimit
    }

    /// libsodium's MODERATE limits (3 passes, 256 MiB): about a second on a laptop.
    public static let moderate = PassphraseCost(opsLimit: Int(crypto_pwhash_opslimit_moderate()),
                                                memLimit: Int(crypto_pwhash_memlimit_moderate()))

    /// libsodium's INTERACTIVE limits (2 passes, 64 MiB).
    public static let interactive = PassphraseCost(opsLimit: Int(crypto_pwhash_opslimit_interactive()),
                                                   memLimit: Int(crypto_pwhash_memlimit_interactive()))

    /// Whether a keyring may ask for this cost: within libsodium's bounds and at most its
    /// SENSITIVE limits, so a host cannot make unlocking take unbounded memory or time.
    var isAcceptable: Bool {
        opsLimit >= Int(crypto_pwhash_opslimit_min()) && opsLimit <= Int(crypto_pwhash_opslimit_sensitive())
            && memLimit >= Int(crypto_pwhash_memlimit_min()) && memLimit <= Int(crypto_pwhash_memlimit_sensitive())
    }

    /// The 32-byte key Argon2id derives from `passphrase` (its Unicode NFC form in UTF-8, so
    /// one passphrase typed on two systems gives one key) and `salt`.
    func derive(passphrase: String, salt: [UInt8]) throws(CryptoError) -> [UInt8] {
        try Sodium.ensure()
        var secret = passphrase.precomposedStringWithCanonicalMapping.utf8.map { CChar(bitPattern: $0) }
        let length = secret.count
        secret.append(0)
        defer { secret.withUnsafeMutableBytes { raw in if let base = raw.baseAddress { sodium_memzero(base, raw.count) } } }
        var key = [UInt8](repeating: 0, count: 32)
        let status = crypto_pwhash(&key, UInt64(key.count), secret, UInt64(length), salt,
                                   UInt64(opsLimit), Int(memLimit), crypto_pwhash_alg_argon2id13())
        try Sodium.check(status, "crypto_pwhash")
        return key
    }
}
