import Foundation
import QuireCore
import QuireGit
import QuireSearch

/// The wiring of QuireSearch's `IgnoreRules` port to QuireGit: a repository already answers it
/// with libgit2's own ignore evaluation. It lives in the application layer, where both modules
/// are visible, because neither library may import the other (Docs/architecture.md).
extension Repository: IgnoreRules {}

/// The git ignore rules of a vault, asked of libgit2 only when a rule could hide a note.
/// Most vaults have no rules but quire's own (`IgnoreRuleSources`): then no repository is opened
/// and no index read — a walk asks one more `.gitignore` per folder, nothing per note. As soon
/// as a rule file that may hide something is found (outside the vault at the start, or a
/// folder's `.gitignore` before the walk enters it), libgit2 answers for the rest: nothing it
/// would have hidden was passed before, since a folder's rules reach only below it.
public final class GitIgnoreRules: IgnoreRules {
    private let root: URL
    private let sources: IgnoreRuleSources?
    private var opened: Repository?
    private var outsideMayHide: Bool?
    private var folderMayHide: [String: Bool] = [:]

    private init(root: URL, environment: [String: String]) {
        self.root = root
        sources = IgnoreRuleSources(workTree: root, environment: environment)
    }

    /// The ignore rules of `vault`; nil when the vault is no git repository (then no rule hides
    /// anything). `environment` gives `HOME` and `XDG_CONFIG_HOME` (where the user's rules are).
    public static func of(_ vault: Vault, environment: [String: String] = ProcessInfo.processInfo.environment)
        -> (any IgnoreRules)? {
        guard FileManager.default.fileExists(atPath: vault.root.appendingPathComponent(".git").path) else { return nil }
        return GitIgnoreRules(root: vault.root, environment: environment)
    }

    public func ignoreMatcher() throws -> (_ path: String, _ isFolder: Bool) -> Bool {
        guard !rulesMayHide(in: "") else { return try repository().ignoreMatcher() }
        var matcher: ((String, Bool) -> Bool)?
        var unreadable = false
        return { [self] path, isFolder in
            if matcher == nil, !unreadable, isFolder, rulesMayHide(in: path) {
                // Rules that cannot be read at all hide nothing (as in `FreshCatalog.noteListing`).
                do { matcher = try repository().ignoreMatcher() } catch { unreadable = true }
            }
            return matcher?(path, isFolder) ?? false
        }
    }

    public func isIgnoredFile(_ path: String) throws -> Bool {
        var folder = ""
        let folders = path.split(separator: "/").dropLast()
        var mayHide = rulesMayHide(in: "")
        for name in folders where !mayHide {
            folder += (folder.isEmpty ? "" : "/") + name
            mayHide = rulesMayHide(in: folder)
        }
        return mayHide ? try repository().isIgnoredFile(path) : false
    }

    public func ignoreRuleFiles(environment: [String: String]) throws -> [String] {
        if let files = sources?.ruleFiles() { return files }
        return try repository().ignoreRuleFiles(environment: environment)
    }

    /// Whether a rule may hide something in `folder` that the rules of the folders above it do
    /// not (for `""`: also the rules outside the work tree). Without sources it always may.
    private func rulesMayHide(in folder: String) -> Bool {
        guard let sources else { return true }
        if folder.isEmpty {
            if outsideMayHide == nil { outsideMayHide = sources.outsideRulesMayHide() }
            if outsideMayHide == true { return true }
        }
        if let known = folderMayHide[folder] { return known }
        let answer = sources.folderRulesMayHide(folder)
        folderMayHide[folder] = answer
        return answer
    }

    private func repository() throws -> Repository {
        if let opened { return opened }
        let repository = try Repository.open(at: root)
        opened = repository
        return repository
    }
}
