import Foundation
import Testing

/// Commits made with git's plumbing straight into a bare repository, with entries no porcelain
/// command would accept (`.git/hooks/…`, `git~1`, `..`): what a hostile or broken client can push.
struct HostileTree {
    let bare: URL

    /// One entry to put in the tree: its mode (`100644`, `100755`, `120000`, `160000`) and the
    /// blob's content (for `160000`, a commit id).
    struct Entry {
        var mode: String
        var content: String
    }

    /// A commit on top of `branch` whose tree is the branch's with `entries` (path → entry)
    /// added or replaced; moves the branch there and returns the commit id.
    @discardableResult
    func commit(_ entries: [String: Entry], branch: String = "main", message: String = "hostile") throws -> String {
        let parent = try run(["rev-parse", branch])
        var root: [String: String] = [:]  // name → `mode type id`
        for line in try run(["ls-tree", "\(branch)^{tree}"]).split(separator: "\n") {
            guard let tab = line.firstIndex(of: "\t") else { continue }
            root[String(line[line.index(after: tab)...])] = String(line[..<tab])
        }
        let top = try subtrees(entries.map { (Array($0.key.split(separator: "/", omittingEmptySubsequences: false).map(String.init)), $0.value) })
        for (name, value) in top { root[name] = value }
        let tree = try mktree(root)
        let commit = try run(["commit-tree", tree, "-p", parent, "-m", message],
                             environment: ["GIT_AUTHOR_DATE": "2026-11-29T11:00:00Z", "GIT_COMMITTER_DATE": "2026-11-29T11:00:00Z"])
        try run(["update-ref", "refs/heads/\(branch)", commit])
        return commit
    }

    /// name → `mode type id` for the first component of every path, folders made recursively.
    private func subtrees(_ entries: [([String], Entry)]) throws -> [String: String] {
        var result: [String: String] = [:]
        var folders: [String: [([String], Entry)]] = [:]
        for (components, entry) in entries {
            if components.count == 1 {
                if entry.mode == "160000" {
                    result[components[0]] = "160000 commit \(entry.content)"
                } else {
                    result[components[0]] = "\(entry.mode) blob \(try blob(entry.content))"
                }
            } else {
                folders[components[0], default: []].append((Array(components.dropFirst()), entry))
            }
        }
        for (name, inner) in folders { result[name] = "040000 tree \(try mktree(try subtrees(inner)))" }
        return result
    }

    private func blob(_ content: String) throws -> String {
        let file = bare.appendingPathComponent("hostile-blob")
        try Data(content.utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        return try run(["hash-object", "-w", file.path])
    }

    private func mktree(_ entries: [String: String]) throws -> String {
        let file = bare.appendingPathComponent("hostile-tree")
        try Data(entries.sorted { $0.key < $1.key }.map { "\($0.value)\t\($0.key)\n" }.joined().utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        return try run(["-c", "core.protectNTFS=false", "mktree"], stdin: file)
    }

    /// Runs the git CLI in the bare repository (stdin from a file when given) and returns its
    /// trimmed output; a failure fails the test.
    @discardableResult
    private func run(_ arguments: [String], stdin: URL? = nil, environment extra: [String: String] = [:]) throws -> String {
        let result = try gitCLI(["--git-dir=\(bare.path)"] + arguments, in: bare, environment: extra, stdin: stdin)
        try #require(result.code == 0, "git \(arguments.joined(separator: " ")) failed: \(result.stderr)")
        return result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
