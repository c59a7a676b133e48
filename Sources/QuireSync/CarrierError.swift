import Foundation

/// Why an encrypted remote refused to fetch or push. A refused fetch changes nothing in the
/// vault: no object is indexed, no reference moves.
public enum CarrierError: Error, Equatable, Sendable, CustomStringConvertible {
    /// What the host holds failed verification (`reason` says which check): tampered, swapped,
    /// missing, rolled back or forked.
    case verificationFailed(reason: String)
    /// The remote is marked encrypted (`remote.origin.quire-encrypted`) but this device has no
    /// key to read or write it.
    case keyUnavailable
    /// `quire remote --encrypt` found the host already holding a branch (`encrypted`: an
    /// encrypted vault's) where it needs an empty repository.
    case hostNotEmpty(encrypted: Bool)
    /// A file of the encrypted remote's local state could not be read or written.
    case file(path: String, reason: String)

    /// A readable, lowercase description.
    public var description: String {
        switch self {
        case let .verificationFailed(reason):
            return "the encrypted remote failed verification: \(reason)"
        case .keyUnavailable:
            return "the remote is encrypted and this device holds no key for it"
        case let .hostNotEmpty(encrypted):
            return encrypted ? "the remote already holds an encrypted vault"
                : "the remote already holds a branch that is not an encrypted vault"
        case let .file(path, reason):
            return "\(path): \(reason)"
        }
    }
}
