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
/// and no index read — a walk asks one more `.gitignore` per folder, nothing per note. Where a
/// rule file may hide something (outside the vault, or the `.gitignore` of a folder above the
/// path), libgit2 answers. A vault whose rules do hide notes (an Obsidian vault's `.gitignore`)
/// would then load libgit2 on every command; instead the verdicts of the last full walk are
/// kept (`IgnoreVerdicts`) and reused while the rule files and the index are unchanged, so a
/// warm command asks libgit2 only about paths it has not seen.
public final class GitIgnoreRules: IgnoreRules {
    private let root: URL
    private let rootPath: String
    private let sources: IgnoreRuleSources?
    private var opened: Repository?
    private var gitMatcher: ((String, Bool) -> Bool)?
    private var unreadable = false
    private var outsideMayHide: Bool?
    private var folderMayHide: [String: Bool] = [:]
    private var hidesBelow: [String: Bool] = [:]
    /// Per folder, for the walk in progress: the stamp hash of its `.gitignore` (0: none; nil:
    /// not to be trusted; 0 without looking when the walk's listing of the folder holds none,
    /// `folderListed`), and when the walk started.
    private var ruleStamps: [String: UInt64?] = [:]
    private var walkStarted: Int64 = 0
    /// The walk in progress: the key its verdicts are recorded under (nil: not recorded), each
    /// path's verdict in the order asked, the verdicts the cache held, whether any verdict was
    /// asked anew, and whether any folder's rules differ from the cached ones.
    private var recordingKey: UInt64?
    private var recorded: [(UInt64, IgnoreVerdicts.Verdict)] = []
    /// The folders among `recorded` whose rules' stamp is filled in only when the verdicts are
    /// written: by then the walk has told whether each holds a `.gitignore`, so most need no
    /// `lstat`.
    private var pendingRules: [(index: Int, folder: String)] = []
    private var previous: IgnoreVerdicts?
    /// The cached verdicts the walk in progress reads (nil: none usable).
    private var cached: IgnoreVerdicts?
    /// What is known of each folder from the root down to the one whose entries the walk is
    /// asking about: pushed when the walk tells that it entered a folder (`folderListed`),
    /// popped when it asks about a path outside it. Walks that do not tell use the tables.
    private var frames: [Frame] = []
    private var askedAnew = false
    private var rulesChanged = false
    /// Whether libgit2 was asked anything by this value (for tests: the verdict cache spares it).
    private(set) var askedLibgit2 = false
    /// How many `.gitignore` files were looked at (`lstat`) by this value (for tests: the walk's
    /// listings spare the folders that hold none).
    private(set) var rulesLookedAt = 0
    /// The clock the racily-clean rule reads (`FileStamp.now`; a test passes one ahead of it
    /// instead of waiting out `FileStamp.racyWindow`).
    var clock: () -> Int64 = FileStamp.now

    /// A folder the walk is in: whether a rule may hide something below it, and whether its
    /// rules and those of every folder above it are the ones the cached verdicts were recorded
    /// with.
    private struct Frame {
        var folder: String
        var mayHide: Bool
        var unchanged: Bool
    }

    private init(root: URL, environment: [String: String]) {
        self.root = root
        rootPath = root.path
        sources = IgnoreRuleSources(workTree: root, environment: environment)
    }

    /// The ignore rules of `vault`; nil when the vault is no git repository (then no rule hides
    /// anything). `environment` gives `HOME` and `XDG_CONFIG_HOME` (where the user's rules are).
    public static func of(_ vault: Vault, environment: [String: String] = ProcessInfo.processInfo.environment)
        -> (any IgnoreRules)? {
        guard FileManager.default.fileExists(atPath: vault.root.appendingPathComponent(".git").path) else { return nil }
        return GitIgnoreRules(root: vault.root, environment: environment)
    }

