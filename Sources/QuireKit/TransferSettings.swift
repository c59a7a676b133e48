import Foundation
import QuireCore
import QuireGit

/// Transfer options for fetch and push: credentials from the environment and the device's
/// local config (`sshKey`), the timeout (`timeout`, default 60 s, `QUIRE_TIMEOUT` overrides it),
/// TLS trust (the CA variables and `pinnedCertificates`), and the caller's progress callback.
public enum TransferSettings {
    /// The options for `vault` (nil: no vault yet, as for a clone); `progress` hears libgit2's
    /// transfer reports (nil: nobody listens).
    public static func options(vault: Vault?, environment: [String: String],
                               progress: (@Sendable (TransferProgress) -> Void)? = nil) -> TransferOptions {
        let local = vault.flatMap { localConfig($0) }
        let sshKey = local.flatMap { $0.value(forKey: "sshKey") }.flatMap(\.stringValue)
        var timeout: Double = 60
        if let value = local?.value(forKey: "timeout") {
            switch value {
            case .int(let seconds): timeout = Double(seconds)
            case .float(let seconds): timeout = seconds
            default: break
            }
        }
        if let text = environment["QUIRE_TIMEOUT"], let seconds = Double(text), seconds > 0 { timeout = seconds }
        return TransferOptions(credentials: Credentials(environment: environment, sshKeyPath: sshKey),
                               timeout: timeout, progress: progress,
                               trust: TLSTrust(environment: environment,
                                               pinnedCertificates: local.map(pinnedCertificates) ?? []))
    }

    /// `pinnedCertificates` of a local config: one fingerprint or a list of them.
    public static func pinnedCertificates(_ config: VaultConfig) -> [String] {
        switch config.value(forKey: "pinnedCertificates") {
        case .string(let text): return [text]
        case .list(let items): return items.compactMap(\.stringValue)
        default: return []
        }
    }

    /// `.quire/local/config.yml`, when present and readable.
    public static func localConfig(_ vault: Vault) -> VaultConfig? {
        guard let data = try? Data(contentsOf: vault.url(for: ".quire/local/config.yml")) else { return nil }
        return try? VaultConfig(data: data, path: ".quire/local/config.yml")
    }
}
