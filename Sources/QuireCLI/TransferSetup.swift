import Foundation
import QuireKit

/// A command's transfer progress: a line on a terminal (QuireKit's `TransferSettings` does the
/// rest of a transfer's setup).
enum TransferSetup {
    /// The progress line for a command's transfers: nil unless standard error is a terminal
    /// (and the command is not `--quiet`).
    static func progressLine(_ output: Output) -> TransferProgressLine? {
        output.stderrIsTerminal && !output.quiet ? TransferProgressLine(output: output) : nil
    }
}
