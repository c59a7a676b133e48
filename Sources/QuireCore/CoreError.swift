import Foundation

/// Errors thrown by QuireCore. Each case carries the path, line or key it concerns and
/// describes itself in one readable lowercase sentence.
public enum CoreError: Error, CustomStringConvertible, Equatable, Sendable {
    /// The front matter could not be read, so it is never rewritten.
    case unreadableFrontMatter(line: Int?, reason: String)
    /// The front matter is not YAML (TOML is read-only).
    case readOnlyFrontMatter(format: FrontMatterFormat)
    /// A key is empty or otherwise unusable as a front-matter key.
    case invalidKey(key: String)
    /// An edit would have produced front matter that does not read back as written.
    case editFailed(key: String, reason: String)
    /// No vault (a directory holding `.quire/`) was found from this directory upward, or an
    /// explicitly given vault path (`--vault`, `QUIRE_VAULT`) holds no `.quire/`.
    case vaultNotFound(start: String)
    /// The vault is inside a git work tree whose root is elsewhere.
    case vaultNotAtWorkTreeRoot(vault: String, workTreeRoot: String)
    /// The given vault path does not exist or is not a directory.
    case notADirectory(path: String)
    /// A path leaves the vault (`..`, absolute, or a symlink pointing outside).
    case pathOutsideVault(path: String)
    /// A path goes through a symbolic link into `.git/`, `.quire/` or another hidden folder
    /// (`Vault.mayFollowLink`): it is never read or written through.
    case linkIntoHiddenFolder(path: String)
    /// A path is empty or contains characters quire refuses (NUL).
    case invalidPath(path: String)
    /// A file could not be read.
    case readFailed(path: String, reason: String)
    /// A file could not be written.
    case writeFailed(path: String, reason: String)
    /// No note matches a NOTE argument.
    case noteNotFound(query: String)
    /// Several notes match a NOTE argument.
    case ambiguousNote(query: String, candidates: [String])
    /// The vault configuration could not be read.
    case invalidConfig(path: String, line: Int?, reason: String)
    /// A clock override (`QUIRE_NOW`) is not an ISO 8601 time.
    case invalidTime(text: String)
    /// The vault's format (`version` in `.quire/config.yml`) is newer than this quire knows:
    /// writing could damage what a newer quire wrote, so every write is refused.
    case vaultFormatTooNew(version: Int, supported: Int)

    /// A one-line lowercase description naming the path, line or key involved.
    public var description: String {
        switch self {
        case let .unreadableFrontMatter(line, reason):
            let at = line.map { " at line \($0)" } ?? ""
            return "front matter is unreadable\(at): \(reason); it is left as it is"
        case let .readOnlyFrontMatter(format):
            return "\(format.rawValue) front matter is read-only"
        case let .invalidKey(key):
            return "invalid front matter key '\(key)'"
        case let .editFailed(key, reason):
            return "cannot change '\(key)': \(reason)"
        case let .vaultNotFound(start):
            return "not inside a quire vault (no .quire/ found from \(start) upward)"
        case let .vaultNotAtWorkTreeRoot(vault, root):
            return "vault \(vault) is inside the git work tree \(root); a vault must be the root of its work tree"
        case let .notADirectory(path):
            return "not a directory: \(path)"
        case let .pathOutsideVault(path):
            return "path leaves the vault: \(path)"
        case let .linkIntoHiddenFolder(path):
            return "\(path) is a symbolic link into a hidden folder; it is not followed"
        case let .invalidPath(path):
            return "invalid path: '\(path)'"
        case let .readFailed(path, reason):
            return "cannot read \(path): \(reason)"
        case let .writeFailed(path, reason):
            return "cannot write \(path): \(reason)"
        case let .noteNotFound(query):
            return "no note matches '\(query)'"
        case let .ambiguousNote(query, candidates):
            return "'\(query)' matches several notes: \(candidates.joined(separator: ", "))"
        case let .invalidConfig(path, line, reason):
            let at = line.map { ":\($0)" } ?? ""
            return "invalid vault configuration \(path)\(at): \(reason)"
        case let .invalidTime(text):
            return "not an ISO 8601 time: '\(text)'"
        case let .vaultFormatTooNew(version, supported):
            return "this vault's format is version \(version), newer than this quire's (\(supported)); it is read-only here"
        }
    }
}
