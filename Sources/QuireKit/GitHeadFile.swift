import Foundation

/// The commit a work tree's `HEAD` names, read from `.git/HEAD`, its loose ref or
/// `packed-refs` without libgit2 — so that a command that only reads notes need not load it
/// to learn that git's dates are up to date (`HistoryDates`).
enum GitHeadFile {
    /// What the files say.
    enum Head: Equatable {
        /// No `.git` folder at the vault root: no history to date notes by.
        case noRepository
        /// A branch without commits yet.
        case unborn
        /// The commit, 40 hex digits.
        case commit(String)
        /// Something these files cannot tell (a `.git` file of a linked work tree, a ref
        /// pointing at another ref): ask libgit2.
        case unknown
    }

    /// The `HEAD` of the repository whose work tree is `root`.
    static func read(_ root: URL) -> Head {
        let git = root.appendingPathComponent(".git")
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: git.path, isDirectory: &isDirectory) else { return .noRepository }
        guard isDirectory.boolValue, let head = text(git.appendingPathComponent("HEAD")) else { return .unknown }
        if isHex(head) { return .commit(head.lowercased()) }
        guard head.hasPrefix("ref: ") else { return .unknown }
        let name = String(head.dropFirst(5))
        guard name.hasPrefix("refs/"), !name.contains("..") else { return .unknown }
        if let loose = text(git.appendingPathComponent(name)) { return isHex(loose) ? .commit(loose.lowercased()) : .unknown }
        guard let packed = text(git.appendingPathComponent("packed-refs")) else { return .unborn }
        for line in packed.split(separator: "\n") where line.hasSuffix(" " + name) {
            let hex = String(line.prefix(40))
            return isHex(hex) ? .commit(hex.lowercased()) : .unknown
        }
        return .unborn
    }

    private static func text(_ url: URL) -> String? {
        guard let data = FileManager.default.contents(atPath: url.path) else { return nil }
        return String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    private static func isHex(_ text: String) -> Bool {
        text.utf8.count == 40 && text.allSatisfy(\.isHexDigit)
    }
}
