/// Why a cryptographic operation of an encrypted remote failed. Each case names the libsodium
/// function that failed, the file concerned or what was found tampered with, and describes
/// itself in one readable lowercase sentence.
public enum CryptoError: Error, Equatable, Sendable, CustomStringConvertible {
    /// A libsodium call failed (`function` names it); for `sodium_init`, libsodium is unusable.
    case libsodium(function: String)
    /// Authentication failed: `what` (a pack, the manifest, a keyring field) was changed, or
    /// opened with the wrong key.
    case tampered(what: String)
    /// `what` ends before its final authenticated chunk: it was cut short.
    case truncated(what: String)
    /// The passphrase does not open the keyring's passphrase slot.
    case wrongPassphrase
    /// The keyring holds no slot for this device (never added, or revoked).
    case noDeviceSlot
    /// The keyring is older than one this device has already seen: (generation, revision)
    /// offered against the newest seen.
    case rollback(offeredGeneration: Int, offeredRevision: Int, seenGeneration: Int, seenRevision: Int)
    /// A keyring of a newer key generation whose chain does not lead back to the key this
    /// device knows: the new key was not made by a holder of the old one.
    case forgedRotation(generation: Int)
    /// `what` cannot be read: `reason` says why (bad JSON, a missing member, a bad length).
    case malformed(what: String, reason: String)
    /// The keyring's or a file's format `version` is newer than this quire reads.
    case unsupportedVersion(what: String, version: Int)
    /// No device of that name is in the keyring.
    case unknownDevice(name: String)
    /// A file (device identity, key memory) at `path` could not be read or written.
    case fileFailed(path: String, reason: String)

    /// A one-line lowercase description naming what failed.
    public var description: String {
        switch self {
        case let .libsodium(function):
            return function == "sodium_init" ? "libsodium cannot be initialised" : "libsodium's \(function) failed"
        case let .tampered(what):
            return "\(what) failed authentication: it was changed or the key is wrong"
        case let .truncated(what):
            return "\(what) is cut short (no final chunk)"
        case .wrongPassphrase:
            return "wrong passphrase"
        case .noDeviceSlot:
            return "this device has no key slot in the keyring (never added, or revoked)"
        case let .rollback(offeredGeneration, offeredRevision, seenGeneration, seenRevision):
            return "the keyring offered (generation \(offeredGeneration), revision \(offeredRevision)) is older than the one this device has seen (generation \(seenGeneration), revision \(seenRevision))"
        case let .forgedRotation(generation):
            return "key generation \(generation) was not made by a holder of the previous key"
        case let .malformed(what, reason):
            return "\(what) cannot be read: \(reason)"
        case let .unsupportedVersion(what, version):
            return "\(what) has format version \(version), newer than this quire reads"
        case let .unknownDevice(name):
            return "no device named '\(name)' in the keyring"
        case let .fileFailed(path, reason):
            return "\(path): \(reason)"
        }
    }
}
