import QuireCore
import QuireGit
import QuireSearch

/// The wiring of QuireSearch's `IgnoreRules` port to QuireGit: a repository already answers it
/// with libgit2's own ignore evaluation. It lives in the application layer, where both modules are visible, because
/// neither library may import the other (Docs/architecture.md).
extension Repository: IgnoreRules {}

/// The ignore rules of a vault.
public enum GitIgnoreRules {
    /// The vault's repository as its ignore rules; nil when the vault is no git repository
    /// (then no rule hides anything).
    public static func of(_ vault: Vault) -> (any IgnoreRules)? {
        try? Repository.open(at: vault.root)
    }
}
