import Foundation

/// A `LinkTargetIndex` that is another one with some notes' entries replaced: the notes at
/// `replaced` (their paths in `base`, by bytes) are left out of `base`'s answers and `changes`
/// answers for their new entries. What a move or a rename resolves links with afterwards: the
/// vault's table with the few moved notes changed, instead of a second table of every note.
public struct LinkTargetOverlay: LinkTargetIndex {
    private let base: any LinkTargetIndex
    private let replaced: Set<ExactPath>
    private let changes: LinkTargetTable

    /// `base` with the notes at `replaced` answered by `changes` instead.
    public init(base: any LinkTargetIndex, replacing replaced: Set<ExactPath>, with changes: LinkTargetTable) {
        self.base = base
        self.replaced = replaced
        self.changes = changes
    }

    private func kept(_ paths: [String]) -> [String] {
        replaced.isEmpty ? paths : paths.filter { !replaced.contains(ExactPath($0)) }
    }

    /// See `LinkTargetIndex`.
    public func files(atPathKey key: String) -> [String] { kept(base.files(atPathKey: key)) + changes.files(atPathKey: key) }
    /// See `LinkTargetIndex`.
    public func files(withNameKey key: String) -> [String] { kept(base.files(withNameKey: key)) + changes.files(withNameKey: key) }
    /// See `LinkTargetIndex`.
    public func notes(withTitleKey key: String) -> [String] { kept(base.notes(withTitleKey: key)) + changes.notes(withTitleKey: key) }
    /// See `LinkTargetIndex`.
    public func notes(withAliasKey key: String) -> [String] { kept(base.notes(withAliasKey: key)) + changes.notes(withAliasKey: key) }
}
