import Foundation
import QuireCore
import QuireGit

/// Transfer options for fetch and push: credentials from the environment and the device's
/// local config (`sshKey`), the timeout (`timeout`, default 60 s), TLS trust (the CA variables
/// and `pinnedCertificates`), and a progress line on a terminal.
enum TransferSetup {
    static func options(context: CommandContext, vault: Vault?) -> TransferOptions {
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
        let progress = context.output.stderrIsTerminal ? progressLine(context.output) : nil
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

    /// A progress callback drawing one line on standard error.
    static func progressLine(_ output: Output) -> @Sendable (TransferProgress) -> Void {
        let box = UncheckedOutput(output: output)
        return { update in
            guard update.totalObjects > 0 else { return }
            let percent = update.receivedObjects * 100 / update.totalObjects
            let text = "\r\(percent)% (\(update.receivedObjects)/\(update.totalObjects) objects, \(update.bytes / 1024) KiB)\u{1B}[K"
            box.output.progress(text)
        }
    }

    /// `.quire/local/config.yml`, when present and readable.
    static func localConfig(_ vault: Vault) -> VaultConfig? {
        guard let data = try? Data(contentsOf: vault.url(for: ".quire/local/config.yml")) else { return nil }
        return try? VaultConfig(data: data, path: ".quire/local/config.yml")
    }
}

/// Lets libgit2's transfer thread draw progress on standard error (writes are single `write(2)`
/// calls, so lines never interleave mid-byte).
private struct UncheckedOutput: @unchecked Sendable {
    let output: Output
}