    /// The matcher of one walk. Verdicts the last full walk recorded (`IgnoreVerdicts`) answer
    /// while nothing that decides them changed; any other path is asked of `verdict(_:isFolder:)`.
    /// `walkFinished()` then records this walk's verdicts for the next one.
    public func ignoreMatcher() throws -> (_ path: String, _ isFolder: Bool) -> Bool {
        // Each walk reads the rules afresh (a language server walks again after a `.gitignore`
        // changed), and libgit2's matcher, made when first needed, reads the index again.
        outsideMayHide = nil
        folderMayHide = [:]
        hidesBelow = [:]
        gitMatcher = nil
        unreadable = false
        ruleStamps = [:]
        let now = clock()
        walkStarted = now
        let key = sources.flatMap { sources in
            sources.ruleFiles().flatMap { IgnoreVerdicts.key(files: $0, index: sources.gitDirectory + "/index", now: now) }
        }
        cached = key.flatMap { IgnoreVerdicts.load(verdictsPath, key: $0) }
        previous = cached
        frames = []
        askedAnew = false
        rulesChanged = false
        recordingKey = key
        recorded = []
        pendingRules = []
        if let cached { recorded.reserveCapacity(cached.count) }
        // Per folder, for walks that do not tell which folder they entered: whether its rules
        // and those of every folder above it are as the cached verdicts were recorded with.
        var unchanged: [String: Bool] = [:]
        func rulesUnchanged(_ folder: String) -> Bool {
            if let known = unchanged[folder] { return known }
            let answer = ownRulesUnchanged(folder) && (folder.isEmpty || rulesUnchanged(Self.parent(of: folder)))
            unchanged[folder] = answer
            return answer
        }
        if key != nil { recordFolder("", ignored: false) }
        // The walk asks about the entries of one folder after another: what is known of the
        // last parent asked about is kept, and its name compared rather than hashed.
        var lastParent = "\u{0}"
        var lastMayHide = false
        var lastUnchanged = false
        return { [self] path, isFolder in
            if !Self.isParent(lastParent, of: path) {
                // Back from a subfolder (the walk is depth first): the frame of the folder
                // holding the path, when the walk told which folders it entered.
                while let top = frames.last, !Self.isParent(top.folder, of: path) { frames.removeLast() }
                if let top = frames.last {
                    lastParent = top.folder
                    lastMayHide = top.mayHide
                    lastUnchanged = cached != nil && top.mayHide && top.unchanged
                } else {
                    let parent = Self.parent(of: path)
                    lastParent = parent
                    lastMayHide = mayHideBelow(parent)
                    lastUnchanged = cached != nil && lastMayHide && rulesUnchanged(parent)
                }
            }
            guard lastMayHide else {
                // No rule above it may hide anything: not ignored, nothing to ask or remember —
                // but a folder's stamp, which the verdicts below it are checked against.
                if isFolder, recordingKey != nil {
                    let pathKey = IgnoreVerdicts.pathKey(path, isFolder: true)
                    // Keeps the cached verdicts' order in step with the walk's.
                    _ = cached?.next(pathKey)
                    recordFolder(path, ignored: false, key: pathKey)
                }
                return false
            }
            let pathKey = IgnoreVerdicts.pathKey(path, isFolder: isFolder)
            let ignored: Bool
            if lastUnchanged, let verdict = cached?.next(pathKey) {
                ignored = verdict.ignored
            } else {
                askedAnew = true
                ignored = verdict(path, isFolder: isFolder)
            }
            if recordingKey != nil {
                if isFolder {
                    recordFolder(path, ignored: ignored, key: pathKey)
                } else {
                    recorded.append((pathKey, IgnoreVerdicts.Verdict(ignored: ignored, rules: 0)))
                }
            }
            return ignored
        }
    }

    /// Records the verdicts of the walk that just ended, for the next walk, when any was asked
    /// anew. The cached verdicts this walk did not ask about (another kind of walk's: the
    /// attachments of `quire links`) are kept while no folder's rules changed — a verdict
    /// depends on the rules and the index, never on whether the path still exists — up to
    /// twice the walk's own number, so that paths long gone do not pile up.
    public func walkFinished() {
        guard let key = recordingKey else { return }
        defer {
            recordingKey = nil
            recorded = []
            pendingRules = []
            previous = nil
        }
        guard askedAnew || previous == nil else { return }  // every verdict came from the file
        var entries = recorded
        for (index, folder) in pendingRules {
            entries[index].1.rules = stamp(folder) ?? .max
        }
        if let previous, !rulesChanged, previous.count <= 2 * recorded.count + 1_024 {
            let asked = Set(recorded.map { $0.0 })
            entries += previous.entries.filter { !asked.contains($0.0) }
        }
        IgnoreVerdicts.save(entries, key: key, to: verdictsPath)
    }

