import Foundation
import QuireCore
import QuireGit
import QuireKit

/// A command's transfer options: QuireKit's `TransferSettings` with a progress line on a
/// terminal.
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
        var progress: (@Sendable (TransferProgress) -> Void)?
        if let line { progress = { line.update($0) } }
        return TransferSettings.options(vault: vault, environment: context.environment, progress: progress)
    }

    /// `pinnedCertificates` of a local config: one fingerprint or a list of them.
    static func pinnedCertificates(_ config: VaultConfig) -> [String] {
        TransferSettings.pinnedCertificates(config)
    }
}
