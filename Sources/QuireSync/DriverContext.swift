import Foundation
import QuireGit

/// What git is doing when it runs quire's merge driver (`quire merge-driver`): whether a merge
/// that drops text may resolve itself there. In a merge commit the losing version stays in the
/// commit's other parent and the driver's decisions are recorded for `quire conflicts`
/// (`DriverDecisions`); a rebase, cherry-pick, revert or stash makes no merge commit, and git
/// then throws the losing side away (the replayed commit, the stash) — there, a collision is
/// left to the user as git leaves it, never decided. See Docs/sync.md, "The git CLI".
public enum DriverContext: Equatable, Sendable {
    /// `git merge` or `git pull` (merging).
    case merge
    /// Anything else; `name` names it for a message ("a rebase", "a cherry-pick, revert or stash").
    case replay(name: String, next: String)

    /// The context of a driver run by git in the work tree `workTree`, from git's environment
    /// (`GIT_REFLOG_ACTION`, which `git merge` and `git pull` set) and the rebase state folder.
    public static func current(environment: [String: String], workTree: URL) -> DriverContext {
        let gitDirectory = environment["GIT_DIR"].map { URL(fileURLWithPath: $0, relativeTo: workTree) }
            ?? gitDirectory(of: workTree)
        for state in ["rebase-merge", "rebase-apply"] {
            if let gitDirectory, FileManager.default.fileExists(atPath: gitDirectory.appendingPathComponent(state).path) {
                return .replay(name: "a rebase", next: "'git rebase --continue' (or 'git rebase --abort')")
            }
        }
        let action = environment["GIT_REFLOG_ACTION"] ?? ""
        if action.hasPrefix("merge") || (action.hasPrefix("pull") && !action.contains("--rebase")) { return .merge }
        return .replay(name: "a cherry-pick, revert or stash", next: "'git cherry-pick --continue', or drop the stash once you have what you need")
    }

    /// The repository folder of `workTree`: `.git`, or where a `.git` file points (a worktree, a submodule).
    static func gitDirectory(of workTree: URL) -> URL? {
        let dotGit = workTree.appendingPathComponent(".git")
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: dotGit.path, isDirectory: &isFolder) else { return nil }
        if isFolder.boolValue { return dotGit }
        guard let text = try? String(contentsOf: dotGit, encoding: .utf8), text.hasPrefix("gitdir:") else { return nil }
        let path = text.dropFirst("gitdir:".count).trimmingCharacters(in: .whitespacesAndNewlines)
        return URL(fileURLWithPath: path, relativeTo: workTree)
    }

    /// What the driver writes over OURS in this context: the resolver's merge, except where it
    /// dropped text outside a merge — there the note as git leaves a collision (both sides' lines
    /// between git's markers `<<<<<<<`, `=======`, `>>>>>>>`, the rest merged), with the context's
    /// name and the command that goes on, for the message.
    public func written(_ result: NoteMergeResult, base: Data?, ours: Data, theirs: Data,
                        path: String) throws -> (data: Data, leftAsConflict: (name: String, next: String)?) {
        guard case let .replay(name, next) = self, !result.decisions.isEmpty else { return (result.merged, nil) }
        return (try MergeFile.merge(base: base, ours: ours, theirs: theirs, path: path).data, (name, next))
    }
}
