import Foundation
import QuireCore
#if canImport(Glibc)
import Glibc
#endif

/// A port: the rules that hide files of a vault from its catalog (git's ignore rules). The
/// catalog declares what it needs; QuireGit's `Repository` provides it (the conformance is one
/// line in the CLI's wiring, see Docs/architecture.md), so this module never sees libgit2.
public protocol IgnoreRules {
    /// What one walk of the vault asks: whether a vault-relative path (a folder's without a
    /// trailing slash) is hidden. A tracked note must cost no file access (nearly every note of
    /// a synced vault is tracked): freshness stays at one `stat` per note.
    func ignoreMatcher() throws -> (_ path: String, _ isFolder: Bool) -> Bool
    /// Whether the one file `path` is hidden (for the few files a watcher names).
    func isIgnoredFile(_ path: String) throws -> Bool
    /// The files outside the vault's folders that hold or name rules (they may be missing).
    func ignoreRuleFiles(environment: [String: String]) throws -> [String]
    /// Called once the walk that asked `ignoreMatcher()` has ended (it may remember the verdicts).
    func walkFinished()
    /// Told by the walk, for each folder it enters and before any of its entries is asked about,
    /// whether the folder holds a `.gitignore` (from the folder's listing: read, or unchanged
    /// since the last walk), so the rules need not look for one themselves.
    func folderListed(_ folder: String, holdsGitignore: Bool)
}

extension IgnoreRules {
    /// Nothing to remember by default.
    public func walkFinished() {}

    /// Rules that do not need it look for themselves.
    public func folderListed(_ folder: String, holdsGitignore: Bool) {}

    /// A fingerprint of `ignoreRuleFiles`: each file's stamp (or its absence) goes in, so an
    /// edit to any of them changes it (a watcher cannot see those files).
    func fingerprint(environment: [String: String]) throws -> UInt64 {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        func mix(_ value: UInt64) { hash = (hash ^ value) &* 0x0000_0100_0000_01B3 }
        for file in try ignoreRuleFiles(environment: environment) {
            var status = stat()
            guard stat(file, &status) == 0 else {
                mix(0)
                continue
            }
            mix(FileStamp(status).digest)
        }
        return hash
    }
}
