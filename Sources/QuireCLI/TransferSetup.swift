import Foundation
import QuireCore
import QuireGit

/// Transfer options for fetch and push: credentials from the environment and the device's
/// local config (`sshKey`), the timeout (`timeout`, default 60 s), TLS trust (the CA variables
/// and `pinnedCertificates`), and a progress line on a terminal.
enum TransferSetup {
    /// `showProgress` false keeps standard error quiet (e.g. under `--json`).
    static func options(context: CommandContext, vault: Vault?, showProgress: Bool = true) -> TransferOptions {
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
        if let text = context.environment["QUIRE_TIMEOUT"], let seconds = Double(text), seconds > 0 { timeout = seconds }
        let progress = showProgress && context.output.stderrIsTerminal ? progressLine(context.output) : nil
        return TransferOptions(credentials: Credentials(environment: context.environment, sshKeyPath: sshKey),
                               timeout: timeout, progress: progress,
                               trust: TLSTrust(environment: context.environment,
                                               pinnedCertificates: local.map(pinnedCertificates) ?? []))
    }

    /// `pinnedCertificates` of a local config: one fingerprint or a list of them.
    static func pinnedCertificates(_ config: VaultConfig) -> [String] {
        switch config.value(forKey: "pinnedCertificates") {
        case .string(let text): return [text]
        case .list(let items): return items.compactMap(\.stringValue)
        default: return []
        }
    }

    /// A progress callback drawing one line on standard error (see `TransferProgressLine`).
    static func progressLine(_ output: Output) -> @Sendable (TransferProgress) -> Void {
        let line = TransferProgressLine(output: output)
        return { line.update($0) }
    }

    /// `.quire/local/config.yml`, when present and readable.
    static func localConfig(_ vault: Vault) -> VaultConfig? {
        guard let data = try? Data(contentsOf: vault.url(for: ".quire/local/config.yml")) else { return nil }
        return try? VaultConfig(data: data, path: ".quire/local/config.yml")
    }
}
