import QuireCrypto
import QuireKit

/// The refusals of an encrypted remote's keys (QuireCrypto's `CryptoError`) as messages, hints
/// and exit codes: a wrong passphrase, and a key this device cannot use, are authentication
/// failures (exit 4); a keyring changed, rolled back or forged by the host fails verification
/// (exit 8, as the rest of the remote).
enum CryptoErrorTranslator {
    /// The CLI error for `error`, or nil when it is not a `CryptoError`.
    static func translate(_ error: Error) -> CLIError? {
        if let error = error as? KeyManagementError {
            switch error {
            case .notEncrypted:
                return CLIError(error.description, hint: "'quire remote URL --encrypt' makes an encrypted remote (on an empty repository)")
            case .revokingThisDevice:
                return CLIError(error.description, hint: "run 'quire key revoke' on another device that holds the key", code: .usage)
            case .hostKeptMoving:
                return CLIError(error.description, hint: "try again; other devices are syncing", code: .pushRejected)
            }
        }
        guard let error = error as? CryptoError else { return nil }
        switch error {
        case .wrongPassphrase:
            return CLIError("wrong passphrase; nothing was changed",
                            hint: "type the vault's passphrase again (QUIRE_PASSPHRASE in scripts)", code: .authentication)
        case .noDeviceSlot:
            return CLIError("this device holds no key for the encrypted remote (never added, or revoked)",
                            hint: "a device that still has the key can tell: 'quire key status'; the passphrase adds this device again",
                            code: .authentication)
        case .tampered, .truncated, .forgedRotation, .rollback:
            return CLIError("the encrypted remote's keyring failed verification (\(error.description)); nothing was changed",
                            hint: "the host, or someone on the way, changed what it holds; 'quire key status' on another device shows the keyring it trusts",
                            code: .verificationFailed)
        case .unknownDevice:
            return CLIError(error.description, hint: "'quire key status' lists the devices")
        case .libsodium, .malformed, .unsupportedVersion, .fileFailed:
            return CLIError(error.description)
        }
    }
}
