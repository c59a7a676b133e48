import Foundation
#if canImport(Glibc)
import Glibc
#endif

extension Vault {
    /// Whether a reader may follow the symbolic link at `link` (an absolute path in the vault):
    /// the one rule every reader (listing, note and attachment reads, site export, render, search,
    /// the language server) and every write through a link obeys. A link is followed only when
    /// its target, all links resolved, exists inside the vault and outside `.git/`, `.quire/` and
    /// every other hidden folder (no component of its vault-relative path starts with `.`): a
    /// synced `cfg.md -> .git/config` is never read, published or written through.
    public func mayFollowLink(at link: String) -> Bool {
        guard let target = Vault.realPath(link) else { return false }
        return Vault.isFollowable(target: target, root: root.path)
    }

    /// Whether `target` (a real path, all links resolved) is one a link may lead to: inside
    /// `root` (real too), and not in a hidden folder or a hidden file of it.
    static func isFollowable(target: String, root: String) -> Bool {
        guard isInside(target, root: root) else { return false }
        return hiddenComponent(of: target.dropFirst(root.count)) == nil
    }
}
