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
        let split = entries.map { (Array($0.key.split(separator: "/", omittingEmptySubsequences: false).map(String.init)), $0.value) }
        let tree = try mktree(try merged(split, into: try run(["rev-parse", "\(branch)^{tree}"])))
        let commit = try run(["commit-tree", tree, "-p", parent, "-m", message],
                             environment: ["GIT_AUTHOR_DATE": "2026-11-29T11:00:00Z", "GIT_COMMITTER_DATE": "2026-11-29T11:00:00Z"])
        try run(["update-ref", "refs/heads/\(branch)", commit])
        return commit
    }

    /// name → `mode type id` of the tree `base` (nil: empty) with `entries` (path components →
    /// entry) added or replaced, folders merged recursively.
    private func merged(_ entries: [([String], Entry)], into base: String?) throws -> [String: String] {
        var result: [String: String] = [:]
        if let base {
            for line in try run(["ls-tree", base]).split(separator: "\n") {
                guard let tab = line.firstIndex(of: "\t") else { continue }
                result[String(line[line.index(after: tab)...])] = String(line[..<tab])
            }
        }
        var folders: [String: [([String], Entry)]] = [:]
        for (components, entry) in entries {
            if components.count == 1 {
                result[components[0]] = entry.mode == "160000" ? "160000 commit \(entry.content)"
                    : "\(entry.mode) blob \(try blob(entry.content))"
            } else {
                folders[components[0], default: []].append((Array(components.dropFirst()), entry))
            }
        }
        for (name, inner) in folders {
            let existing = result[name].flatMap { $0.hasPrefix("040000 tree ") ? String($0.dropFirst(12)) : nil }
            result[name] = "040000 tree \(try mktree(try merged(inner, into: existing)))"
        }
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
