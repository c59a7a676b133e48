import Foundation
import QuireCore
import QuireGit

/// Transfer options for fetch and push: credentials from the environment and the device's
/// local config (`sshKey`), the timeout (`timeout`, default 60 s), TLS trust (the CA variables
/// and `pinnedCertificates`), and a progress line on a terminal.
enum TransferSetup {
    /// `showProgress` false keeps standard error quiet (e.g. under `--json`).
    static func options(context: CommandContext, vault: Vault?, showProgress: Bool = true) -> TransferOptions {
        options(context: context, vault: vault, line: showProgress ? progressLine(context.output) : nil)
    }

    /// The progress line for a command's transfers: nil unless standard error is a terminal.
    static func progressLine(_ output: Output) -> TransferProgressLine? {
        output.stderrIsTerminal ? TransferProgressLine(output: output) : nil
    }

    /// Options whose transfers draw on `line` (nil: no progress).
    static func options(context: CommandContext, vault: Vault?, line: TransferProgressLine?) -> TransferOptions {
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
        var progress: (@Sendable (TransferProgress) -> Void)?
        if let line { progress = { line.update($0) } }
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

    /// `.quire/local/config.yml`, when present and readable.
    static func localConfig(_ vault: Vault) -> VaultConfig? {
        guard let data = try? Data(contentsOf: vault.url(for: ".quire/local/config.yml")) else { return nil }
        return try? VaultConfig(data: data, path: ".quire/local/config.yml")
    }
}
