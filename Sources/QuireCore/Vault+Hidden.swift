import Foundation

extension Vault {
    /// Whether a file or folder name is hidden (starts with `.`: `.git`, `.quire`, `.obsidian`,
    /// `.trash`): the one rule for where notes never live (DESIGN.md §1). A hidden folder is
    /// never walked, watched, imported from, published, written to by a name the synced config
    /// gives, or reached through a link.
    public static func isHidden(name: some StringProtocol) -> Bool {
        name.utf8.first == UInt8(ascii: ".")
    }

    /// `isHidden(name:)` for a name read as bytes (a directory entry).
    public static func isHidden<Name: Collection>(name: Name) -> Bool where Name.Element == UInt8 {
        name.first == UInt8(ascii: ".")
    }

    /// The first hidden component of the `/`-separated vault-relative `path`, or nil when it has
    /// none (`isHidden(name:)` for each component).
    public static func hiddenComponent<Path: StringProtocol>(of path: Path) -> Path.SubSequence? {
        path.split(separator: "/").first { isHidden(name: $0) }
    }
}