    /// The walk entered `folder`. A listing that holds no `.gitignore` makes its rules' stamp
    /// "none" for this walk, with no `lstat` (the listing was read in this walk, or is one whose
    /// folder's times are unchanged: creating a `.gitignore` would have changed them); a folder
    /// that holds one is looked at. What is known of the folder is pushed as a frame on its
    /// parent's (the walk asked about the folder in its parent just before).
    public func folderListed(_ folder: String, holdsGitignore: Bool) {
        if !holdsGitignore, ruleStamps[folder] == nil { ruleStamps[folder] = .some(0) }
        if folder.isEmpty {
            frames = [Frame(folder: "", mayHide: rulesMayHide(in: ""), unchanged: ownRulesUnchanged(""))]
            return
        }
        while let top = frames.last, !Self.isParent(top.folder, of: folder) { frames.removeLast() }
        guard let parent = frames.last else { return }  // no frame to build on: the tables answer
        frames.append(Frame(folder: folder, mayHide: rulesMayHide(in: folder) || parent.mayHide,
                            unchanged: ownRulesUnchanged(folder) && parent.unchanged))
    }

    /// Whether the cached verdicts were recorded with the `.gitignore` of `folder` as it is now
    /// (the folders above it aside); a folder whose rules differ marks the walk's rules changed.
    private func ownRulesUnchanged(_ folder: String) -> Bool {
        guard cached != nil, let recorded = cached?[folder, isFolder: true] else { return false }
        guard let current = stamp(folder), recorded.rules == current else {
            rulesChanged = true
            return false
        }
        return true
    }

    /// Records a folder's verdict; its rules' stamp (for a folder not ignored) is filled in when
    /// the verdicts are written.
    private func recordFolder(_ folder: String, ignored: Bool, key: UInt64? = nil) {
        if !ignored { pendingRules.append((recorded.count, folder)) }
        recorded.append((key ?? IgnoreVerdicts.pathKey(folder, isFolder: true),
                         IgnoreVerdicts.Verdict(ignored: ignored, rules: 0)))
    }

    public func isIgnoredFile(_ path: String) throws -> Bool {
        guard mayHide(path) else { return false }
        askedLibgit2 = true
        return try repository().isIgnoredFile(path)
    }

    public func ignoreRuleFiles(environment: [String: String]) throws -> [String] {
        if let files = sources?.ruleFiles() { return files }
        return try repository().ignoreRuleFiles(environment: environment)
    }

    /// git's verdict on `path`: libgit2's, when a rule above it may hide something (rules that
    /// cannot be read hide nothing: a note is never hidden by mistake).
    private func verdict(_ path: String, isFolder: Bool) -> Bool {
        guard mayHide(path) else { return false }
        if gitMatcher == nil, !unreadable {
            askedLibgit2 = true
            do { gitMatcher = try repository().ignoreMatcher() } catch { unreadable = true }
        }
        return gitMatcher?(path, isFolder) ?? false
    }

    /// Whether a rule outside the work tree or in a folder above `path` may hide it.
    private func mayHide(_ path: String) -> Bool {
        mayHideBelow(Self.parent(of: path))
    }

    /// Whether a rule outside the work tree, in `folder` or in a folder above it may hide
    /// something below `folder` (remembered per folder).
    private func mayHideBelow(_ folder: String) -> Bool {
        if let known = hidesBelow[folder] { return known }
        let answer = rulesMayHide(in: folder) || (!folder.isEmpty && mayHideBelow(Self.parent(of: folder)))
        hidesBelow[folder] = answer
        return answer
    }

    /// The stamp hash of the `.gitignore` of `folder` for the walk in progress (0: none; nil:
    /// changed too recently to trust, or unreadable), looked at once per walk.
    private func stamp(_ folder: String) -> UInt64? {
        if let known = ruleStamps[folder] { return known }
        rulesLookedAt += 1
        let value = IgnoreVerdicts.stampHash(rootPath + (folder.isEmpty ? "" : "/" + folder) + "/.gitignore",
                                             now: walkStarted)
        ruleStamps[folder] = .some(value)
        return value
    }

    private var verdictsPath: String { rootPath + "/.quire/cache/ignore-verdicts" }

    /// Whether a rule may hide something in `folder` that the rules of the folders above it do
    /// not (for `""`: also the rules outside the work tree). Without sources it always may.
    private func rulesMayHide(in folder: String) -> Bool {
        guard let sources else { return true }
        if folder.isEmpty {
            if outsideMayHide == nil { outsideMayHide = sources.outsideRulesMayHide() }
            if outsideMayHide == true { return true }
        }
        // A folder without a `.gitignore` (nearly all) costs its stamp: none when the walk told
        // that its listing holds none, one `lstat` otherwise; nothing more is remembered of it.
        guard stamp(folder) != 0 else { return false }
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
