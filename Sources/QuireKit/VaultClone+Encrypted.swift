import Foundation
import QuireGit
import QuireSync

extension VaultClone {
    /// When the branch just fetched into `repository` is an encrypted vault's (its tree holds
    /// `keyring` and `manifest`), the sealing of its vault key, unlocked with the passphrase
    /// (`CryptoError.wrongPassphrase` for a wrong one) and kept with this device added
    /// (`RemoteKeys.join`), and the fetched branch dropped: what the host holds is read through
    /// the carrier instead. nil for a plain remote.
    static func unlockEncrypted(_ repository: Repository, _ options: Options) throws -> (any CarrierSealing)? {
        let fetched = "refs/remotes/origin/main"
        guard case .encrypted(let data) = try EncryptedHost.holding(tip: repository.referenceTarget(fetched), in: repository) else {
            return nil
        }
        guard let passphrase = options.passphrase else { throw CarrierError.keyUnavailable }
        let device = options.environment["QUIRE_DEVICE"].flatMap { $0.isEmpty ? nil : $0 } ?? ProcessInfo.processInfo.hostName
        let sealing = try RemoteKeys.join(at: options.root, keyring: data, passphrase: passphrase, device: device,
                                          now: options.now, environment: options.environment)
        for tracking in try repository.references(matching: "refs/remotes/origin/*") {
            try repository.deleteReference(tracking.name)
        }
        return sealing
    }
}
