import Foundation

/// How the resolver settles a collision (DESIGN.md §4 "Strategies"), chosen with `--strategy`
/// or per path in `.quire/config.yml`.
public enum MergeStrategy: String, CaseIterable, Sendable {
    /// The side with the newer `updatedAt` (else commit time, else the larger blob id) wins.
    case newest
    /// Our side wins every collision; non-colliding changes of both sides are still merged.
    case ours
    /// Their side wins every collision; non-colliding changes of both sides are still merged.
    case theirs
    /// Like `newest`, and the losing version is also kept as a copy beside the winner.
    case keepBoth = "keep-both"
}
