import QuireGit
import QuireKit

// The one seam left between the CLI and QuireGit: `TransferSetup` (the sync's transfer
// options, still in the CLI until it moves into QuireKit) hands libgit2's progress reports
// to the line. It goes when `TransferSetup` passes `TransferActivity` values itself.
extension TransferProgressLine {
    /// Takes one report from libgit2's callback (see `update(_: TransferActivity)`).
    func update(_ progress: TransferProgress) {
        update(TransferActivity(progress))
    }
}
