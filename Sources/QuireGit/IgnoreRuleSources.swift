import Foundation

/// Where git's ignore rules come from, read without libgit2: enough to tell cheaply whether any
/// rule could hide a file of the work tree. Most vaults have no rules but quire's own
/// (`.quire/local/`, `.quire/cache/`, Obsidian's hidden folders), and then libgit2 — its
/// start-up, the repository, the index — need not be asked at all. Every answer errs towards
/// "may hide": then libgit2 decides, as it always did.
public struct IgnoreRuleSources: Sendable {
    /// The work tree's root folder.
    public let workTree: String
    /// The repository's `.git` folder.
    public let gitDirectory: String
    private let home: String
    private let xdgConfig: String

    /// The sources of the work tree at `workTree`; nil when its `.git` is not a folder (a linked
    /// work tree or a submodule keep their rules elsewhere: ask libgit2). `environment` gives
    /// `HOME` and `XDG_CONFIG_HOME`, as libgit2 reads them.
    public init?(workTree: URL, environment: [String: String]) {
        let root = workTree.path
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: root + "/.git", isDirectory: &isFolder), isFolder.boolValue else {
            return nil
        }
        self.workTree = root
        gitDirectory = root + "/.git"
        home = environment["HOME"] ?? NSHomeDirectory()
        xdgConfig = environment["XDG_CONFIG_HOME"] ?? home + "/.config"
    }

    /// The configuration files that may hold or name rules: the repository's, the user's global
    /// and XDG ones (the system's `/etc/gitconfig` is read only to look for an excludes file).
    var configFiles: [String] { [gitDirectory + "/config", home + "/.gitconfig", xdgConfig + "/git/config"] }

    /// git's excludes file when no configuration names one (`$XDG_CONFIG_HOME/git/ignore`); nil
    /// when a configuration file names one, includes other files or turns on per-worktree
    /// configuration (`config.worktree`): only libgit2 can tell.
    public func defaultExcludesFile() -> String? {
        for file in configFiles + ["/etc/gitconfig"] {
            guard let data = FileManager.default.contents(atPath: file) else { continue }
            let text = String(decoding: data, as: UTF8.self).lowercased()
            if text.contains("excludesfile") || text.contains("include") || text.contains("worktreeconfig") { return nil }
        }
        return xdgConfig + "/git/ignore"
    }

    /// The files outside the work tree's folders that hold or name rules, as QuireGit's
    /// `Repository.ignoreRuleFiles` lists them; nil when a configuration names the excludes file.
    public func ruleFiles() -> [String]? {
        guard let excludes = defaultExcludesFile() else { return nil }
        return [gitDirectory + "/info/exclude"] + configFiles + [excludes]
    }

    /// Whether the rules outside the work tree's folders (`.git/info/exclude`, the excludes file)
    /// may hide a file.
    public func outsideRulesMayHide() -> Bool {
        guard let excludes = defaultExcludesFile() else { return true }
        return Self.fileMayHide(gitDirectory + "/info/exclude") || Self.fileMayHide(excludes)
    }

    /// Whether the `.gitignore` of `folder` (work-tree-relative; `""` is the root) may hide a file.
    public func folderRulesMayHide(_ folder: String) -> Bool {
        Self.fileMayHide(folder.isEmpty ? workTree + "/.gitignore" : workTree + "/" + folder + "/.gitignore")
    }

    /// Whether the rules file at `path` may hide a file: false when it is missing, or when it
    /// holds only lines that cannot hide a visible one (see `mayHide`); true when it cannot be read.
    static func fileMayHide(_ path: String) -> Bool {
        guard let data = FileManager.default.contents(atPath: path) else {
            return FileManager.default.fileExists(atPath: path) && !Self.isFolder(path)
        }
        return mayHide(String(decoding: data, as: UTF8.self))
    }

    private static func isFolder(_ path: String) -> Bool {
        var isFolder: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) && isFolder.boolValue
    }

    /// Whether rules text may hide a file whose path has no hidden part (no name starting with
    /// a dot: the only files quire reads). Blank lines, comments and negations hide nothing; a
    /// pattern whose first name starts with a dot (`.quire/local/`, `.obsidian/workspace*.json`,
    /// `.trash/`, `/.cache`) hides only hidden names. Anything else may.
    public static func mayHide(_ text: String) -> Bool {
        for raw in text.split(whereSeparator: { $0 == "\n" || $0 == "\r" }) {
            var line = Substring(raw)
            while line.last == " " || line.last == "\t" { line.removeLast() }
            if line.isEmpty || line.hasPrefix("#") || line.hasPrefix("!") { continue }
            if line.hasPrefix("/") { line.removeFirst() }
            if line.hasPrefix(".") { continue }
            return true
        }
        return false
    }
}
